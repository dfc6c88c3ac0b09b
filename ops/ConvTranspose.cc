// ConvTranspose (ONNX ConvTranspose-11): 1-D/2-D/3-D transposed convolution with strides,
// dilations, group, pads or auto_pad, output_padding and output_shape, optional bias B.
// oneDNN's deconvolution_forward computes the full (unpadded) result; pads, output_padding and
// output_shape then select the output window of it (ONNX's formulas, Operators.md ConvTranspose),
// zero-filling where the window reaches past the full result, and B is added.
#include "common/dnnl_util.h"
#include "common/dnnl_window.h"

namespace ge {
REG_OP(ConvTranspose)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(W, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(dilations, ListInt, {})
    .ATTR(group, Int, 1)
    .ATTR(kernel_shape, ListInt, {})
    .ATTR(output_padding, ListInt, {})
    .ATTR(output_shape, ListInt, {})
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(ConvTranspose);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAutoPad, kDilations, kGroup, kKernelShape, kOutputPadding, kOutputShape, kPads, kStrides };

struct Geometry {
  int64_t group = 1;
  Dims kernel, strides, dilations, pads_begin, full, out;  // full: the unpadded result per axis
  Dims y;                                                 // [N, M, out...]
};

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &x, const Dims &w, Geometry *g) {
  if (x.size() < 3 || x.size() > 5) return "X must have rank 3, 4 or 5 (N, C, spatial...); got " + DimsToString(x);
  if (w.size() != x.size()) return "W " + DimsToString(w) + " must have the rank of X " + DimsToString(x);
  const size_t n = x.size() - 2;
  g->group = AttrInt(ctx, kGroup, 1);
  if (g->group < 1) return "group " + std::to_string(g->group) + " must be >= 1";
  if (x[1] >= 0 && w[0] >= 0 && x[1] != w[0])
    return "X has " + std::to_string(x[1]) + " channels but W " + DimsToString(w) + " has " + std::to_string(w[0]);
  if (w[0] >= 0 && w[0] % g->group != 0)
    return "W's input channels " + std::to_string(w[0]) + " are not a multiple of group " + std::to_string(g->group);
  g->kernel = AttrInts(ctx, kKernelShape);
  const Dims wk(w.begin() + 2, w.end());
  if (g->kernel.empty()) g->kernel = wk;
  for (size_t i = 0; i < wk.size(); ++i)
    if (g->kernel.size() != wk.size() || (wk[i] >= 0 && g->kernel[i] != wk[i]))
      return "kernel_shape " + DimsToString(g->kernel) + " differs from W's spatial dims " + DimsToString(wk);
  auto list = [&](size_t attr, const char *name, size_t len, int64_t def, int64_t min, Dims *out) -> std::string {
    *out = AttrInts(ctx, attr);
    if (out->empty()) out->assign(len, def);
    if (out->size() != len)
      return std::string(name) + " " + DimsToString(*out) + " must have " + std::to_string(len) + " values";
    for (int64_t v : *out)
      if (v < min) return std::string(name) + " " + DimsToString(*out) + " must be >= " + std::to_string(min);
    return "";
  };
  Dims pads, opad, oshape = AttrInts(ctx, kOutputShape);
  std::string err = list(kStrides, "strides", n, 1, 1, &g->strides);
  if (err.empty()) err = list(kDilations, "dilations", n, 1, 1, &g->dilations);
  if (err.empty()) err = list(kPads, "pads", 2 * n, 0, 0, &pads);
  if (err.empty()) err = list(kOutputPadding, "output_padding", n, 0, 0, &opad);
  if (!err.empty()) return err;
  if (oshape.size() == n + 2) oshape.erase(oshape.begin(), oshape.begin() + 2);  // full-rank form
  if (!oshape.empty() && oshape.size() != n)
    return "output_shape " + DimsToString(oshape) + " must have " + std::to_string(n) + " values";
  const std::string ap = AttrStr(ctx, kAutoPad, "NOTSET");
  if (ap != "NOTSET" && ap != "SAME_UPPER" && ap != "SAME_LOWER" && ap != "VALID")
    return "auto_pad '" + ap + "' is not NOTSET, SAME_UPPER, SAME_LOWER or VALID";
  g->pads_begin.assign(n, 0);
  g->full.assign(n, -1);
  g->out.assign(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int64_t in = x[i + 2];
    const int64_t ext = (g->kernel[i] - 1) * g->dilations[i] + 1;
    if (in < 0 || g->kernel[i] < 0) continue;  // unknown at compile time
    if (g->kernel[i] == 0) return "kernel_shape " + DimsToString(g->kernel) + " must be >= 1";
    g->full[i] = g->strides[i] * (in - 1) + ext;
    const int64_t natural = g->full[i] + opad[i];
    int64_t out, total;
    if (!oshape.empty() || ap == "SAME_UPPER" || ap == "SAME_LOWER") {
      out = !oshape.empty() ? oshape[i] : in * g->strides[i];
      total = natural - out;
      // ONNX (floor division, also for a negative total): SAME_UPPER puts the smaller half of
      // the padding first, otherwise the larger.
      const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      g->pads_begin[i] = ap == "SAME_UPPER" ? half : total - half;
    } else if (ap == "VALID") {
      out = natural;
    } else {
      g->pads_begin[i] = pads[i];
      out = natural - pads[i] - pads[i + n];
    }
    if (out < 1) return "output spatial axis " + std::to_string(i) + " would have size " + std::to_string(out);
    g->out[i] = out;
  }
  g->y = {x[0], w[1] >= 0 ? w[1] * g->group : -1};
  g->y.insert(g->y.end(), g->out.begin(), g->out.end());
  return "";
}

struct DeconvEntry {
  dnnl::deconvolution_forward prim;
  dnnl::memory::desc src, wei, dst;
};

// y[n, m, o...] = full[n, m, o + pads_begin...] (0 outside) + bias[m]; spatial rank padded to 3.
void CropAddBias(const float *full, const Dims &full3, const Dims &out3, const Dims &pb3, int64_t nm, int64_t m,
                 const float *bias, float *y) {
  const int64_t fsz = full3[0] * full3[1] * full3[2], osz = out3[0] * out3[1] * out3[2];
  for (int64_t c = 0; c < nm; ++c) {
    const float b = bias ? bias[c % m] : 0.0f;
    const float *f = full + c * fsz;
    float *o = y + c * osz;
    for (int64_t d = 0; d < out3[0]; ++d) {
      const int64_t fd = d + pb3[0];
      for (int64_t h = 0; h < out3[1]; ++h) {
        const int64_t fh = h + pb3[1];
        const bool row_in = fd >= 0 && fd < full3[0] && fh >= 0 && fh < full3[1];
        for (int64_t x = 0; x < out3[2]; ++x) {
          const int64_t fx = x + pb3[2];
          const bool in = row_in && fx >= 0 && fx < full3[2];
          o[(d * out3[1] + h) * out3[2] + x] = (in ? f[(fd * full3[1] + fh) * full3[2] + fx] : 0.0f) + b;
        }
      }
    }
  }
}

Dims Pad3(const Dims &v, int64_t fill) {
  Dims r(3 - v.size(), fill);
  r.insert(r.end(), v.begin(), v.end());
  return r;
}
}  // namespace

class ConvTranspose : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x) return Fail(ctx, "W's dtype differs from X's");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *w = ctx->GetRequiredInputShape(1);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs X and W are required");
    Geometry g;
    const std::string err = Resolve(ctx, ToDims(*x), ToDims(*w), &g);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(g.y);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *w = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *b = ctx->GetOptionalInputTensor(2);
    if (x == nullptr || w == nullptr) return Fail(ctx, "inputs X and W are required");
    const Dims xd = ToDims(x->GetStorageShape()), wd = ToDims(w->GetStorageShape());
    Geometry g;
    const std::string err = Resolve(ctx, xd, wd, &g);
    if (!err.empty()) return Fail(ctx, err);
    const int64_t m = g.y[1];
    if (b != nullptr && (b->GetStorageShape().GetDimNum() != 1 || b->GetStorageShape().GetDim(0) != m))
      return Fail(ctx, "B " + DimsToString(ToDims(b->GetStorageShape())) + " must have shape [" + std::to_string(m) +
                           "] (one value per output channel)");
    gert::Tensor *y = AllocOutput(ctx, 0, g.y, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(g.y) == 0) return ge::GRAPH_SUCCESS;
    if (NumElements(xd) == 0 || NumElements(wd) == 0) return Fail(ctx, "X or W is empty but Y is not");
    const size_t n = xd.size() - 2;
    Dims full_dims = {xd[0], m};
    full_dims.insert(full_dims.end(), g.full.begin(), g.full.end());
    try {
      const int threads = dnnl_util::ApplyThreadCount();
      dnnl_util::Key key;
      key.Add("x", xd).Add("w", wd).Add("g", g.group).Add("s", g.strides).Add("d", g.dilations).Add("t", threads);
      auto entry = cache_.Get(key, [&] {
        DeconvEntry e;
        // Logical oneDNN weights (G, OC/G, IC/G, k...) over ONNX's (C = G*IC/G, M/G, k...) storage.
        const int64_t ks = NumElements(Dims(wd.begin() + 2, wd.end()));
        const int64_t oc_g = wd[1], ic_g = wd[0] / g.group;
        Dims dims = {oc_g, ic_g}, strides = {ks, oc_g * ks};
        if (g.group > 1) {
          dims.insert(dims.begin(), g.group);
          strides.insert(strides.begin(), ic_g * oc_g * ks);
        }
        Dims kstride(n, 1);
        for (size_t i = n - 1; i-- > 0;) kstride[i] = kstride[i + 1] * wd[i + 3];
        dims.insert(dims.end(), wd.begin() + 2, wd.end());
        strides.insert(strides.end(), kstride.begin(), kstride.end());
        e.src = dnnl_util::PlainF32(xd);
        e.wei = dnnl_util::StridedF32(dims, strides);
        e.dst = dnnl_util::PlainF32(full_dims);
        Dims dil = g.dilations;
        for (auto &v : dil) v -= 1;
        const dnnl::memory::dims zero(n, 0);
        dnnl::deconvolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct,
                                            e.src, e.wei, e.dst, dnnl_util::DnnlDims(g.strides),
                                            dnnl_util::DnnlDims(dil), zero, zero);
        e.prim = dnnl::deconvolution_forward(dnnl::deconvolution_forward::primitive_desc(d, dnnl_util::UserScratchpad(), dnnl_util::Engine()));
        return e;
      });
      std::vector<float> sx, sw, sb, sy, full(static_cast<size_t>(NumElements(full_dims)));
      const float *px = dnnl_util::AsF32(*x, &sx), *pw = dnnl_util::AsF32(*w, &sw);
      const float *pb = b ? dnnl_util::AsF32(*b, &sb) : nullptr;
      if (px == nullptr || pw == nullptr || (b != nullptr && pb == nullptr))
        return Fail(ctx, "X, W and B must be float tensors with data");
      dnnl_util::Run(entry->prim, {{DNNL_ARG_SRC, dnnl_util::Wrap(entry->src, px)},
                                   {DNNL_ARG_WEIGHTS, dnnl_util::Wrap(entry->wei, pw)},
                                   {DNNL_ARG_DST, dnnl_util::Wrap(entry->dst, full.data())}});
      float *py = dnnl_util::OutF32(*y, &sy);
      CropAddBias(full.data(), Pad3(g.full, 1), Pad3(g.out, 1), Pad3(g.pads_begin, 0), xd[0] * m, m, pb, py);
      dnnl_util::StoreF32(sy, *y);
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN deconvolution failed: ") + e.what());
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  dnnl_util::PrimitiveCache<DeconvEntry> cache_;
};
REG_AUTO_MAPPING_OP(ConvTranspose);

}  // namespace openatc_ops
