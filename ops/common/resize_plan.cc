// Resize's per-axis sampling plan (see resize_plan.h for the formulas and their source).
#include "common/resize_plan.h"

#include <algorithm>
#include <cmath>

namespace openatc_ops {

bool ParseResizeAttrs(const std::string &mode, const std::string &coord, const std::string &nearest, ResizeAttrs *a,
                      std::string *error) {
  if (mode == "nearest") a->mode = ResizeMode::kNearest;
  else if (mode == "linear") a->mode = ResizeMode::kLinear;
  else if (mode == "cubic") a->mode = ResizeMode::kCubic;
  else return *error = "mode '" + mode + "' is not one of nearest, linear, cubic", false;
  if (coord == "half_pixel") a->coord = CoordMode::kHalfPixel;
  else if (coord == "pytorch_half_pixel") a->coord = CoordMode::kPytorchHalfPixel;
  else if (coord == "align_corners") a->coord = CoordMode::kAlignCorners;
  else if (coord == "asymmetric") a->coord = CoordMode::kAsymmetric;
  else if (coord == "tf_half_pixel_for_nn") a->coord = CoordMode::kTfHalfPixelForNn;
  else if (coord == "tf_crop_and_resize") a->coord = CoordMode::kTfCropAndResize;
  else if (coord == "half_pixel_symmetric") a->coord = CoordMode::kHalfPixelSymmetric;
  else
    return *error = "coordinate_transformation_mode '" + coord +
                    "' is not one of half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn, "
                    "tf_crop_and_resize, half_pixel_symmetric",
           false;
  if (nearest == "round_prefer_floor") a->nearest = NearestMode::kRoundPreferFloor;
  else if (nearest == "round_prefer_ceil") a->nearest = NearestMode::kRoundPreferCeil;
  else if (nearest == "floor") a->nearest = NearestMode::kFloor;
  else if (nearest == "ceil") a->nearest = NearestMode::kCeil;
  else return *error = "nearest_mode '" + nearest + "' is not one of round_prefer_floor, round_prefer_ceil, floor, ceil", false;
  return true;
}

double SourceCoordinate(CoordMode m, double x, double scale, int64_t in, double roi_start, double roi_end) {
  const double resized = scale * static_cast<double>(in), last = static_cast<double>(in - 1);
  switch (m) {
    case CoordMode::kHalfPixel:
    case CoordMode::kHalfPixelSymmetric:  // PlanAxis adds the offset (it needs the output length)
      return (x + 0.5) / scale - 0.5;
    case CoordMode::kPytorchHalfPixel: return resized > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
    case CoordMode::kAlignCorners: return resized == 1 ? 0.0 : x * last / (resized - 1);
    case CoordMode::kAsymmetric: return x / scale;
    case CoordMode::kTfHalfPixelForNn: return (x + 0.5) / scale;
    case CoordMode::kTfCropAndResize:
      return resized > 1 ? roi_start * last + x * (roi_end - roi_start) * last / (resized - 1)
                         : 0.5 * (roi_start + roi_end) * last;
  }
  return 0.0;
}

namespace {
int64_t NearestIndex(double x, NearestMode m) {
  const double f = std::floor(x);
  if (x == f) return static_cast<int64_t>(f);
  const double frac = x - f;
  bool up = false;
  switch (m) {
    case NearestMode::kRoundPreferFloor: up = frac > 0.5; break;
    case NearestMode::kRoundPreferCeil: up = frac >= 0.5; break;
    case NearestMode::kFloor: up = false; break;
    case NearestMode::kCeil: up = true; break;
  }
  return static_cast<int64_t>(f) + (up ? 1 : 0);
}

// The Keys cubic kernel with parameter a at distance d (0 from |d| = 2).
double CubicKernel(double d, double a) {
  d = std::fabs(d);
  if (d <= 1) return ((a + 2) * d - (a + 3)) * d * d + 1;
  if (d < 2) return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
  return 0.0;
}

// Whether antialias stretches the kernel of this axis (linear or cubic, shrinking).
bool Stretched(const ResizeAttrs &a, double scale) {
  return a.mode != ResizeMode::kNearest && a.antialias && scale < 1;
}

// The kernel's half width in input elements: 1 (linear) or 2 (cubic), times 1 / scale when
// Stretched.
double Support(const ResizeAttrs &a, double scale) {
  const double support = a.mode == ResizeMode::kLinear ? 1.0 : 2.0;
  return Stretched(a, scale) ? support / scale : support;
}

// Keys cubic convolution weights of the 4 taps floor(x)-1 .. floor(x)+2 for t = x - floor(x).
void CubicWeights(double t, double a, double *w) {
  w[0] = CubicKernel(1 + t, a);
  w[1] = CubicKernel(t, a);
  w[2] = CubicKernel(1 - t, a);
  w[3] = CubicKernel(2 - t, a);
}
}  // namespace

double ResizeTaps(const ResizeAttrs &a, double scale) {
  if (a.mode == ResizeMode::kNearest) return 1;
  return 2 * std::ceil(Support(a, scale));
}

AxisPlan PlanAxis(const ResizeAttrs &a, int64_t in, int64_t out, double scale, double roi_start, double roi_end) {
  AxisPlan p;
  p.taps = static_cast<int>(ResizeTaps(a, scale));
  const bool stretched = Stretched(a, scale);
  const double kernel_scale = stretched ? scale : 1.0;
  const size_t taps = static_cast<size_t>(p.taps);
  p.index.assign(static_cast<size_t>(out) * taps, 0);
  p.weight.assign(static_cast<size_t>(out) * taps, 0.0);
  p.outside.assign(static_cast<size_t>(out), 0);
  const int64_t last = in - 1;
  auto clamp = [last](int64_t i) { return std::min(std::max(i, int64_t{0}), last); };
  bool identity = in == out;
  const double symmetric_offset = a.coord == CoordMode::kHalfPixelSymmetric
                                      ? static_cast<double>(in) / 2 *
                                            (1 - static_cast<double>(out) / (scale * static_cast<double>(in)))
                                      : 0.0;
  for (int64_t o = 0; o < out; ++o) {
    double x = SourceCoordinate(a.coord, static_cast<double>(o), scale, in, roi_start, roi_end) + symmetric_offset;
    const size_t base = static_cast<size_t>(o) * taps;
    if (a.coord == CoordMode::kTfCropAndResize && (x < 0 || x > static_cast<double>(last))) {
      p.outside[static_cast<size_t>(o)] = 1;
      identity = false;
      continue;
    }
    // Far outside the axis every tap clamps to the same edge element: bound x so that the
    // integer conversions below stay defined.
    const double margin = 8 + static_cast<double>(taps);
    if (!(x >= -margin)) x = -margin;
    if (x > static_cast<double>(in) + margin) x = static_cast<double>(in) + margin;
    const double f = std::floor(x), t = x - f;
    const int64_t x0 = static_cast<int64_t>(f);
    double *w = &p.weight[base];
    int64_t *idx = &p.index[base];
    if (a.mode == ResizeMode::kNearest) {
      idx[0] = clamp(NearestIndex(x, a.nearest));
      w[0] = 1.0;
    } else {
      // Taps x0 + first .. x0 + first + taps - 1, symmetric around x.
      const int64_t first = 1 - static_cast<int64_t>(taps / 2);
      if (stretched) {
        for (size_t k = 0; k < taps; ++k) {
          const double d = kernel_scale * (static_cast<double>(x0 + first + static_cast<int64_t>(k)) - x);
          w[k] = a.mode == ResizeMode::kLinear ? std::max(0.0, 1.0 - std::fabs(d)) : CubicKernel(d, a.cubic_a);
        }
      } else if (a.mode == ResizeMode::kLinear) {
        w[0] = 1.0 - t;
        w[1] = t;
      } else {
        CubicWeights(t, a.cubic_a, w);
      }
      double sum = 0;
      for (size_t k = 0; k < taps; ++k) {
        const int64_t raw = x0 + first + static_cast<int64_t>(k);
        if (a.exclude_outside && (raw < 0 || raw > last)) w[k] = 0.0;
        sum += w[k];
        idx[k] = clamp(raw);
      }
      if ((stretched || a.exclude_outside) && sum != 0)
        for (size_t k = 0; k < taps; ++k) w[k] /= sum;
    }
    double self = 0;
    for (size_t k = 0; k < taps; ++k) {
      if (idx[k] == o) self += w[k];
      else if (w[k] != 0) identity = false;
    }
    if (self != 1.0) identity = false;
  }
  p.identity = identity;
  return p;
}

}  // namespace openatc_ops
