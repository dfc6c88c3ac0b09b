/**
 * @file ops/common/nan_verdicts.h
 * What a fused Conv knows of a tensor's values without reading it: the running thread's recent
 * verdicts "finite, every |value| <= B", recorded under the tensor ids atc's NanScanSharePass
 * gives (openatc/nan_scan_share.h says who records, who recalls, and why that is sound), and the
 * bound a Conv's output then has (ConvBound, PostOpBound). Each thread has its own table: a model's
 * nodes run on one thread, one after another, and two models running at once run on two threads.
 */
#ifndef OPENATC_OPS_COMMON_NAN_VERDICTS_H_
#define OPENATC_OPS_COMMON_NAN_VERDICTS_H_

#include <cstdint>
#include <limits>
#include <string_view>

namespace openatc_ops {

/// The tensor ids of one Conv node (attributes of openatc/nan_scan_share.h). X and the addend:
/// > 0 the bound may be recalled under the id, < 0 it may not (this node is the first to learn
/// it: it records what it finds under -id), 0 none. Y: > 0 the node records Y's bound under it.
struct NanScanShare {
  int64_t x_id = 0, addend_id = 0, y_id = 0;
};

/// No bound: a non-finite value, or nothing known.
inline constexpr double kNoBound = std::numeric_limits<double>::infinity();

/// Records, on this thread, that the `n` floats at `p` are finite with |value| <= `bound`
/// (kNoBound: a non-finite value or nothing known), under `id` (non-zero); it replaces what was
/// recorded under `id` before. The table keeps the last kNanVerdicts ids.
void RecordBound(int64_t id, const float *p, int64_t n, double bound);
inline constexpr int kNanVerdicts = 16;

/// The bound recorded on this thread under `id` for exactly `p` and `n`; kNoBound when `id` is 0,
/// was never recorded, was pushed out of the table, or was recorded for other bytes.
double RecalledBound(int64_t id, const float *p, int64_t n);

/// max |value| of the `n` floats at `p`, or kNoBound when one is NaN or infinite.
double MaxAbsOrNoBound(const float *p, int64_t n);

/// Outputs of at most this magnitude are taken as computed without overflow: FLT_MAX / 2^24, so
/// that a float32 convolution whose exact |output| bound is below it overflows nowhere, also
/// inside Winograd's transforms (their intermediate values stay within a few thousand times the
/// output bound).
inline constexpr double kBoundLimit = 3.4028234663852886e38 / 16777216.0;

/// A bound on |Y| of a float32 convolution whose weights have at most `w_row_l1` as the sum of
/// |w| over one output channel's weights, whose bias has at most `b_max` as |b|, on an X with
/// |x| <= `bx`: 2 (w_row_l1 bx + b_max), the factor 2 covering every rounding of a float32 sum
/// (and of Winograd's transforms) with room to spare; kNoBound when that passes kBoundLimit or an
/// input is unbounded.
double ConvBound(double w_row_l1, double b_max, double bx);

/// The bound after one fused post-op (dnnl_post_ops.h's names and parameters) on values bounded
/// by `v`; `add`: the bound of binary_add's operand. kNoBound for a post-op it does not know.
double PostOpBound(std::string_view alg, float alpha, float beta, double v, double add);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_NAN_VERDICTS_H_
