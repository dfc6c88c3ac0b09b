/**
 * @file ops/common/dnnl_pool.h
 * Pooling plumbing for MaxPool, AveragePool, GlobalAveragePool and GlobalMaxPool: oneDNN's
 * pooling_v2_forward for float tensors (max, average with or without the padding), and a plain
 * max-pool loop for the cases oneDNN is not used for: the optional Indices output of MaxPool
 * (ONNX MaxPool-12: flat indices into X, padding not counted, storage_order 0 = row-major,
 * 1 = column-major over the spatial axes) and the int8/uint8 dtypes.
 */
#ifndef OPENATC_OPS_COMMON_DNNL_POOL_H_
#define OPENATC_OPS_COMMON_DNNL_POOL_H_

#include "common/conv_layout.h"
#include "common/dnnl_util.h"
#include "common/dnnl_window.h"

namespace openatc_ops {

struct PoolEntry {
  dnnl::pooling_v2_forward prim;
  dnnl::memory::desc src, dst;
  /// A plain 4-D X pooled in the chain layout: oneDNN 2.6 has only its scalar simple_nchw
  /// kernel for plain NCHW (inception_v2's 1x64x112x112 MaxPool: 12 ms), a jit one for nChw8c/16c,
  /// so X is reordered in and Y out (user_src/user_dst: the plain descriptors).
  bool blocked = false;
  dnnl::memory::desc user_src, user_dst;
  dnnl::reorder src_in, dst_out;
};
using PoolCache = dnnl_util::PrimitiveCache<PoolEntry>;

/// y = pool(x) over float x (N, C, spatial...) with window `w` (w.out = y's spatial dims), on
/// oneDNN; algorithm pooling_max, pooling_avg_include_padding or pooling_avg_exclude_padding.
/// `chain_block` > 0: x and y are in the chain layout of that block (ops/common/conv_layout.h;
/// attributes openatc_chain_layout = 1 and openatc_chain_block, set by atc's LayoutPlanningPass;
/// NodeChainBlock): float32, 4-D, channels a multiple of the block. Failures are reported with
/// Fail(ctx, ...).
ge::graphStatus DnnlPool(gert::EagerOpExecutionContext *ctx, PoolCache &cache, const gert::Tensor &x, gert::Tensor &y,
                         const Window &w, dnnl::algorithm alg, int64_t chain_block = 0);

/// Plain max pooling over x of dtype float32/float16/double/int8/uint8 into y (same dtype),
/// with optional int64 `indices` (nullptr: not wanted). Windows with no element inside X
/// produce the dtype's lowest value and index -1 (ONNX leaves this undefined).
ge::graphStatus NaiveMaxPool(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y,
                             const Window &w, bool column_major, gert::Tensor *indices);

/// Base of GlobalAveragePool / GlobalMaxPool (ONNX -1): Y (N, C, 1, ...) = pool of X (N, C,
/// spatial...) over all spatial axes (rank >= 3), float dtypes, on oneDNN. Attribute 0 of the op
/// is openatc_chain_layout (X in the chain layout; Y [N, C, 1, 1] has the same bytes in both),
/// attribute 1 openatc_chain_block.
template <dnnl::algorithm kAlg>
class GlobalPoolOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    return ctx->SetOutputDataType(0, x);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    const Dims xd = ToDims(*x);
    if (xd.size() < 3) return Fail(ctx, "X must have rank >= 3 (N, C, spatial...); got " + DimsToString(xd));
    Dims y(xd.size(), 1);
    y[0] = xd[0];
    y[1] = xd[1];
    *ctx->GetOutputShape(0) = ToShape(y);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is required");
    Dims xd = ToDims(x->GetStorageShape());
    if (xd.size() < 3) return Fail(ctx, "X must have rank >= 3 (N, C, spatial...); got " + DimsToString(xd));
    Dims yd(xd.size(), 1);
    yd[0] = xd[0];
    yd[1] = xd[1];
    gert::Tensor *y = AllocOutput(ctx, 0, yd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
    const Dims spatial(xd.begin() + 2, xd.end());
    if (NumElements(spatial) == 0) return Fail(ctx, "X " + DimsToString(xd) + " has an empty spatial axis");
    // oneDNN pools 1..3 spatial axes; more use a plain loop over the flattened extent.
    const int64_t chain = NodeChainBlock(ctx, 0, 1);
    if (spatial.size() > 3 && chain == 0) return PlainGlobal(*x, *y, xd[0] * xd[1], NumElements(spatial));
    Window w;  // one window of the whole spatial extent
    w.kernel = spatial;
    w.strides.assign(spatial.size(), 1);
    w.dilations.assign(spatial.size(), 1);
    w.pads_begin.assign(spatial.size(), 0);
    w.pads_end.assign(spatial.size(), 0);
    w.out.assign(spatial.size(), 1);
    return DnnlPool(ctx, cache_, *x, *y, w, kAlg, chain);
  }

 private:
  static ge::graphStatus PlainGlobal(const gert::Tensor &x, gert::Tensor &y, int64_t nc, int64_t s) {
    std::vector<float> sx, sy;
    const float *px = dnnl_util::AsF32(x, &sx);
    float *py = dnnl_util::OutF32(y, &sy);
    for (int64_t c = 0; c < nc; ++c) {
      const float *p = px + c * s;
      float acc = p[0];
      for (int64_t i = 1; i < s; ++i) acc = kAlg == dnnl::algorithm::pooling_max ? (p[i] > acc ? p[i] : acc) : acc + p[i];
      py[c] = kAlg == dnnl::algorithm::pooling_max ? acc : acc / static_cast<float>(s);
    }
    dnnl_util::StoreF32(sy, y);
    return ge::GRAPH_SUCCESS;
  }
  PoolCache cache_;
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_DNNL_POOL_H_
