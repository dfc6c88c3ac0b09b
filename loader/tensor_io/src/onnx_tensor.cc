// Reading one serialized onnx.TensorProto (.pb) into a HostTensor (raw_data or typed fields);
// FromTensorProto also serves the elements of SequenceProto / OptionalProto files (value_io.cc).
// Field meanings: onnx/onnx.proto (TensorProto) of libonnx-dev 1.12.
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "file_util.h"
#include "onnx_tensor.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/onnx_dtype.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {
namespace {

[[noreturn]] void Bad(const std::string &path, const std::string &what,
                      const std::string &hint = "Write the tensor with onnx.numpy_helper.from_array(a).SerializeToString()") {
  throw Error(ErrorCategory::kInvalidInput, "OA3001", "not a valid ONNX TensorProto file: " + what, hint).WithFile(path);
}

template <typename Src, typename Dst>
void Narrow(const Src &field, std::vector<uint8_t> *out) {
  out->resize(static_cast<size_t>(field.size()) * sizeof(Dst));
  for (int i = 0; i < field.size(); ++i) {
    Dst v = static_cast<Dst>(field.Get(i));
    std::memcpy(out->data() + static_cast<size_t>(i) * sizeof(Dst), &v, sizeof(Dst));
  }
}

}  // namespace

HostTensor ReadOnnxTensorPb(const std::string &path) {
  std::vector<uint8_t> bytes = ReadFileBytes(path);
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
    Bad(path, "the file is larger than 2 GiB, the protobuf limit", "Use a .npy or .bin file");
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) Bad(path, "protobuf parsing failed");
  return FromTensorProto(proto, path);
}

HostTensor FromTensorProto(const onnx::TensorProto &proto, const std::string &path) {
  if (proto.data_location() == onnx::TensorProto::EXTERNAL || proto.external_data_size() > 0)
    Bad(path, "external data is not supported", "Store the data inside the TensorProto (raw_data)");
  if (proto.has_segment()) Bad(path, "segmented tensors are not supported");
  HostTensor t;
  if (!GeDataTypeFromOnnx(proto.data_type(), &t.dtype, /*whole_numbers_only=*/false))
    Bad(path, "ONNX data_type " + std::to_string(proto.data_type()) + " is not supported",
        "Use a numeric type: float16/32/64, bfloat16, int8..int64, uint8..uint64, bool, complex64/128, a float8 "
        "type, int4, uint4 or float4e2m1");
  for (int64_t d : proto.dims()) {
    if (d < 0) Bad(path, "dim " + std::to_string(d) + " is negative");
    t.shape.push_back(d);
  }
  const int64_t count = ShapeElementCount(t.shape);
  if (count < 0) Bad(path, "the element count of shape " + ShapeToString(t.shape) + " overflows");
  const size_t elem = DataTypeSize(t.dtype);
  const uint64_t ucount = static_cast<uint64_t>(count);
  if (Is4BitDataType(t.dtype)) {  // packed two per byte, low nibble first (raw_data or int32_data)
    const uint64_t need = (ucount + 1) / 2;
    if (proto.has_raw_data()) {
      const std::string &raw = proto.raw_data();
      if (raw.size() != need)
        Bad(path, "raw_data holds " + std::to_string(raw.size()) + " bytes but shape " + ShapeToString(t.shape) +
                      " of " + DataTypeShortName(t.dtype) + " needs " + std::to_string(need) + " (two per byte)");
      t.data.assign(raw.begin(), raw.end());
    } else {
      if (static_cast<uint64_t>(proto.int32_data_size()) != need)
        Bad(path, "int32_data holds " + std::to_string(proto.int32_data_size()) + " values but shape " +
                      ShapeToString(t.shape) + " of " + DataTypeShortName(t.dtype) + " needs " + std::to_string(need) +
                      " (one packed byte of two elements each)");
      Narrow<decltype(proto.int32_data()), uint8_t>(proto.int32_data(), &t.data);
    }
    if (ucount % 2 == 1) t.data.back() &= 0x0F;  // the unused high nibble
    return t;
  }
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    if (raw.size() / elem < ucount || raw.size() != ucount * elem)
      Bad(path, "raw_data holds " + std::to_string(raw.size()) + " bytes but shape " + ShapeToString(t.shape) + " of " +
                    DataTypeShortName(t.dtype) + " needs " + std::to_string(ucount * elem));
    t.data.assign(raw.begin(), raw.end());
    return t;
  }
  // Typed fields: how many values the dtype stores per element and in which field.
  const bool is_complex = (t.dtype == ge::DT_COMPLEX64 || t.dtype == ge::DT_COMPLEX128);
  const uint64_t want = ucount * (is_complex ? 2 : 1);
  int have = 0;
  const char *field = "";
  switch (t.dtype) {
    case ge::DT_FLOAT: case ge::DT_COMPLEX64: have = proto.float_data_size(); field = "float_data"; break;
    case ge::DT_DOUBLE: case ge::DT_COMPLEX128: have = proto.double_data_size(); field = "double_data"; break;
    case ge::DT_INT64: have = proto.int64_data_size(); field = "int64_data"; break;
    case ge::DT_UINT32: case ge::DT_UINT64: have = proto.uint64_data_size(); field = "uint64_data"; break;
    default: have = proto.int32_data_size(); field = "int32_data"; break;
  }
  if (static_cast<uint64_t>(have) != want)
    Bad(path, std::string(field) + " holds " + std::to_string(have) + " values but shape " + ShapeToString(t.shape) +
                  " of " + DataTypeShortName(t.dtype) + " needs " + std::to_string(want));
  switch (t.dtype) {
    case ge::DT_FLOAT: case ge::DT_COMPLEX64: Narrow<decltype(proto.float_data()), float>(proto.float_data(), &t.data); break;
    case ge::DT_DOUBLE: case ge::DT_COMPLEX128: Narrow<decltype(proto.double_data()), double>(proto.double_data(), &t.data); break;
    case ge::DT_INT64: Narrow<decltype(proto.int64_data()), int64_t>(proto.int64_data(), &t.data); break;
    case ge::DT_UINT32: Narrow<decltype(proto.uint64_data()), uint32_t>(proto.uint64_data(), &t.data); break;
    case ge::DT_UINT64: Narrow<decltype(proto.uint64_data()), uint64_t>(proto.uint64_data(), &t.data); break;
    case ge::DT_INT32: Narrow<decltype(proto.int32_data()), int32_t>(proto.int32_data(), &t.data); break;
    case ge::DT_INT16: Narrow<decltype(proto.int32_data()), int16_t>(proto.int32_data(), &t.data); break;
    case ge::DT_UINT16: case ge::DT_FLOAT16: case ge::DT_BF16:
      Narrow<decltype(proto.int32_data()), uint16_t>(proto.int32_data(), &t.data); break;
    case ge::DT_INT8: Narrow<decltype(proto.int32_data()), int8_t>(proto.int32_data(), &t.data); break;
    case ge::DT_BOOL: {
      t.data.resize(static_cast<size_t>(have));
      for (int i = 0; i < have; ++i) t.data[static_cast<size_t>(i)] = proto.int32_data(i) != 0 ? 1 : 0;
      break;
    }
    default:  // uint8 and the 8-bit float types: one byte per value
      Narrow<decltype(proto.int32_data()), uint8_t>(proto.int32_data(), &t.data);
      break;
  }
  return t;
}

}  // namespace tensor_io
}  // namespace openatc
