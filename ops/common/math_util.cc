// Out-of-line helpers of ops/common/math_util.h.
#include "common/math_util.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace openatc_ops {

bool HasIntZero(const gert::Tensor &t) {
  const int64_t n = t.GetShapeSize();
  switch (t.GetDataType()) {
    OPENATC_OPS_INT_CASES(const T *p = t.GetData<T>(); for (int64_t i = 0; i < n; ++i) if (p[i] == T(0)) return true)
    default:
      return false;
  }
  return false;
}

}  // namespace openatc_ops
