// allclose comparison of an output with its expected value (NumPy's rule, NaN == NaN).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "element.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {

Comparison Compare(const HostTensor &actual, const HostTensor &expected, double atol, double rtol) {
  if (actual.dtype != expected.dtype || actual.shape != expected.shape)
    throw Error(ErrorCategory::kMismatch, "OA3007",
                "the output is " + DataTypeShortName(actual.dtype) + " " + ShapeToString(actual.shape) +
                    " but the expected output is " + DataTypeShortName(expected.dtype) + " " +
                    ShapeToString(expected.shape),
                "Give an expected output of the same dtype and shape");
  Comparison c{true, 0.0, 0.0, SIZE_MAX};
  const ValueKind kind = KindOf(actual.dtype);
  if (kind == ValueKind::kOther || actual.data.size() != expected.data.size()) {
    if (actual.data != expected.data) {
      c.ok = false;
      size_t i = 0;
      while (i < actual.data.size() && i < expected.data.size() && actual.data[i] == expected.data[i]) ++i;
      c.first_bad_index = i;  // a byte offset for dtypes without a numeric reading
    }
    return c;
  }
  const size_t n = ComponentCount(actual);
  const size_t comp = ComponentSize(actual.dtype);
  const size_t per_elem = comp == 0 ? 1 : DataTypeSize(actual.dtype) / comp;
  for (size_t i = 0; i < n; ++i) {
    bool pass;
    double a = ComponentAsDouble(actual, i), b = ComponentAsDouble(expected, i);
    double diff = 0.0;
    if (kind == ValueKind::kFloat) {
      if (std::isnan(a) || std::isnan(b)) {
        pass = std::isnan(a) && std::isnan(b);
        diff = pass ? 0.0 : std::numeric_limits<double>::infinity();
      } else if (std::isinf(a) || std::isinf(b)) {
        pass = (a == b);
        diff = pass ? 0.0 : std::numeric_limits<double>::infinity();
      } else {
        diff = std::fabs(a - b);
        pass = diff <= atol + rtol * std::fabs(b);
      }
    } else {
      // Exact: compare the bytes (64-bit integers would lose precision as doubles).
      pass = std::memcmp(actual.data.data() + i * comp, expected.data.data() + i * comp, comp) == 0;
      diff = std::fabs(a - b);
    }
    if (diff > c.max_abs) c.max_abs = diff;
    if (diff > 0) {
      double rel = (b == 0) ? std::numeric_limits<double>::infinity() : diff / std::fabs(b);
      if (rel > c.max_rel) c.max_rel = rel;
    }
    if (!pass && c.ok) {
      c.ok = false;
      c.first_bad_index = i / per_elem;
    }
  }
  return c;
}

}  // namespace tensor_io
}  // namespace openatc
