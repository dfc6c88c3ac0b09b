// GridSample (ONNX GridSample-16 and -20): Y[n, c, o...] samples X [N, C, D1..Dr] at the location
// grid[n, o..., :] gives in normalised coordinates (-1..1; grid's last dim lists them innermost
// spatial dim first: x (width), y (height), z). Opset 16 is 4-D with modes bilinear, nearest and
// bicubic; opset 20 takes any r >= 1 and names the modes linear, nearest and cubic.
// align_corners = 1 maps -1 and 1 to the centres of the corner pixels, 0 to their outer edges.
// padding_mode: zeros (outside pixels read 0), border (clamped), reflection (mirrored at the
// borders). As ONNX's reference: a location outside the borders is first clamped (border) or
// reflected (reflection); nearest rounds half to even in every rank (ONNX 1.19's reference, np.rint); cubic
// uses Keys' kernel with A = -0.75 over a 4^r neighbourhood; each neighbour outside X is then
// padded per padding_mode. Math in double; Y has X's dtype.
#include <algorithm>
#include <cmath>

#include "common/index_util.h"
#include "common/math_util.h"
#include "common/signal.h"

namespace ge {
REG_OP(GridSample)
    .INPUT(X, TensorType::RealNumberType())
    .INPUT(grid, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType::RealNumberType())
    .ATTR(align_corners, Int, 0)
    .ATTR(mode, String, "")  // "": the opset's default (bilinear at 16, linear at 20)
    .ATTR(padding_mode, String, "zeros")
    .ATTR(onnx_opset, Int, 16)
    .OP_END_FACTORY_REG(GridSample);
}  // namespace ge

namespace openatc_ops {
namespace {
enum class Mode { kLinear, kNearest, kCubic };
enum class Padding { kZeros, kBorder, kReflection };

struct Attrs {
  Mode mode = Mode::kLinear;
  Padding padding = Padding::kZeros;
  bool align = false;
  int64_t opset = 16;
};

bool ReadAttrs(const gert::ExtendedKernelContext *ctx, Attrs *a) {
  a->opset = AttrInt(ctx, 3, 16);
  a->align = AttrInt(ctx, 0, 0) != 0;
  const bool v20 = a->opset >= 20;
  const char *lin = v20 ? "linear" : "bilinear", *cub = v20 ? "cubic" : "bicubic";
  std::string mode = AttrStr(ctx, 1, "");
  if (mode.empty()) mode = lin;
  if (mode == lin) {
    a->mode = Mode::kLinear;
  } else if (mode == "nearest") {
    a->mode = Mode::kNearest;
  } else if (mode == cub) {
    a->mode = Mode::kCubic;
  } else {
    return Fail(ctx, "mode '" + mode + "' is not one of " + lin + ", nearest, " + cub + " (GridSample-" +
                         std::to_string(a->opset) + "; opset 16 says bilinear/bicubic, opset 20 linear/cubic)"),
           false;
  }
  const std::string pad = AttrStr(ctx, 2, "zeros");
  if (pad == "zeros") {
    a->padding = Padding::kZeros;
  } else if (pad == "border") {
    a->padding = Padding::kBorder;
  } else if (pad == "reflection") {
    a->padding = Padding::kReflection;
  } else {
    return Fail(ctx, "padding_mode must be zeros, border or reflection, got '" + pad + "'"), false;
  }
  return true;
}

// Checks X [N, C, D1..Dr] against grid [N, O1..Or, r]; the output dims on success.
bool OutputDims(const gert::ExtendedKernelContext *ctx, const Attrs &a, const Dims &x, const Dims &g, Dims *out) {
  const size_t r = x.size() < 2 ? 0 : x.size() - 2;
  if (r < 1 || (a.opset < 20 && r != 2))
    return Fail(ctx, "X must be [N, C, H, W]" + std::string(a.opset < 20 ? "" : " or [N, C, D1, ..., Dr]") + ", got " +
                         DimsToString(x) + (a.opset < 20 ? " (GridSample-16 is 4-D only; opset 20 adds other ranks)" : "")),
           false;
  if (g.size() != r + 2 || (g.back() >= 0 && g.back() != static_cast<int64_t>(r)) ||
      (g[0] >= 0 && x[0] >= 0 && g[0] != x[0]))
    return Fail(ctx, "grid must be [N, out dims (" + std::to_string(r) + "), " + std::to_string(r) + "] for X " +
                         DimsToString(x) + ", got " + DimsToString(g)),
           false;
  *out = {x[0], x[1]};
  out->insert(out->end(), g.begin() + 1, g.end() - 1);
  return true;
}

// Mirrors v into [lo, hi] (ONNX's reference reflection).
double Reflect(double v, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (v < lo) {
    const double dx = lo - v, n = std::floor(dx / range), r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? lo + r : hi - r;
  }
  if (v > hi) {
    const double dx = v - hi, n = std::floor(dx / range), r = dx - n * range;
    return std::fmod(n, 2.0) == 0 ? hi - r : lo + r;
  }
  return v;
}

// Keys' cubic convolution weights of the neighbours at offsets -1, 0, 1, 2 for fraction t.
void CubicWeights(double t, double w[4]) {
  constexpr double A = -0.75;
  const double t1 = t + 1, t2 = 1 - t, t3 = 2 - t;
  w[0] = ((A * t1 - 5 * A) * t1 + 8 * A) * t1 - 4 * A;
  w[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  w[2] = ((A + 2) * t2 - (A + 3)) * t2 * t2 + 1;
  w[3] = ((A * t3 - 5 * A) * t3 + 8 * A) * t3 - 4 * A;
}

// Per spatial dim: the neighbour indices (already padded; -1 = a zero pixel) and weights.
struct Axis1d {
  int64_t idx[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
  int taps = 0;
};

class Sampler {
 public:
  Sampler(const Attrs &a, const Dims &spatial) : a_(a), dims_(spatial) {}

  // The flat (within one [D1..Dr] plane) offsets and weights of the sample at normalised
  // coordinates `g` (grid order: innermost dim first).
  void Taps(const double *g, std::vector<std::pair<int64_t, double>> *taps) const {
    const size_t r = dims_.size();
    std::vector<Axis1d> axes(r);
    for (size_t i = 0; i < r; ++i) axes[i] = Axis(g[r - 1 - i], dims_[i]);
    taps->clear();
    std::vector<int> k(r, 0);
    while (true) {
      int64_t off = 0;
      double w = 1;
      for (size_t i = 0; i < r && off >= 0; ++i) {
        const int64_t idx = axes[i].idx[k[i]];
        off = idx < 0 ? -1 : off * dims_[i] + idx;
        w *= axes[i].w[k[i]];
      }
      if (off >= 0 && w != 0) taps->emplace_back(off, w);
      size_t i = r;
      while (i > 0 && ++k[i - 1] == axes[i - 1].taps) k[--i] = 0;
      if (i == 0) break;
    }
  }

 private:
  // Index `i` of an axis of `d` pixels after padding; -1 for a zero pixel.
  int64_t Pad(int64_t i, int64_t d) const {
    if (i >= 0 && i < d) return i;
    switch (a_.padding) {
      case Padding::kZeros:
        return -1;
      case Padding::kBorder:
        return std::clamp<int64_t>(i, 0, d - 1);
      case Padding::kReflection: {
        const double lo = a_.align ? 0.0 : -0.5, hi = a_.align ? static_cast<double>(d - 1) : static_cast<double>(d) - 0.5;
        return std::clamp<int64_t>(static_cast<int64_t>(Reflect(static_cast<double>(i), lo, hi)), 0, d - 1);
      }
    }
    return -1;
  }

  Axis1d Axis(double n, int64_t d) const {
    const double len = static_cast<double>(d);
    // The reference holds the unnormalised coordinate in float32.
    double x = static_cast<float>(a_.align ? (n + 1) / 2.0 * (len - 1) : ((n + 1) * len - 1) / 2.0);
    if (a_.mode == Mode::kNearest) x = std::nearbyint(x);
    const double lo = a_.align ? 0.0 : -0.5, hi = a_.align ? len - 1 : len - 0.5;
    if (x < lo || x > hi) {
      if (a_.padding == Padding::kBorder) x = std::clamp(x, 0.0, len - 1);
      if (a_.padding == Padding::kReflection) x = Reflect(x, lo, hi);
    }
    Axis1d ax;
    if (!std::isfinite(x)) {  // a NaN or infinite grid value reads a zero pixel
      ax.taps = 1, ax.idx[0] = -1;
      return ax;
    }
    x = std::clamp(x, -4.0 * len - 8, 4.0 * len + 8);  // keeps the integer conversions below defined
    if (a_.mode == Mode::kNearest) {
      ax.taps = 1, ax.idx[0] = Pad(static_cast<int64_t>(x), d), ax.w[0] = 1;
    } else if (a_.mode == Mode::kLinear) {
      const double f = std::floor(x), t = x - f;
      ax.taps = 2;
      ax.idx[0] = Pad(static_cast<int64_t>(f), d), ax.w[0] = 1 - t;
      ax.idx[1] = Pad(static_cast<int64_t>(f) + 1, d), ax.w[1] = t;
    } else {
      const double f = std::floor(x);
      ax.taps = 4;
      CubicWeights(x - f, ax.w);
      for (int k = 0; k < 4; ++k) ax.idx[k] = Pad(static_cast<int64_t>(f) - 1 + k, d);
    }
    return ax;
  }

  Attrs a_;
  Dims dims_;
};
}  // namespace

class GridSample : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsNumber(d)) return Fail(ctx, "X must be a float or integer tensor, got " + DtypeName(d));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *g = ctx->GetInputShape(1);
    if (x == nullptr || g == nullptr) return Fail(ctx, "inputs X and grid expected");
    Attrs a;
    Dims out;
    if (!ReadAttrs(ctx, &a) || !OutputDims(ctx, a, ToDims(*x), ToDims(*g), &out)) return ge::GRAPH_FAILED;
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *g = ctx->GetInputTensor(1);
    if (x == nullptr || g == nullptr) return Fail(ctx, "inputs X and grid expected");
    Attrs a;
    Dims out;
    const Dims xd = TensorDims(*x), gd = TensorDims(*g);
    if (!ReadAttrs(ctx, &a) || !OutputDims(ctx, a, xd, gd, &out)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<double> xv, gv;
    if (!ReadAsDouble(x, &xv) || !ReadAsDouble(g, &gv)) return Fail(ctx, "X and grid must be numeric tensors");
    const Dims spatial(xd.begin() + 2, xd.end());
    for (int64_t s : spatial)
      if (s <= 0) return Fail(ctx, "X must have non-empty spatial dims, got " + DimsToString(xd));
    const int64_t r = static_cast<int64_t>(spatial.size()), n_n = xd[0], c_n = xd[1];
    const int64_t plane = NumElements(spatial), locs = Prod(out, 2, out.size());
    std::vector<double> yv(static_cast<size_t>(NumElements(out)));
    Sampler sampler(a, spatial);
    std::vector<std::pair<int64_t, double>> taps;
    for (int64_t n = 0; n < n_n; ++n)
      for (int64_t o = 0; o < locs; ++o) {
        sampler.Taps(&gv[static_cast<size_t>((n * locs + o) * r)], &taps);
        for (int64_t c = 0; c < c_n; ++c) {
          const double *p = &xv[static_cast<size_t>((n * c_n + c) * plane)];
          double acc = 0;
          for (const auto &t : taps) acc += t.second * p[t.first];
          yv[static_cast<size_t>((n * c_n + c) * locs + o)] = acc;
        }
      }
    StoreAs(yv, x->GetDataType(), y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(GridSample);

}  // namespace openatc_ops
