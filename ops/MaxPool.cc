// MaxPool (ONNX MaxPool-12): max over sliding windows of X (N, C, spatial...) with kernel_shape,
// strides, dilations, pads or auto_pad, ceil_mode; optional output Indices (int64 flat indices
// into X, storage_order 0 row-major / 1 column-major). Float tensors without Indices run on
// oneDNN's pooling; Indices and int8/uint8 use a plain loop. openatc_chain_layout = 1 (atc's
// LayoutPlanningPass): X and Y in the chain layout (ops/common/conv_layout.h), 2-D float32 windows
// computed by ops/common/chain_pool.h.
#include "common/chain_pool.h"
#include "common/dnnl_pool.h"
#include "common/pool_window.h"

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
    .ATTR(openatc_chain_block, Int, 8)
    .OP_END_FACTORY_REG(MaxPool);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStorageOrder, kStrides, kChain, kChainBlock };
constexpr PoolAttrs kAttrs{kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStrides, /*max_rank=*/5};

// Whether every window of `w` (over X `xd`, Y `yd`) is one position inside X: kernel 1, no
// padding (atc's StridedPointwiseConvPass makes such MaxPools to subsample a strided 1x1 Conv's
// input).
bool OnePosition(const Window &w, const Dims &xd, const Dims &yd) {
  for (size_t k = 0; k < w.kernel.size(); ++k)
    if (w.kernel[k] != 1 || w.pads_begin[k] != 0 || (yd[k + 2] - 1) * w.strides[k] >= xd[k + 2]) return false;
  return true;
}

// Y = X sampled at the strides of `w` (OnePosition): an exact copy of each selected element, NaN
// and -0.0 included (oneDNN's max pooling turns a NaN into -FLT_MAX).
void Subsample(const uint8_t *x, const Dims &xd, const Window &w, const Dims &yd, size_t elem, uint8_t *y) {
  const size_t r = xd.size() - 2;
  Dims xstride(xd.size(), 1);
  for (size_t k = xd.size() - 1; k-- > 0;) xstride[k] = xstride[k + 1] * xd[k + 1];
  const int64_t planes = yd[0] * yd[1], per_plane = NumElements(yd) / std::max<int64_t>(planes, 1);
  Dims at(r, 0);
  for (int64_t p = 0; p < planes; ++p) {
    const uint8_t *xp = x + static_cast<size_t>(p * xstride[1]) * elem;
    std::fill(at.begin(), at.end(), 0);
    for (int64_t i = 0; i < per_plane; ++i) {
      int64_t off = 0;
      for (size_t k = 0; k < r; ++k) off += at[k] * w.strides[k] * xstride[k + 2];
      std::memcpy(y, xp + static_cast<size_t>(off) * elem, elem);
      y += elem;
      for (size_t k = r; k-- > 0;) {  // the next output position, last axis fastest
        if (++at[k] < yd[k + 2]) break;
        at[k] = 0;
      }
    }
  }
}

std::string StorageOrderError(const gert::ExtendedKernelContext *ctx) {
  const int64_t so = AttrInt(ctx, kStorageOrder, 0);
  return so != 0 && so != 1 ? "storage_order " + std::to_string(so) + " must be 0 (row-major) or 1 (column-major)" : "";
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
    return InferPoolShape(ctx, kAttrs, StorageOrderError(ctx));
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    const Dims xd = ToDims(x->GetStorageShape());
    Window w;
    Dims yd, ceil_extra;
    const std::string err = ResolvePoolWindow(ctx, kAttrs, xd, &w, &yd, StorageOrderError(ctx), &ceil_extra);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, yd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    gert::Tensor *ind = nullptr;
    if (ctx->GetComputeNodeOutputNum() > 1) {
      ind = AllocOutput(ctx, 1, yd, ge::DT_INT64);
      if (ind == nullptr) return ge::GRAPH_FAILED;
    }
    const int64_t chain = NodeChainBlock(ctx, kChain, kChainBlock);
    if (chain > 0 && ind != nullptr) return Fail(ctx, "openatc_chain_layout and the Indices output exclude each other");
    if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
    if (chain > 0 && x->GetDataType() == ge::DT_FLOAT && ChainPoolFits(xd, w, ceil_extra, ChainPoolKind::kMax)) {
      const std::string bad = ChainPool(x->GetData<float>(), xd, w, yd, ChainPoolKind::kMax, chain, y->GetData<float>());
      return bad.empty() ? ge::GRAPH_SUCCESS : Fail(ctx, bad);
    }
    if (chain == 0 && ind == nullptr && OnePosition(w, xd, yd)) {
      const size_t elem = static_cast<size_t>(ge::GetSizeByDataType(x->GetDataType()));
      Subsample(static_cast<const uint8_t *>(x->GetAddr()), xd, w, yd, elem, static_cast<uint8_t *>(y->GetAddr()));
      return ge::GRAPH_SUCCESS;
    }
    if (chain > 0 || (ind == nullptr && x->GetDataType() != ge::DT_INT8 && x->GetDataType() != ge::DT_UINT8))
      return DnnlPool(ctx, cache_, *x, *y, w, dnnl::algorithm::pooling_max, chain);
    return NaiveMaxPool(ctx, *x, *y, w, AttrInt(ctx, kStorageOrder, 0) == 1, ind);
  }

 private:
  PoolCache cache_;
};
REG_AUTO_MAPPING_OP(MaxPool);

}  // namespace openatc_ops
