/**
 * @file ops/common/dnnl_post_ops.h
 * oneDNN post-ops from the attributes atc's fusion passes put on a Conv (and, activations only,
 * on an inference BatchNormalization, which applies them itself with ApplyPostOp)
 * (atc/compiler/src/passes/conv_post_ops.cc): openatc_post_ops (ListString of algorithm
 * names), openatc_post_alpha and openatc_post_beta (ListFloat, one value per post-op). Names
 * and parameters are oneDNN 2.6's (dnnl_types.h, eltwise alpha/beta table):
 *   eltwise_relu (alpha = negative slope), eltwise_clip (alpha = lower, beta = upper bound),
 *   eltwise_linear (y = alpha * x + beta), eltwise_logistic, eltwise_tanh, eltwise_elu
 *   (alpha), eltwise_hardswish (x * min(max(x + 3, 0), 6) / 6), binary_add (adds a tensor of
 *   the destination's shape, passed as DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1).
 * Post-ops run in order on the f32 result, before it is stored.
 */
#ifndef OPENATC_OPS_COMMON_DNNL_POST_OPS_H_
#define OPENATC_OPS_COMMON_DNNL_POST_OPS_H_

#include <dnnl.hpp>

#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops::dnnl_util {

/// One post-op as the attributes carry it.
struct PostOpSpec {
  std::string alg;
  float alpha = 0.0f, beta = 0.0f;
};

/// Pairs the three attribute lists; "" or why they do not fit together (lengths differ, an
/// unknown algorithm, more than one binary_add, an eltwise algorithm twice: oneDNN 2.6's jit
/// convolutions then apply the first one's alpha and beta to both, measured on AVX-512 with
/// HardSigmoid -> Mul and LeakyRelu -> Tanh -> Relu chains).
std::string ParsePostOps(const std::vector<std::string> &algs, const std::vector<float> &alpha,
                         const std::vector<float> &beta, std::vector<PostOpSpec> *out);

/// The oneDNN post-op list; `addend` is the descriptor of a binary_add operand. With `sum`, the
/// binary_add becomes a sum post-op (scale 1) at its place: the primitive adds the value its
/// destination holds when it runs (openatc/addend_in_place.h).
dnnl::post_ops BuildPostOps(const std::vector<PostOpSpec> &ops, const dnnl::memory::desc &addend, bool sum = false);

/// One post-op on one value with ONNX semantics (NaN in, NaN out: oneDNN's own kernels may give
/// 0 for a NaN through Relu or Clip); `add` is the binary_add operand's value.
float ApplyPostOp(const PostOpSpec &op, float v, float add);

/// Index of the binary_add post-op, or -1.
int BinaryAddIndex(const std::vector<PostOpSpec> &ops);

/// A cache-key fragment for the list: per post-op the oneDNN algorithm's value and the exact
/// bits of alpha and beta (integers, so the run path builds no strings).
Dims PostOpsKey(const std::vector<PostOpSpec> &ops);

}  // namespace openatc_ops::dnnl_util

#endif  // OPENATC_OPS_COMMON_DNNL_POST_OPS_H_
