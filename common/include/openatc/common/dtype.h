/**
 * @file openatc/common/dtype.h
 * Facts about ge::DataType / ge::Format values: serial names (GE TypeUtils spelling, e.g.
 * "DT_FLOAT", "DT_BFLOAT16" for DT_BF16; "ND", "NCHW"), element sizes, and NumPy descriptors.
 */
#ifndef OPENATC_COMMON_DTYPE_H_
#define OPENATC_COMMON_DTYPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graph/types.h"

namespace openatc {

/// GE serial name ("DT_FLOAT", "DT_BFLOAT16"); "UNDEFINED" for a value with no entry.
std::string DataTypeName(ge::DataType dtype);
/// Parses a serial name (also "DT_BF16" and the bare "float32"-style NumPy names are NOT accepted);
/// returns false for an unknown name.
bool ParseDataTypeName(const std::string &name, ge::DataType *dtype);
/// Bytes per element for whole-byte types; 0 for strings, sub-byte and unknown types.
size_t DataTypeSize(ge::DataType dtype);
/// Short lowercase name used in user messages and omrun summaries: float32, float16, int32, ...
std::string DataTypeShortName(ge::DataType dtype);
/// NumPy `descr` ("<f4", "<f2", "<i4", "|b1", ...); empty when NumPy has no equivalent.
std::string NumpyDescr(ge::DataType dtype);
/// Inverse of NumpyDescr; false if unsupported.
bool DataTypeFromNumpyDescr(const std::string &descr, ge::DataType *dtype);

/// GE serial name of a format's primary value ("ND", "NCHW"), with ":<sub>" when a sub-format is
/// packed; "RESERVED" when unknown.
std::string FormatName(ge::Format format);
bool ParseFormatName(const std::string &name, ge::Format *format);

/// Number of elements of a static shape (1 for a scalar). -1 if any dim is negative (unknown) or
/// the product overflows int64.
int64_t ShapeElementCount(const std::vector<int64_t> &dims);
/// Bits per element of the packed sub-byte types (4 for DT_INT4, 2 for DT_INT2, ...); 0 otherwise.
int SubByteBits(ge::DataType dtype);
/// Bytes of a dense tensor of `dtype` with static shape `dims`: element count x element size,
/// packed sub-byte types rounded up to whole bytes. nullopt when the dtype has no fixed size
/// (strings, undefined), a dim is negative, or the size overflows uint64; then `why` (when not
/// null) says which ("" for a dtype without a fixed size).
std::optional<uint64_t> TensorByteSize(ge::DataType dtype, const std::vector<int64_t> &dims,
                                       std::string *why = nullptr);
/// TensorByteSize of `count` elements (count >= 0); nullopt when the dtype has no fixed size or
/// the size overflows uint64.
std::optional<uint64_t> ElementsByteSize(ge::DataType dtype, int64_t count);
/// "[4, 4]" style text of a shape, "[]" for a scalar.
std::string ShapeToString(const std::vector<int64_t> &dims);

}  // namespace openatc

#endif  // OPENATC_COMMON_DTYPE_H_
