// AveragePool (ONNX AveragePool-11/19): mean over sliding windows of X (N, C, spatial...) with
// kernel_shape, strides, pads or auto_pad, ceil_mode, count_include_pad (padding counted in the
// divisor or not) and (opset 19) dilations. oneDNN pooling (f32; float16/double via f32); with
// dilations other than 1, ops/common/plain_pool.h's loop. openatc_chain_layout = 1 (atc's
// LayoutPlanningPass, never for dilated pools): X and Y in the chain layout (ops/common/conv_layout.h),
// 2-D float32 windows computed by ops/common/chain_pool.h.
#include "common/chain_pool.h"
#include "common/dnnl_pool.h"
#include "common/plain_pool.h"
#include "common/pool_window.h"

namespace ge {
REG_OP(AveragePool)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(auto_pad, String, "NOTSET")
    .ATTR(ceil_mode, Int, 0)
    .ATTR(count_include_pad, Int, 0)
    .REQUIRED_ATTR(kernel_shape, ListInt)
    .ATTR(pads, ListInt, {})
    .ATTR(strides, ListInt, {})
    .ATTR(openatc_chain_layout, Int, 0)
    .ATTR(dilations, ListInt, {})
    .ATTR(openatc_chain_block, Int, 8)
    .OP_END_FACTORY_REG(AveragePool);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAutoPad, kCeilMode, kCountIncludePad, kKernelShape, kPads, kStrides, kChain, kDilations, kChainBlock };
constexpr PoolAttrs kAttrs{kAutoPad, kCeilMode, kDilations, kKernelShape, kPads, kStrides, /*max_rank=*/5};
}  // namespace

class AveragePool : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return InferPoolShape(ctx, kAttrs); }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Window w;
    Dims yd, ceil_extra;
    const Dims xd = ToDims(x->GetStorageShape());
    const std::string err = ResolvePoolWindow(ctx, kAttrs, xd, &w, &yd, "", &ceil_extra);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, yd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const bool include = AttrInt(ctx, kCountIncludePad, 0) != 0;
    bool dilated = false;
    for (int64_t d : w.dilations) dilated = dilated || d != 1;
    if (dilated) {
      if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
      PlainPoolKind kind;
      kind.count_include_pad = include;
      switch (x->GetDataType()) {
        OPENATC_OPS_FLOAT_CASES(PlainPool<T>(x->GetData<T>(), y->GetData<T>(), xd, w, ceil_extra, kind))
        default:
          return Fail(ctx, "X must be float32, float16 or double");
      }
      return ge::GRAPH_SUCCESS;
    }
    const int64_t chain = NodeChainBlock(ctx, kChain, kChainBlock);
    const ChainPoolKind kind = include ? ChainPoolKind::kAverageIncludePad : ChainPoolKind::kAverage;
    if (chain > 0 && x->GetDataType() == ge::DT_FLOAT && ChainPoolFits(xd, w, ceil_extra, kind)) {
      const std::string bad = ChainPool(x->GetData<float>(), xd, w, yd, kind, chain, y->GetData<float>());
      return bad.empty() ? ge::GRAPH_SUCCESS : Fail(ctx, bad);
    }
    return DnnlPool(ctx, cache_, *x, *y, w,
                    include ? dnnl::algorithm::pooling_avg_include_padding : dnnl::algorithm::pooling_avg_exclude_padding,
                    chain);
  }

 private:
  PoolCache cache_;
};
REG_AUTO_MAPPING_OP(AveragePool);

}  // namespace openatc_ops
