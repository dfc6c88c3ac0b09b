/**
 * @file ops/common/dnnl_eltwise.h
 * Unary float32 maps on oneDNN's eltwise primitive (jit, vectorised for the CPU it runs on), for
 * the transcendental built-ins whose scalar libm loop dominated real models (Tanh in the ezkl
 * attention graphs' GELU, Sigmoid in ppocr-v4-det's head). Checked against the double-precision
 * libm value on 200,000 values in [-80, 30] plus edge cases (jit:avx512_core): tanh within 1 ulp,
 * logistic within 4 ulp where the result is a normal float (an absolute error below 1e-38 where it
 * is subnormal); NaN stays NaN, +-inf give the limits. eltwise_exp is not used: it maps NaN to inf.
 */
#ifndef OPENATC_OPS_COMMON_DNNL_ELTWISE_H_
#define OPENATC_OPS_COMMON_DNNL_ELTWISE_H_

#include "common/dnnl_util.h"

namespace openatc_ops {

/// y[i] = alg(x[i]) for the `n` contiguous float32 values (x == y allowed). Primitives are cached
/// per (alg, n, thread count); data that dnnl_util::SerialMemoryBound calls small runs on the
/// calling thread alone. Throws dnnl::error.
void EltwiseF32(dnnl::algorithm alg, const float *x, float *y, int64_t n);

/// The same over float32 tensor x into y (same element count), as an op's Compute status: a
/// oneDNN failure is Fail(ctx, ...).
ge::graphStatus EltwiseF32(gert::EagerOpExecutionContext *ctx, dnnl::algorithm alg, const gert::Tensor &x,
                           gert::Tensor &y);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_DNNL_ELTWISE_H_
