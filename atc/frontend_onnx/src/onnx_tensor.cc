// ONNX TensorProto -> ir::ConstTensor: dtype mapping, typed fields / raw_data / external data
// (ONNX "External Data" spec), every size checked before any allocation.
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "onnx_internal.h"
#include "openatc/common/dtype.h"
#include "openatc/frontend/onnx_reader.h"
#include "openatc/onnx_dtype.h"

namespace openatc::frontend {

bool OnnxToGeDataType(int32_t onnx_type, ge::DataType *out) {
  return GeDataTypeFromOnnx(onnx_type, out, /*whole_numbers_only=*/true);
}

std::string OnnxDataTypeName(int32_t onnx_type) {
  if (onnx::TensorProto::DataType_IsValid(onnx_type))
    return onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(onnx_type));
  // Types added after libonnx 1.12 (IR 9: float8, IR 10: 4-bit integers, IR 11: float4, IR 12:
  // FLOAT8E8M0).
  static const char *const kNewer[] = {"FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
                                       "UINT4",        "INT4",           "FLOAT4E2M1", "FLOAT8E8M0"};
  if (onnx_type >= 17 && onnx_type <= 24) return kNewer[onnx_type - 17];
  return "UNKNOWN(" + std::to_string(onnx_type) + ")";
}

namespace onnx_detail {
namespace {

Error Malformed(const std::string &where, const std::string &what) {
  return Error(ErrorCategory::kGraph, kMalformedError, where + ": " + what,
               "Re-export the model; the tensor's data does not match its dims and dtype");
}

Error ExternalError(const std::string &where, const std::string &what) {
  return Error(ErrorCategory::kGraph, kExternalDataError, where + ": " + what,
               "Keep the external data files next to the model, with the paths, offsets and lengths the model "
               "records");
}

// Copies `count` values of a repeated field into `dst` as type Dst.
template <typename Dst, typename Field>
void CopyField(const Field &field, std::vector<uint8_t> *dst) {
  dst->resize(static_cast<size_t>(field.size()) * sizeof(Dst));
  for (int i = 0; i < field.size(); ++i) {
    Dst v = static_cast<Dst>(field.Get(i));
    std::memcpy(dst->data() + static_cast<size_t>(i) * sizeof(Dst), &v, sizeof(Dst));
  }
}

bool PathIsSafe(const std::string &location) {
  if (location.empty() || location[0] == '/') return false;
  size_t start = 0;
  while (start <= location.size()) {
    size_t end = location.find('/', start);
    if (end == std::string::npos) end = location.size();
    if (location.compare(start, end - start, "..") == 0 && end - start == 2) return false;
    start = end + 1;
  }
  return true;
}

std::vector<uint8_t> ReadExternal(const onnx::TensorProto &t, const TensorContext &ctx, const std::string &where,
                                  size_t expected) {
  std::string location;
  uint64_t offset = 0;
  bool has_length = false;
  uint64_t length = 0;
  for (const auto &kv : t.external_data()) {
    auto parse = [&](uint64_t *v) {
      try {
        size_t used = 0;
        *v = std::stoull(kv.value(), &used);
        if (used != kv.value().size() || kv.value()[0] == '-') throw std::invalid_argument("x");
      } catch (const std::exception &) {
        throw ExternalError(where, "external_data '" + kv.key() + "' is not a non-negative integer: '" + kv.value() +
                                       "'");
      }
    };
    if (kv.key() == "location") location = kv.value();
    else if (kv.key() == "offset") parse(&offset);
    else if (kv.key() == "length") { parse(&length); has_length = true; }
  }
  if (location.empty()) throw ExternalError(where, "the tensor's data is external but no 'location' is given");
  if (!PathIsSafe(location))
    throw ExternalError(where, "external data location '" + location +
                                   "' must be a relative path inside the model's folder (no '..', not absolute)");
  if (ctx.model_dir.empty())
    throw ExternalError(where, "external data '" + location + "' cannot be resolved without the model's folder");
  const std::string path = ctx.model_dir + "/" + location;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    throw ExternalError(where, "external data file '" + path + "' does not exist or is not a file");
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (offset > file_size)
    throw ExternalError(where, "offset " + std::to_string(offset) + " is beyond the end of '" + path + "' (" +
                                   std::to_string(file_size) + " bytes)");
  if (!has_length) length = file_size - offset;
  if (length > file_size - offset)
    throw ExternalError(where, "offset " + std::to_string(offset) + " + length " + std::to_string(length) +
                                   " is beyond the end of '" + path + "' (" + std::to_string(file_size) + " bytes)");
  if (length != expected)
    throw ExternalError(where, "external data holds " + std::to_string(length) + " bytes, but the dims and dtype need " +
                                   std::to_string(expected));
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(static_cast<size_t>(length));
  in.seekg(static_cast<std::streamoff>(offset));
  if (length > 0) in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(length));
  if (!in) throw ExternalError(where, "cannot read " + std::to_string(length) + " bytes from '" + path + "'");
  return bytes;
}

}  // namespace

uint16_t FloatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0u));  // inf / nan
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow -> inf
  if (e <= 0) {                                                  // subnormal or zero
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1u), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into the exponent: correct
  return static_cast<uint16_t>(sign | half);
}

void InlineExternalData(onnx::TensorProto *t, const TensorContext &ctx, const std::string &where) {
  ge::DataType dtype;
  if (t->data_location() != onnx::TensorProto::EXTERNAL || !OnnxToGeDataType(t->data_type(), &dtype)) return;
  std::vector<int64_t> dims(t->dims().begin(), t->dims().end());
  for (int64_t d : dims)
    if (d < 0) throw Malformed(where, "dim " + std::to_string(d) + " is negative");
  const int64_t count = ShapeElementCount(dims);
  if (count < 0 || static_cast<uint64_t>(count) > std::numeric_limits<uint64_t>::max() / 16)
    throw Malformed(where, "the element count of dims " + ShapeToString(dims) + " overflows");
  std::vector<uint8_t> bytes =
      ReadExternal(*t, ctx, where, static_cast<size_t>(TensorByteSize(dtype, dims).value_or(0)));
  t->set_raw_data(std::string(bytes.begin(), bytes.end()));
  t->clear_external_data();
  t->set_data_location(onnx::TensorProto::DEFAULT);
}

std::shared_ptr<ir::ConstTensor> ConvertTensor(const onnx::TensorProto &t, const TensorContext &ctx,
                                               const std::string &where) {
  using TP = onnx::TensorProto;
  ge::DataType dtype;
  if (!OnnxToGeDataType(t.data_type(), &dtype)) {
    throw Error(ErrorCategory::kGraph, kUnsupportedError,
                where + ": dtype " + OnnxDataTypeName(t.data_type()) + " is not supported",
                "OpenATC supports numeric and bool tensors only");
  }
  auto out = std::make_shared<ir::ConstTensor>();
  out->desc.dtype = dtype;
  for (int64_t d : t.dims()) {
    if (d < 0) throw Malformed(where, "dim " + std::to_string(d) + " is negative");
    out->desc.shape.push_back(d);
  }
  out->desc.origin_shape = out->desc.shape;
  const int64_t count = ShapeElementCount(out->desc.shape);
  if (count < 0 || static_cast<uint64_t>(count) > std::numeric_limits<uint64_t>::max() / 16)
    throw Malformed(where, "the element count of dims " + ShapeToString(out->desc.shape) + " overflows");
  // Bytes of the tensor: the packed 4-bit types hold two elements per byte (low nibble first).
  const size_t expected = static_cast<size_t>(TensorByteSize(dtype, out->desc.shape).value_or(0));
  std::vector<uint8_t> bytes;
  if (t.data_location() == TP::EXTERNAL) {
    bytes = ReadExternal(t, ctx, where, expected);
  } else if (t.has_raw_data()) {
    if (t.raw_data().size() != expected)
      throw Malformed(where, "raw_data holds " + std::to_string(t.raw_data().size()) + " bytes, but dims " +
                                 ShapeToString(out->desc.shape) + " of " + DataTypeShortName(dtype) + " need " +
                                 std::to_string(expected));
    bytes.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    int64_t have = 0;
    switch (t.data_type()) {
      case TP::FLOAT: have = t.float_data_size(); CopyField<float>(t.float_data(), &bytes); break;
      case TP::DOUBLE: have = t.double_data_size(); CopyField<double>(t.double_data(), &bytes); break;
      case TP::INT64: have = t.int64_data_size(); CopyField<int64_t>(t.int64_data(), &bytes); break;
      case TP::UINT32: have = t.uint64_data_size(); CopyField<uint32_t>(t.uint64_data(), &bytes); break;
      case TP::UINT64: have = t.uint64_data_size(); CopyField<uint64_t>(t.uint64_data(), &bytes); break;
      case TP::INT32: have = t.int32_data_size(); CopyField<int32_t>(t.int32_data(), &bytes); break;
      case TP::INT16: have = t.int32_data_size(); CopyField<int16_t>(t.int32_data(), &bytes); break;
      case TP::INT8: have = t.int32_data_size(); CopyField<int8_t>(t.int32_data(), &bytes); break;
      case TP::UINT16: case TP::FLOAT16: case TP::BFLOAT16:  // 16-bit patterns in int32_data
        have = t.int32_data_size(); CopyField<uint16_t>(t.int32_data(), &bytes); break;
      case TP::UINT8: have = t.int32_data_size(); CopyField<uint8_t>(t.int32_data(), &bytes); break;
      case 17: case 18: case 19: case 20: case 24:  // float8: one bit pattern per int32_data value
        have = t.int32_data_size(); CopyField<uint8_t>(t.int32_data(), &bytes); break;
      case 21: case 22: case 23:  // UINT4 / INT4 / FLOAT4E2M1: one packed byte (two elements) per value
        CopyField<uint8_t>(t.int32_data(), &bytes);
        if (t.int32_data_size() != (count + 1) / 2)
          throw Malformed(where, "int32_data holds " + std::to_string(t.int32_data_size()) +
                                     " packed byte(s), but dims " + ShapeToString(out->desc.shape) + " of " +
                                     DataTypeShortName(dtype) + " need " + std::to_string((count + 1) / 2));
        have = count;
        break;
      case TP::BOOL: {
        have = t.int32_data_size();
        bytes.resize(static_cast<size_t>(have));
        for (int i = 0; i < t.int32_data_size(); ++i) bytes[static_cast<size_t>(i)] = t.int32_data(i) != 0;
        break;
      }
      default: break;
    }
    if (have != count)
      throw Malformed(where, "holds " + std::to_string(have) + " value(s), but dims " +
                                 ShapeToString(out->desc.shape) + " need " + std::to_string(count));
  }
  // An odd count of packed 4-bit elements: the last byte's unused high nibble is kept 0.
  if (SubByteBits(dtype) == 4 && count % 2 == 1 && !bytes.empty()) bytes.back() &= 0x0F;
  out->data = ir::Bytes::FromVector(std::move(bytes));
  return out;
}

std::shared_ptr<ir::ConstTensor> Int64Tensor(const std::vector<int64_t> &values) {
  auto t = std::make_shared<ir::ConstTensor>();
  t->desc.dtype = ge::DT_INT64;
  t->desc.shape = {static_cast<int64_t>(values.size())};
  t->desc.origin_shape = t->desc.shape;
  t->data = ir::Bytes::Copy(values.data(), values.size() * sizeof(int64_t));
  return t;
}

std::shared_ptr<ir::ConstTensor> FloatTensor(const std::vector<float> &values) {
  auto t = std::make_shared<ir::ConstTensor>();
  t->desc.dtype = ge::DT_FLOAT;
  t->desc.shape = {static_cast<int64_t>(values.size())};
  t->desc.origin_shape = t->desc.shape;
  t->data = ir::Bytes::Copy(values.data(), values.size() * sizeof(float));
  return t;
}

std::shared_ptr<ir::ConstTensor> FloatScalar(float value, ge::DataType dtype) {
  auto t = std::make_shared<ir::ConstTensor>();
  t->desc.dtype = dtype;
  if (dtype == ge::DT_DOUBLE) {
    double d = value;
    t->data = ir::Bytes::Copy(&d, sizeof(d));
  } else if (dtype == ge::DT_FLOAT16) {
    uint16_t h = FloatToHalfBits(value);
    t->data = ir::Bytes::Copy(&h, sizeof(h));
  } else if (dtype == ge::DT_BF16) {
    uint32_t x;
    std::memcpy(&x, &value, 4);
    uint16_t b = static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
    if (std::isnan(value)) b = 0x7fc0;
    t->data = ir::Bytes::Copy(&b, sizeof(b));
  } else {
    t->desc.dtype = ge::DT_FLOAT;
    t->data = ir::Bytes::Copy(&value, sizeof(value));
  }
  return t;
}

}  // namespace onnx_detail
}  // namespace openatc::frontend
