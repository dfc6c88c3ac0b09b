/**
 * @file ops/common/class_loss.h
 * Shared body of the class-index losses NegativeLogLikelihoodLoss-13 and
 * SoftmaxCrossEntropyLoss-13 (ONNX Operators.md): shape checks, the `reduction` attribute, and the
 * gather-negate-weight-reduce step over log-probabilities laid out as (N, C, d1..dk).
 *
 * Semantics (ONNX spec, both ops): for every n and spatial position d with t = target[n][d],
 *   loss[n][d] = -logp[n][t][d] * w[t]   (w = weight, or 1 without weights)
 * and loss[n][d] = 0 with w = 0 when t == ignore_index. reduction "none" returns loss with shape
 * (N, d1..dk); "sum" the sum (a scalar); "mean" the sum divided by the sum of w[t] over the
 * targets that are not ignored (the count of those targets without weights; 0/0 gives NaN as in
 * ONNX's reference implementation). A target outside [0, C) that is not ignore_index is an error.
 * Sums accumulate in double.
 */
#ifndef OPENATC_OPS_COMMON_CLASS_LOSS_H_
#define OPENATC_OPS_COMMON_CLASS_LOSS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops {

/// REG_OP default of `ignore_index`, which ONNX leaves optional with no default: "no index is
/// ignored". (A target equal to this value is treated as ignored, a value no real model uses.)
constexpr int64_t kNoIgnoreIndex = std::numeric_limits<int64_t>::min();

enum class LossReduction { kNone, kSum, kMean };

/// "none" / "sum" / "mean"; false for any other string.
bool ParseLossReduction(const std::string &s, LossReduction *out);

/// Sizes of a loss computation: input (N, C, d1..dk) read as [N][C][D] with D = d1*...*dk.
struct LossLayout {
  int64_t n = 0, c = 0, d = 1;
  Dims none_dims;  ///< (N, d1..dk): the output shape of reduction "none"
};

/// Checks input dims (rank >= 2), target dims (== input dims without axis 1) and, when given,
/// weight dims (== {C}); -1 (unknown) dims match anything. Returns "" and fills `layout` (its
/// sizes are meaningful only when every dim is known), or a message naming the mismatch.
std::string CheckLossShapes(const Dims &input, const Dims &target, const Dims *weight, LossLayout *layout);

/// Output dims for `r`: none_dims for kNone, {} (a scalar) otherwise.
Dims LossOutputDims(const LossLayout &layout, LossReduction r);

/// Values of a float/float16/double tensor as doubles; false for other dtypes or a null address.
bool ReadFloatsAsDouble(const gert::Tensor *t, std::vector<double> *out);

/// Attribute checks shared by both ops: `reduction` (parsed into *r) must be none/sum/mean, the
/// input dtype a float type, the target int32/int64, the optional weight the input's dtype.
/// Returns "" or the message.
std::string CheckLossDtypes(ge::DataType input, ge::DataType target, const ge::DataType *weight);

/// The gather/weight/reduce step. `logp` holds N*C*D log-probabilities, `target` N*D class
/// indices, `weight` C values or nullptr. `out` receives N*D values (kNone) or one value.
/// Returns "" or a message naming the first bad target (value and flat index).
template <typename In>
std::string NllReduce(const In *logp, const std::vector<int64_t> &target, const std::vector<double> *weight,
                      const LossLayout &L, int64_t ignore_index, LossReduction r, std::vector<double> *out) {
  const int64_t nd = L.n * L.d;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t t = target[static_cast<size_t>(i)];
    if (t != ignore_index && (t < 0 || t >= L.c))
      return "target value " + std::to_string(t) + " at flat index " + std::to_string(i) + " is outside [0, " +
             std::to_string(L.c) + ") and is not ignore_index";
  }
  out->assign(r == LossReduction::kNone ? static_cast<size_t>(nd) : 1u, 0.0);
  double sum = 0.0, weight_sum = 0.0;
  for (int64_t n = 0; n < L.n; ++n) {
    for (int64_t d = 0; d < L.d; ++d) {
      const int64_t i = n * L.d + d;
      const int64_t t = target[static_cast<size_t>(i)];
      if (t == ignore_index) continue;
      const double w = weight ? (*weight)[static_cast<size_t>(t)] : 1.0;
      const double v = -static_cast<double>(logp[(n * L.c + t) * L.d + d]) * w;
      if (r == LossReduction::kNone) (*out)[static_cast<size_t>(i)] = v;
      sum += v;
      weight_sum += w;
    }
  }
  if (r == LossReduction::kSum) (*out)[0] = sum;
  if (r == LossReduction::kMean) (*out)[0] = sum / weight_sum;
  return "";
}

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CLASS_LOSS_H_
