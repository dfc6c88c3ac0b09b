/**
 * @file ops/common/float_scan.h
 * One vectorised pass over float32 data for its largest magnitude, which also tells whether it
 * holds a NaN or an infinity (math_util.h AnyNonFinite, nan_verdicts.h MaxAbsOrNoBound).
 */
#ifndef OPENATC_OPS_COMMON_FLOAT_SCAN_H_
#define OPENATC_OPS_COMMON_FLOAT_SCAN_H_

#include <cstdint>

namespace openatc_ops {

/// max |value| of the `n` float32 values at `p` (0 when `n` is 0), or +inf when one is NaN or
/// +-inf. `p` not null.
double MaxAbsOrInf(const float *p, int64_t n);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_FLOAT_SCAN_H_
