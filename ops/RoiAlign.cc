// RoiAlign (ONNX RoiAlign-10 and -16): for each region rois[r] = (x1, y1, x2, y2) of image
// batch_indices[r] of X [N, C, H, W], an output_height x output_width grid of bins, each the
// average (mode "avg") or maximum ("max") of sampling_ratio^2 bilinear samples (sampling_ratio 0:
// ceil(roi size / output size) per axis), coordinates scaled by spatial_scale.
// coordinate_transformation_mode "half_pixel" (the default since opset 16) shifts the scaled
// coordinates by -0.5; "output_half_pixel" (opset 10's only behaviour) does not and makes rois
// at least 1x1. A sample outside [-1, H] x [-1, W] is 0; others clamp to the border. "max" takes
// the largest of the four weighted corner terms w_k * v_k of each sample, as ONNX's reference
// implementation and ONNX Runtime do. Math in double; Y has X's dtype. Non-finite rois and a
// bin of more than 2^20 samples fail.
#include <algorithm>
#include <cmath>

#include "common/index_util.h"

namespace ge {
REG_OP(RoiAlign)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(rois, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(batch_indices, TensorType({DT_INT64, DT_INT32}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(coordinate_transformation_mode, String, "")  // "": the opset's default
    .ATTR(mode, String, "avg")
    .ATTR(output_height, Int, 1)
    .ATTR(output_width, Int, 1)
    .ATTR(sampling_ratio, Int, 0)
    .ATTR(spatial_scale, Float, 1.0f)
    .ATTR(onnx_opset, Int, 16)
    .OP_END_FACTORY_REG(RoiAlign);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Attrs {
  bool half_pixel = true, max = false;
  int64_t oh = 1, ow = 1, ratio = 0;
  double scale = 1.0;
};

bool ReadAttrs(const gert::ExtendedKernelContext *ctx, Attrs *a) {
  std::string ctm = AttrStr(ctx, 0, "");
  if (ctm.empty()) ctm = AttrInt(ctx, 6, 16) >= 16 ? "half_pixel" : "output_half_pixel";
  if (ctm != "half_pixel" && ctm != "output_half_pixel")
    return Fail(ctx, "coordinate_transformation_mode must be half_pixel or output_half_pixel, got '" + ctm + "'"), false;
  const std::string mode = AttrStr(ctx, 1, "avg");
  if (mode != "avg" && mode != "max") return Fail(ctx, "mode must be avg or max, got '" + mode + "'"), false;
  a->half_pixel = ctm == "half_pixel";
  a->max = mode == "max";
  a->oh = AttrInt(ctx, 2, 1);
  a->ow = AttrInt(ctx, 3, 1);
  a->ratio = AttrInt(ctx, 4, 0);
  a->scale = AttrFloat(ctx, 5, 1.0f);
  if (a->oh <= 0 || a->ow <= 0 || a->ratio < 0)
    return Fail(ctx, "output_height and output_width must be > 0 and sampling_ratio >= 0, got " + std::to_string(a->oh) +
                         ", " + std::to_string(a->ow) + ", " + std::to_string(a->ratio)),
           false;
  return true;
}

// One bilinear sample at (y, x) of plane `p` [h, w]: the four weights and positions.
struct Sample {
  int64_t pos[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

Sample MakeSample(double y, double x, int64_t h, int64_t w) {
  Sample s;
  if (y < -1.0 || y > static_cast<double>(h) || x < -1.0 || x > static_cast<double>(w)) return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x), y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) y = static_cast<double>(y0 = y1 = h - 1);
  if (x0 >= w - 1) x = static_cast<double>(x0 = x1 = w - 1);
  const double ly = y - static_cast<double>(y0), lx = x - static_cast<double>(x0);
  s.pos[0] = y0 * w + x0, s.pos[1] = y0 * w + x1, s.pos[2] = y1 * w + x0, s.pos[3] = y1 * w + x1;
  s.w[0] = (1 - ly) * (1 - lx), s.w[1] = (1 - ly) * lx, s.w[2] = ly * (1 - lx), s.w[3] = ly * lx;
  return s;
}

// Sampling of one roi: the first bin's corner, the bin size and the samples per bin.
struct RoiGrid {
  double y0 = 0, x0 = 0, bh = 0, bw = 0;
  int64_t gh = 0, gw = 0, count = 1;
};

// Largest sampling grid of one bin (a roi of absurd size fails instead of running for hours).
constexpr int64_t kMaxBinSamples = int64_t{1} << 20;

bool MakeGrid(const gert::ExtendedKernelContext *ctx, const double *roi, const Attrs &a, int64_t n, RoiGrid *g) {
  const double off = a.half_pixel ? 0.5 : 0.0;
  for (int k = 0; k < 4; ++k)
    if (!std::isfinite(roi[k])) return Fail(ctx, "rois[" + std::to_string(n) + "] is not finite"), false;
  g->x0 = roi[0] * a.scale - off, g->y0 = roi[1] * a.scale - off;
  double rw = roi[2] * a.scale - off - g->x0, rh = roi[3] * a.scale - off - g->y0;
  if (!a.half_pixel) rw = std::max(rw, 1.0), rh = std::max(rh, 1.0);
  g->bh = rh / static_cast<double>(a.oh), g->bw = rw / static_cast<double>(a.ow);
  const double gh = a.ratio > 0 ? static_cast<double>(a.ratio) : std::ceil(g->bh);
  const double gw = a.ratio > 0 ? static_cast<double>(a.ratio) : std::ceil(g->bw);
  if (gh * gw > static_cast<double>(kMaxBinSamples))
    return Fail(ctx, "rois[" + std::to_string(n) + "] needs more than 2^20 samples per bin"), false;
  g->gh = std::max<int64_t>(static_cast<int64_t>(gh), 0), g->gw = std::max<int64_t>(static_cast<int64_t>(gw), 0);
  g->count = std::max<int64_t>(g->gh * g->gw, 1);
  return true;
}

// The samples of bin (ph, pw).
std::vector<Sample> BinSamples(const RoiGrid &g, int64_t ph, int64_t pw, int64_t h, int64_t w) {
  std::vector<Sample> s;
  for (int64_t iy = 0; iy < g.gh; ++iy)
    for (int64_t ix = 0; ix < g.gw; ++ix) {
      const double y = g.y0 + static_cast<double>(ph) * g.bh +
                       (static_cast<double>(iy) + 0.5) * g.bh / static_cast<double>(g.gh);
      const double x = g.x0 + static_cast<double>(pw) * g.bw +
                       (static_cast<double>(ix) + 0.5) * g.bw / static_cast<double>(g.gw);
      s.push_back(MakeSample(y, x, h, w));
    }
  return s;
}

// One output value from the samples of its bin over `plane`.
template <typename T>
T Pool(const T *plane, const std::vector<Sample> &s, int64_t count, bool max) {
  double acc = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    const Sample &p = s[k];
    double v = max ? p.w[0] * static_cast<double>(plane[p.pos[0]]) : 0.0;
    for (int c = 0; c < 4; ++c) {
      const double t = p.w[c] * static_cast<double>(plane[p.pos[c]]);
      v = max ? std::max(v, t) : v + t;
    }
    acc = max ? (k == 0 ? v : std::max(acc, v)) : acc + v;
  }
  return static_cast<T>(max ? acc : acc / static_cast<double>(count));
}

template <typename T>
void PoolRoi(const T *x, T *y, const RoiGrid &g, const Attrs &a, const Dims &xd, int64_t b, int64_t n) {
  const int64_t c_n = xd[1], hw = xd[2] * xd[3], ohw = a.oh * a.ow;
  for (int64_t ph = 0; ph < a.oh; ++ph)
    for (int64_t pw = 0; pw < a.ow; ++pw) {
      const auto s = BinSamples(g, ph, pw, xd[2], xd[3]);
      for (int64_t c = 0; c < c_n; ++c)
        y[(n * c_n + c) * ohw + ph * a.ow + pw] = Pool<T>(x + (b * c_n + c) * hw, s, g.count, a.max);
    }
}
}  // namespace

class RoiAlign : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *r = ctx->GetInputShape(1);
    if (x == nullptr || r == nullptr) return Fail(ctx, "inputs X, rois and batch_indices expected");
    Attrs a;
    if (!ReadAttrs(ctx, &a)) return ge::GRAPH_FAILED;
    const Dims xd = ToDims(*x), rd = ToDims(*r);
    const int64_t c = xd.size() == 4 ? xd[1] : -1, n = rd.size() == 2 ? rd[0] : -1;
    *ctx->GetOutputShape(0) = ToShape({n, c, a.oh, a.ow});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *r = ctx->GetInputTensor(1), *bi = ctx->GetInputTensor(2);
    if (x == nullptr || r == nullptr || bi == nullptr) return Fail(ctx, "inputs X, rois and batch_indices expected");
    Attrs a;
    if (!ReadAttrs(ctx, &a)) return ge::GRAPH_FAILED;
    const Dims xd = TensorDims(*x), rd = TensorDims(*r);
    std::vector<int64_t> idx;
    std::vector<double> rois;
    if (!ReadIndexInput(ctx, bi, "batch_indices", &idx) || !ReadAsDouble(r, &rois)) return Fail(ctx, "bad rois input");
    if (xd.size() != 4) return Fail(ctx, "X must be [N, C, H, W], got " + DimsToString(xd));
    if (rd.size() != 2 || rd[1] != 4 || static_cast<int64_t>(idx.size()) != rd[0])
      return Fail(ctx, "rois must be [num_rois, 4] and batch_indices [num_rois], got " + DimsToString(rd) + " and " +
                           std::to_string(idx.size()) + " indices");
    gert::Tensor *y = AllocChecked(ctx, 0, {rd[0], xd[1], a.oh, a.ow}, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (xd[2] <= 0 || xd[3] <= 0) return Fail(ctx, "X must have a non-empty height and width, got " + DimsToString(xd));
    for (int64_t n = 0; n < rd[0]; ++n) {
      const int64_t b = idx[static_cast<size_t>(n)];
      if (b < 0 || b >= xd[0])
        return Fail(ctx, "batch_indices[" + std::to_string(n) + "] = " + std::to_string(b) + " is outside [0, " +
                             std::to_string(xd[0] - 1) + "]");
      RoiGrid g;
      if (!MakeGrid(ctx, &rois[static_cast<size_t>(n * 4)], a, n, &g)) return ge::GRAPH_FAILED;
      switch (x->GetDataType()) {
        OPENATC_OPS_FLOAT_CASES(PoolRoi<T>(x->GetData<T>(), y->GetData<T>(), g, a, xd, b, n))
        default:
          return Fail(ctx, "unsupported X dtype " + DtypeName(x->GetDataType()));
      }
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(RoiAlign);

}  // namespace openatc_ops
