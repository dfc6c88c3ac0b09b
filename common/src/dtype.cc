// Tables of ge::DataType and ge::Format facts (GE TypeUtils serial names, sizes, NumPy codes).
#include "openatc/common/dtype.h"

#include <limits>

#include "openatc/private_dtype.h"

namespace openatc {
namespace {
struct DTypeRow {
  ge::DataType dt;
  const char *name;
  const char *shortname;
  size_t size;
  const char *numpy;
};
const DTypeRow kRows[] = {
    {ge::DT_FLOAT, "DT_FLOAT", "float32", 4, "<f4"},
    {ge::DT_FLOAT16, "DT_FLOAT16", "float16", 2, "<f2"},
    {ge::DT_INT8, "DT_INT8", "int8", 1, "|i1"},
    {ge::DT_INT32, "DT_INT32", "int32", 4, "<i4"},
    {ge::DT_UINT8, "DT_UINT8", "uint8", 1, "|u1"},
    {ge::DT_INT16, "DT_INT16", "int16", 2, "<i2"},
    {ge::DT_UINT16, "DT_UINT16", "uint16", 2, "<u2"},
    {ge::DT_UINT32, "DT_UINT32", "uint32", 4, "<u4"},
    {ge::DT_INT64, "DT_INT64", "int64", 8, "<i8"},
    {ge::DT_UINT64, "DT_UINT64", "uint64", 8, "<u8"},
    {ge::DT_DOUBLE, "DT_DOUBLE", "float64", 8, "<f8"},
    {ge::DT_BOOL, "DT_BOOL", "bool", 1, "|b1"},
    {ge::DT_STRING, "DT_STRING", "string", 0, ""},
    {ge::DT_DUAL_SUB_INT8, "DT_DUAL_SUB_INT8", "dual_sub_int8", 1, ""},
    {ge::DT_DUAL_SUB_UINT8, "DT_DUAL_SUB_UINT8", "dual_sub_uint8", 1, ""},
    {ge::DT_COMPLEX64, "DT_COMPLEX64", "complex64", 8, "<c8"},
    {ge::DT_COMPLEX128, "DT_COMPLEX128", "complex128", 16, "<c16"},
    {ge::DT_QINT8, "DT_QINT8", "qint8", 1, ""},
    {ge::DT_QINT16, "DT_QINT16", "qint16", 2, ""},
    {ge::DT_QINT32, "DT_QINT32", "qint32", 4, ""},
    {ge::DT_QUINT8, "DT_QUINT8", "quint8", 1, ""},
    {ge::DT_QUINT16, "DT_QUINT16", "quint16", 2, ""},
    {ge::DT_RESOURCE, "DT_RESOURCE", "resource", 8, ""},
    {ge::DT_STRING_REF, "DT_STRING_REF", "string_ref", 0, ""},
    {ge::DT_DUAL, "DT_DUAL", "dual", 5, ""},
    {ge::DT_VARIANT, "DT_VARIANT", "variant", 8, ""},
    {ge::DT_BF16, "DT_BFLOAT16", "bfloat16", 2, ""},
    {ge::DT_UNDEFINED, "DT_UNDEFINED", "undefined", 0, ""},
    {ge::DT_INT4, "DT_INT4", "int4", 0, ""},
    {ge::DT_UINT1, "DT_UINT1", "uint1", 0, ""},
    {ge::DT_INT2, "DT_INT2", "int2", 0, ""},
    {ge::DT_UINT2, "DT_UINT2", "uint2", 0, ""},
    {ge::DT_COMPLEX32, "DT_COMPLEX32", "complex32", 4, ""},
    {ge::DT_HIFLOAT8, "DT_HIFLOAT8", "hifloat8", 1, ""},
    {ge::DT_FLOAT8_E5M2, "DT_FLOAT8_E5M2", "float8_e5m2", 1, ""},
    {ge::DT_FLOAT8_E4M3FN, "DT_FLOAT8_E4M3FN", "float8_e4m3fn", 1, ""},
    {ge::DT_FLOAT8_E8M0, "DT_FLOAT8_E8M0", "float8_e8m0", 1, ""},
    {ge::DT_FLOAT6_E3M2, "DT_FLOAT6_E3M2", "float6_e3m2", 0, ""},
    {ge::DT_FLOAT6_E2M3, "DT_FLOAT6_E2M3", "float6_e2m3", 0, ""},
    {ge::DT_FLOAT4_E2M1, "DT_FLOAT4_E2M1", "float4_e2m1", 0, ""},
    {ge::DT_FLOAT4_E1M2, "DT_FLOAT4_E1M2", "float4_e1m2", 0, ""},
    {ge::DT_HIFLOAT4, "DT_HIFLOAT4", "hifloat4", 0, ""},
    // OpenATC-private values (openatc/private_dtype.h); GE has no such types.
    {kDtUint4, "DT_UINT4 (OpenATC)", "uint4", 0, ""},
    {kDtFloat8E4M3FNUZ, "DT_FLOAT8_E4M3FNUZ (OpenATC)", "float8_e4m3fnuz", 1, ""},
    {kDtFloat8E5M2FNUZ, "DT_FLOAT8_E5M2FNUZ (OpenATC)", "float8_e5m2fnuz", 1, ""},
};

const DTypeRow *Find(ge::DataType dt) {
  for (const auto &r : kRows)
    if (r.dt == dt) return &r;
  return nullptr;
}

struct FormatRow {
  int value;
  const char *name;
};
const FormatRow kFormats[] = {
    {0, "NCHW"}, {1, "NHWC"}, {2, "ND"}, {3, "NC1HWC0"}, {4, "FRACTAL_Z"}, {5, "NC1C0HWPAD"},
    {6, "NHWC1C0"}, {7, "FSR_NCHW"}, {8, "FRACTAL_DECONV"}, {9, "C1HWNC0"},
    {10, "FRACTAL_DECONV_TRANSPOSE"}, {11, "FRACTAL_DECONV_SP_STRIDE_TRANS"}, {12, "NC1HWC0_C04"},
    {13, "FRACTAL_Z_C04"}, {14, "CHWN"}, {15, "DECONV_SP_STRIDE8_TRANS"}, {16, "HWCN"},
    {17, "NC1KHKWHWC0"}, {18, "BN_WEIGHT"}, {19, "FILTER_HWCK"}, {20, "LOOKUP_LOOKUPS"},
    {21, "LOOKUP_KEYS"}, {22, "LOOKUP_VALUE"}, {23, "LOOKUP_OUTPUT"}, {24, "LOOKUP_HITS"},
    {25, "C1HWNCoC0"}, {26, "MD"}, {27, "NDHWC"}, {29, "FRACTAL_NZ"}, {30, "NCDHW"}, {31, "DHWCN"},
    {32, "NDC1HWC0"}, {33, "FRACTAL_Z_3D"}, {34, "CN"}, {35, "NC"}, {36, "DHWNC"},
    {37, "FRACTAL_Z_3D_TRANSPOSE"}, {38, "FRACTAL_ZN_LSTM"}, {39, "FRACTAL_Z_G"},
    {40, "FORMAT_RESERVED"}, {41, "ALL"}, {42, "NULL"}, {43, "ND_RNN_BIAS"}, {44, "FRACTAL_ZN_RNN"},
    {45, "NYUV"}, {46, "NYUV_A"}, {47, "NCL"}, {48, "FRACTAL_Z_WINO"}, {49, "C1HWC0"},
    {50, "FRACTAL_NZ_C0_16"}, {51, "FRACTAL_NZ_C0_32"}, {52, "FRACTAL_NZ_C0_2"},
    {53, "FRACTAL_NZ_C0_4"}, {54, "FRACTAL_NZ_C0_8"},
};
}  // namespace

std::string DataTypeName(ge::DataType dtype) {
  const DTypeRow *r = Find(dtype);
  return r ? r->name : "UNDEFINED";
}

bool ParseDataTypeName(const std::string &name, ge::DataType *dtype) {
  for (const auto &r : kRows) {
    if (name == r.name) {
      *dtype = r.dt;
      return true;
    }
  }
  if (name == "DT_BF16") {
    *dtype = ge::DT_BF16;
    return true;
  }
  return false;
}

size_t DataTypeSize(ge::DataType dtype) {
  const DTypeRow *r = Find(dtype);
  return r ? r->size : 0;
}

std::string DataTypeShortName(ge::DataType dtype) {
  const DTypeRow *r = Find(dtype);
  return r ? r->shortname : "dtype(" + std::to_string(static_cast<int>(dtype)) + ")";
}

std::string NumpyDescr(ge::DataType dtype) {
  const DTypeRow *r = Find(dtype);
  return r ? r->numpy : "";
}

bool DataTypeFromNumpyDescr(const std::string &descr, ge::DataType *dtype) {
  if (descr.size() < 2) return false;
  std::string d = descr;
  // '=' (native) and '<' are the same on little-endian hosts; '|' for one-byte types.
  if (d[0] == '=' || d[0] == '|') d[0] = '<';
  for (const auto &r : kRows) {
    std::string n = r.numpy;
    if (n.empty()) continue;
    if (n[0] == '|') n[0] = '<';
    if (n == d) {
      *dtype = r.dt;
      return true;
    }
  }
  return false;
}

std::string FormatName(ge::Format format) {
  int primary = ge::GetPrimaryFormat(format);
  std::string base = "RESERVED";
  for (const auto &f : kFormats)
    if (f.value == primary) base = f.name;
  if (ge::HasSubFormat(format)) base += ":" + std::to_string(ge::GetSubFormat(format));
  return base;
}

bool ParseFormatName(const std::string &name, ge::Format *format) {
  std::string n = name;
  if (n.rfind("FORMAT_", 0) == 0 && n != "FORMAT_RESERVED") n = n.substr(7);
  for (const auto &f : kFormats) {
    if (n == f.name) {
      *format = static_cast<ge::Format>(f.value);
      return true;
    }
  }
  if (n == "RESERVED" || n == "UNDEFINED") {
    *format = ge::FORMAT_RESERVED;
    return true;
  }
  return false;
}

int64_t ShapeElementCount(const std::vector<int64_t> &dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

std::string ShapeToString(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

}  // namespace openatc

namespace openatc {

int SubByteBits(ge::DataType dtype) {
  if (dtype == kDtUint4) return 4;
  switch (dtype) {
    case ge::DT_INT4:
    case ge::DT_FLOAT4_E2M1:
    case ge::DT_FLOAT4_E1M2:
    case ge::DT_HIFLOAT4: return 4;
    case ge::DT_INT2:
    case ge::DT_UINT2: return 2;
    case ge::DT_UINT1: return 1;
    default: return 0;
  }
}

std::optional<uint64_t> ElementsByteSize(ge::DataType dtype, int64_t count) {
  const size_t elem = DataTypeSize(dtype);
  const int bits = SubByteBits(dtype);
  if ((elem == 0 && bits == 0) || count < 0) return std::nullopt;
  const uint64_t c = static_cast<uint64_t>(count);
  if (bits != 0) return (c / 8) * static_cast<uint64_t>(bits) + ((c % 8) * static_cast<uint64_t>(bits) + 7) / 8;
  if (c > std::numeric_limits<uint64_t>::max() / elem) return std::nullopt;
  return c * elem;
}

std::optional<uint64_t> TensorByteSize(ge::DataType dtype, const std::vector<int64_t> &dims, std::string *why) {
  if (why != nullptr) why->clear();
  if (DataTypeSize(dtype) == 0 && SubByteBits(dtype) == 0) return std::nullopt;
  const int64_t count = ShapeElementCount(dims);
  if (count < 0) {
    if (why != nullptr) *why = "shape " + ShapeToString(dims) + " is not static or overflows";
    return std::nullopt;
  }
  const std::optional<uint64_t> bytes = ElementsByteSize(dtype, count);
  if (!bytes && why != nullptr) *why = "shape " + ShapeToString(dims) + " overflows the byte size";
  return bytes;
}

}  // namespace openatc
