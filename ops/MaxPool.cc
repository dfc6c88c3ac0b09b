// MaxPool (ONNX MaxPool-12): max over sliding windows of X (N, C, spatial...) with kernel_shape,
// strides, dilations, pads or auto_pad, ceil_mode; optional output Indices (int64 flat indices
// into X, storage_order 0 row-major / 1 column-major). Float tensors without Indices run on
// oneDNN's pooling; Indices and int8/uint8 use a plain loop. openatc_chain_layout = 1 (atc's
// LayoutPlanningPass): X and Y in the chain layout (ops/common/conv_layout.h).
#include "common/dnnl_pool.h"

namespace ge {
REG_OP(MaxPool)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_UINT8}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_UINT8}))
    .OUTPUT(Indices, TensorType({DT_INT64}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(ceil_mode, Int, 0)
    .ATTR(dilations, ListInt, {})
    .REQUIRED_ATTR(kernel_shape, ListInt)
    .ATTR(pads, ListInt, {})
    .ATTR(storage_order, Int, 0)
    .ATTR(strides, ListInt, {})
    .ATTR(openatc_chain_layout, Int, 0)
    .OP_END_FACTORY_REG(MaxPool);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStorageOrder, kStrides, kChain };

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &x, Window *w, Dims *y) {
  if (x.size() < 3 || x.size() > 5) return "X must have rank 3, 4 or 5 (N, C, spatial...); got " + DimsToString(x);
  WindowAttrs a;
  a.kernel = AttrInts(ctx, kKernelShape);
  a.strides = AttrInts(ctx, kStrides);
  a.dilations = AttrInts(ctx, kDilations);
  a.pads = AttrInts(ctx, kPads);
  a.auto_pad = AttrStr(ctx, kAutoPad, "NOTSET");
  a.ceil_mode = AttrInt(ctx, kCeilMode, 0) != 0;
  const int64_t so = AttrInt(ctx, kStorageOrder, 0);
  if (so != 0 && so != 1) return "storage_order " + std::to_string(so) + " must be 0 (row-major) or 1 (column-major)";
  const std::string err = ResolveWindow(Dims(x.begin() + 2, x.end()), a, w);
  if (!err.empty()) return err;
  *y = {x[0], x[1]};
  y->insert(y->end(), w->out.begin(), w->out.end());
  return "";
}
}  // namespace

class MaxPool : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x) && x != ge::DT_INT8 && x != ge::DT_UINT8)
      return Fail(ctx, "X must be float32, float16, double, int8 or uint8");
    ge::graphStatus st = ctx->SetOutputDataType(0, x);
    if (st == ge::GRAPH_SUCCESS && ctx->GetComputeNodeOutputNum() > 1) st = ctx->SetOutputDataType(1, ge::DT_INT64);
    return st;
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Window w;
    Dims y;
    const std::string err = Resolve(ctx, ToDims(*x), &w, &y);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(y);
    if (ctx->GetComputeNodeOutputNum() > 1) *ctx->GetOutputShape(1) = ToShape(y);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    const Dims xd = ToDims(x->GetStorageShape());
    Window w;
    Dims yd;
    const std::string err = Resolve(ctx, xd, &w, &yd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, yd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *ind = nullptr;
    if (ctx->GetComputeNodeOutputNum() > 1) {
      ind = AllocOutput(ctx, 1, yd, ge::DT_INT64);
      if (ind == nullptr) return ge::GRAPH_FAILED;
    }
    const bool chain = AttrInt(ctx, kChain, 0) != 0;
    if (chain && ind != nullptr) return Fail(ctx, "openatc_chain_layout and the Indices output exclude each other");
    if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
    if (chain || (ind == nullptr && x->GetDataType() != ge::DT_INT8 && x->GetDataType() != ge::DT_UINT8))
      return DnnlPool(ctx, cache_, *x, *y, w, dnnl::algorithm::pooling_max, chain);
    return NaiveMaxPool(ctx, *x, *y, w, AttrInt(ctx, kStorageOrder, 0) == 1, ind);
  }

 private:
  PoolCache cache_;
};
REG_AUTO_MAPPING_OP(MaxPool);

}  // namespace openatc_ops
