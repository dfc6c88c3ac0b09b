// Element access shared by the text writer, the summary line and the comparison (internal).
// Complex dtypes are handled as pairs of float/double "components"; the packed 4-bit types (int4,
// uint4, float4e2m1: two elements per byte, low nibble first) have one component per nibble.
#ifndef OPENATC_TENSOR_IO_ELEMENT_H_
#define OPENATC_TENSOR_IO_ELEMENT_H_

#include <cstddef>
#include <string>

#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {

enum class ValueKind { kFloat, kSigned, kUnsigned, kBool, kOther };

/// How the components of `dtype` are read. kOther: only byte comparison is possible.
ValueKind KindOf(ge::DataType dtype);
/// Bytes per component (float16: 2, complex64: 4, ...); 0 for kOther and the packed 4-bit dtypes.
size_t ComponentSize(ge::DataType dtype);
/// Number of components in t.data (data.size() / ComponentSize; the shape's element count for the
/// packed 4-bit dtypes); 0 for kOther dtypes.
size_t ComponentCount(const HostTensor &t);
/// Component i as a double (float16/bfloat16 converted exactly; int64 may round).
double ComponentAsDouble(const HostTensor &t, size_t i);
/// Component i as text: floats printf'd with `float_format` (float64 uses `double_format`),
/// integers exact in decimal, bool 0/1.
std::string ComponentText(const HostTensor &t, size_t i, const char *float_format, const char *double_format);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_ELEMENT_H_
