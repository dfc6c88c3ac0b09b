// allclose comparison of an output with its expected value (NumPy's rule, NaN == NaN), and the
// numbers omrun prints about it.
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
  Comparison c;
  const ValueKind kind = KindOf(actual.dtype);
  const double inf = std::numeric_limits<double>::infinity();
  c.tolerant = kind == ValueKind::kFloat;
  if (kind == ValueKind::kOther || actual.data.size() != expected.data.size()) {
    if (actual.data != expected.data) {
      c.ok = false;
      c.max_ratio = inf;
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
    double diff = 0.0, ratio = 0.0;
    if (kind == ValueKind::kFloat) {
      if (std::isnan(a) || std::isnan(b)) {
        pass = std::isnan(a) && std::isnan(b);
        diff = pass ? 0.0 : inf;
        ratio = pass ? 0.0 : inf;
      } else if (std::isinf(a) || std::isinf(b)) {
        pass = (a == b);
        diff = pass ? 0.0 : inf;
        ratio = pass ? 0.0 : inf;
      } else {
        diff = std::fabs(a - b);
        const double tol = atol + rtol * std::fabs(b);
        pass = diff <= tol;
        ratio = diff == 0.0 ? 0.0 : (tol > 0.0 ? diff / tol : inf);
        // The printed ratio never contradicts the rule, whatever the division rounded to.
        if (pass && ratio > 1.0) ratio = 1.0;
        if (!pass && ratio <= 1.0) ratio = std::nextafter(1.0, inf);
        if (std::fabs(b) > atol) {
          ++c.rel_count;
          const double rel = diff / std::fabs(b);
          if (rel > c.max_rel) c.max_rel = rel;
        }
      }
    } else {
      // Exact: compare the bytes (64-bit integers would lose precision as doubles).
      // (The packed 4-bit types have no byte per element: their nibbles' values are compared.)
      pass = comp == 0 ? a == b : std::memcmp(actual.data.data() + i * comp, expected.data.data() + i * comp, comp) == 0;
      diff = std::fabs(a - b);
      ratio = pass ? 0.0 : inf;
    }
    if (diff > c.max_abs) c.max_abs = diff;
    if (ratio > c.max_ratio) c.max_ratio = ratio;
    if (!pass && c.ok) {
      c.ok = false;
      c.first_bad_index = i / per_elem;
      c.first_bad_actual = a;
      c.first_bad_expected = b;
    }
  }
  return c;
}

}  // namespace tensor_io
}  // namespace openatc
