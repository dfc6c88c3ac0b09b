// One model input from a file: kind by extension, then dtype / shape / byte-size checks that
// name the input, the file, what was expected and what was found (omrun exit 3).
#include <cctype>
#include <string>
#include <vector>

#include "file_util.h"
#include "load_check.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {
namespace {

std::string InputLabel(size_t index, const std::string &name) {
  return "input " + std::to_string(index) + (name.empty() ? std::string() : " '" + name + "'");
}

// -1 matches any size; an expected shape of exactly {-2} (GE's unknown rank) matches any shape.
bool ShapeMatches(const std::vector<int64_t> &expected, const std::vector<int64_t> &actual) {
  if (expected.size() == 1 && expected[0] == -2) return true;
  if (expected.size() != actual.size()) return false;
  for (size_t i = 0; i < expected.size(); ++i)
    if (expected[i] != -1 && expected[i] != actual[i]) return false;
  return true;
}

}  // namespace

FileKind KindFromPath(const std::string &path) {
  size_t dot = path.rfind('.');
  size_t slash = path.find_last_of('/');
  std::string ext;
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ext = path.substr(dot);
  for (char &c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".npy") return FileKind::kNpy;
  if (ext == ".bin" || ext == ".yuv") return FileKind::kBin;  // .yuv: a raw image for an AIPP input
  if (ext == ".pb") return FileKind::kPb;
  throw Error(ErrorCategory::kUsage, "OA3005",
              "unknown tensor file extension '" + ext + "'",
              "Use .npy (NumPy), .bin or .yuv (raw bytes) or .pb (ONNX TensorProto)")
      .WithFile(path);
}

std::vector<uint8_t> ReadRaw(const std::string &path) { return ReadFileBytes(path); }

HostTensor LoadInput(const std::string &path, size_t index, const std::string &input_name,
                     ge::DataType expected_dtype, const std::vector<int64_t> &expected_shape) {
  return LoadTensorFile(path, InputLabel(index, input_name), expected_dtype, expected_shape);
}

HostTensor LoadTensorFile(const std::string &path, const std::string &label, ge::DataType expected_dtype,
                          const std::vector<int64_t> &expected_shape) {
  const FileKind kind = KindFromPath(path);
  HostTensor t;
  try {
    if (kind == FileKind::kNpy) t = ReadNpy(path);
    else if (kind == FileKind::kPb) t = ReadOnnxTensorPb(path);
    else t.data = ReadRaw(path);
  } catch (const Error &e) {
    // An input file that cannot be read is a bad input file (omrun exit 3), not an internal error.
    ErrorCategory category = e.category() == ErrorCategory::kIo ? ErrorCategory::kInvalidInput : e.category();
    throw Error(category, e.code(), label + ": " + e.message(), e.hint()).WithFile(path);
  }
  return CheckLoadedTensor(std::move(t), kind, path, label, expected_dtype, expected_shape);
}

HostTensor CheckLoadedTensor(HostTensor t, FileKind kind, const std::string &path, const std::string &label,
                             ge::DataType expected_dtype, const std::vector<int64_t> &expected_shape) {
  const std::string expected_text = DataTypeShortName(expected_dtype) + " " + ShapeToString(expected_shape);
  if (kind == FileKind::kBin) {
    // The packed 4-bit types: (count + 1) / 2 bytes, two elements per byte, low nibble first.
    const std::optional<uint64_t> bytes = TensorByteSize(expected_dtype, expected_shape);
    if (!bytes.has_value())
      throw Error(ErrorCategory::kInvalidInput, "OA3004",
                  label + ": a .bin file cannot give the shape of an input of " + expected_text,
                  "Use a .npy or .pb file for an input with unknown dims")
          .WithFile(path);
    const uint64_t need = *bytes;
    if (t.data.size() != need)
      throw Error(ErrorCategory::kInvalidInput, "OA3004",
                  label + ": the file has " + std::to_string(t.data.size()) + " bytes but the model expects " +
                      std::to_string(need) + " bytes (" + expected_text + ")",
                  "A .bin input holds exactly the raw little-endian bytes of one tensor")
          .WithFile(path);
    t.dtype = expected_dtype;
    t.shape = expected_shape;
    return t;
  }
  // NumPy has no bfloat16: ONNX's backend test data (and numpy users without ml_dtypes) store
  // bfloat16 bit patterns as uint16. Where the model expects bfloat16, such a file is taken as
  // those bit patterns (not converted by value).
  if (expected_dtype == ge::DT_BF16 && t.dtype == ge::DT_UINT16) t.dtype = ge::DT_BF16;
  if (t.dtype != expected_dtype)
    throw Error(ErrorCategory::kInvalidInput, "OA3002",
                label + ": the file holds " + DataTypeShortName(t.dtype) + " data but the model expects " +
                    DataTypeShortName(expected_dtype),
                "Convert the data to " + DataTypeShortName(expected_dtype) + " (numpy: a.astype(...))")
        .WithFile(path);
  if (!ShapeMatches(expected_shape, t.shape))
    throw Error(ErrorCategory::kInvalidInput, "OA3003",
                label + ": the file has shape " + ShapeToString(t.shape) + " but the model expects " +
                    ShapeToString(expected_shape),
                "Give a tensor of the expected shape (-1 matches any size)")
        .WithFile(path);
  return t;
}

}  // namespace tensor_io
}  // namespace openatc
