// Col2Im (ONNX Col2Im-18): rearranges the column blocks of input [N, C * prod(block_shape), L]
// back into an image [N, C, image_shape...], summing where blocks overlap (the inverse layout of
// an im2col). Inputs image_shape and block_shape (int64 [r]); attributes dilations (default 1),
// pads (begin values then end values, default 0) and strides (default 1). L must be the number of
// block positions, prod_d ((image_d + pad_begin_d + pad_end_d - dilation_d (block_d - 1) - 1) /
// stride_d + 1), listed row-major. float16, float, double; sums in double.
#include "common/index_util.h"
#include "common/signal.h"

namespace ge {
REG_OP(Col2Im)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(image_shape, TensorType({DT_INT64}))
    .INPUT(block_shape, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(dilations, ListInt, {})
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .OP_END_FACTORY_REG(Col2Im);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Geometry {
  Dims image, block, dil, pad_begin, stride, positions;  // positions: block positions per spatial dim
  int64_t channels = 0, block_size = 1, count = 1;       // count: prod(positions)
};

bool MakeGeometry(const gert::ExtendedKernelContext *ctx, const Dims &in, const Dims &image, const Dims &block,
                  Geometry *g) {
  const size_t r = image.size();
  const Dims dil = AttrInts(ctx, 0), pads = AttrInts(ctx, 1), st = AttrInts(ctx, 2);
  if (r == 0 || block.size() != r || (!dil.empty() && dil.size() != r) || (!pads.empty() && pads.size() != 2 * r) ||
      (!st.empty() && st.size() != r))
    return Fail(ctx, "image_shape and block_shape must have the same r >= 1 values, dilations and strides r, pads 2r; "
                     "got image_shape " + DimsToString(image) + ", block_shape " + DimsToString(block) +
                         ", dilations " + DimsToString(dil) + ", pads " + DimsToString(pads) + ", strides " +
                         DimsToString(st)),
           false;
  g->image = image, g->block = block, g->block_size = 1, g->count = 1;
  g->dil.clear(), g->pad_begin.clear(), g->stride.clear(), g->positions.clear();
  for (size_t i = 0; i < r; ++i) {
    const int64_t d = dil.empty() ? 1 : dil[i], s = st.empty() ? 1 : st[i], pb = pads.empty() ? 0 : pads[i],
                  pe = pads.empty() ? 0 : pads[i + r];
    if (image[i] <= 0 || block[i] <= 0 || d <= 0 || s <= 0 || pb < 0 || pe < 0)
      return Fail(ctx, "image_shape, block_shape, dilations and strides must be > 0 and pads >= 0"), false;
    const int64_t span = image[i] + pb + pe - d * (block[i] - 1) - 1;
    if (span < 0)
      return Fail(ctx, "block " + DimsToString(block) + " (dilated) does not fit the padded image " + DimsToString(image)),
             false;
    g->dil.push_back(d), g->stride.push_back(s), g->pad_begin.push_back(pb), g->positions.push_back(span / s + 1);
    g->block_size *= block[i];
    g->count *= span / s + 1;
  }
  if (in.size() != 3 || in[1] % g->block_size != 0 || in[2] != g->count)
    return Fail(ctx, "input must be [N, C * " + std::to_string(g->block_size) + ", " + std::to_string(g->count) +
                         "] for block_shape " + DimsToString(block) + " and image_shape " + DimsToString(image) +
                         ", got " + DimsToString(in)),
           false;
  g->channels = in[1] / g->block_size;
  return true;
}

// Adds every column element of one image (cols [C * K, L]) into `img` [C, image...].
void Accumulate(const Geometry &g, const double *cols, double *img) {
  const size_t r = g.image.size();
  const int64_t plane = NumElements(g.image);
  std::vector<int64_t> k(r), l(r);
  for (int64_t kk = 0; kk < g.block_size; ++kk) {
    for (int64_t rem = kk, i = static_cast<int64_t>(r) - 1; i >= 0; --i) k[i] = rem % g.block[i], rem /= g.block[i];
    for (int64_t ll = 0; ll < g.count; ++ll) {
      int64_t pos = 0;
      bool inside = true;
      for (int64_t rem = ll, i = static_cast<int64_t>(r) - 1; i >= 0; --i) l[i] = rem % g.positions[i], rem /= g.positions[i];
      for (size_t i = 0; i < r && inside; ++i) {
        const int64_t p = l[i] * g.stride[i] - g.pad_begin[i] + k[i] * g.dil[i];
        inside = p >= 0 && p < g.image[i];
        pos = pos * g.image[i] + p;
      }
      if (!inside) continue;
      for (int64_t c = 0; c < g.channels; ++c) img[c * plane + pos] += cols[(c * g.block_size + kk) * g.count + ll];
    }
  }
}
}  // namespace

class Col2Im : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *is = ctx->GetInputShape(1);
    if (x == nullptr || is == nullptr) return Fail(ctx, "inputs input, image_shape and block_shape expected");
    const Dims xd = ToDims(*x), isd = ToDims(*is);
    std::vector<int64_t> image, block;
    Dims out = {xd.empty() ? -1 : xd[0], -1};
    if (KnownInts(ctx, 1, &image) && KnownInts(ctx, 2, &block)) {
      Geometry g;
      const bool dims_known = xd.size() == 3 && xd[1] >= 0 && xd[2] >= 0;
      if (dims_known && !MakeGeometry(ctx, xd, image, block, &g)) return ge::GRAPH_FAILED;
      out[1] = dims_known ? g.channels : -1;
      out.insert(out.end(), image.begin(), image.end());
    } else {
      out.insert(out.end(), static_cast<size_t>(isd.size() == 1 && isd[0] >= 0 ? isd[0] : 0), -1);
      if (isd.size() != 1 || isd[0] < 0) out = {-2};
    }
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    std::vector<int64_t> image, block;
    if (x == nullptr || !ReadInts(ctx->GetInputTensor(1), &image) || !ReadInts(ctx->GetInputTensor(2), &block))
      return Fail(ctx, "input, image_shape (int64) and block_shape (int64) expected");
    const Dims xd = TensorDims(*x);
    Geometry g;
    if (!MakeGeometry(ctx, xd, image, block, &g)) return ge::GRAPH_FAILED;
    Dims out = {xd[0], g.channels};
    out.insert(out.end(), image.begin(), image.end());
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<double> in;
    if (!ReadAsDouble(x, &in)) return Fail(ctx, "unsupported input dtype " + DtypeName(x->GetDataType()));
    std::vector<double> img(static_cast<size_t>(NumElements(out)), 0.0);
    const int64_t per_image_in = xd[1] * xd[2], per_image_out = g.channels * NumElements(g.image);
    for (int64_t n = 0; n < xd[0]; ++n)
      Accumulate(g, in.data() + n * per_image_in, img.data() + n * per_image_out);
    StoreAs(img, x->GetDataType(), y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Col2Im);

}  // namespace openatc_ops
