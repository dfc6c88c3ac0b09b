/**
 * @file ops/common/nan_verdicts.h
 * The running thread's recent non-finite verdicts on Conv inputs, by the ids atc's
 * NanScanSharePass gives (openatc/nan_scan_share.h says who records and who recalls, and why
 * that is sound). Each thread has its own table: a model's nodes run on one thread, one after
 * another, and two models running at once run on two threads.
 */
#ifndef OPENATC_OPS_COMMON_NAN_VERDICTS_H_
#define OPENATC_OPS_COMMON_NAN_VERDICTS_H_

#include <cstdint>

namespace openatc_ops {

/// The ids of one Conv node (attributes of openatc/nan_scan_share.h; 0: none).
struct NanScanShare {
  int64_t id = 0;           ///< records its verdict on X under this id
  int64_t x_from = 0;       ///< X was checked by the node recording under this id
  int64_t addend_from = 0;  ///< the fused addend was checked by the node recording under this id
};

/// Records, on this thread, that the `n` floats at `p` hold a non-finite value (`nonfinite`) or
/// not, under `id` (non-zero); it replaces the verdict recorded under `id` before. The table keeps
/// the last kNanVerdicts ids.
void RecordNanVerdict(int64_t id, const float *p, int64_t n, bool nonfinite);
inline constexpr int kNanVerdicts = 16;

/// The verdict recorded on this thread under `id` for exactly `p` and `n`: 1 non-finite, 0 finite,
/// -1 none (`id` 0, never recorded, pushed out of the table, or recorded for other bytes).
int RecalledNanVerdict(int64_t id, const float *p, int64_t n);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_NAN_VERDICTS_H_
