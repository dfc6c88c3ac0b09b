// Reading sequence and optional values (openatc/tensor_io/value_io.h): onnx.SequenceProto and
// onnx.OptionalProto .pb files (field meanings: onnx/onnx-data.proto of libonnx-dev 1.12), a
// folder of per-element tensor files, and the word `none`.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <onnx/onnx-data_pb.h>

#include "file_util.h"
#include "load_check.h"
#include "onnx_tensor.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/value_io.h"

namespace openatc {
namespace tensor_io {
namespace {

using ir::ValueKind;

[[noreturn]] void Bad(const std::string &path, const std::string &label, const std::string &what) {
  throw Error(ErrorCategory::kInvalidInput, "OA3001", label + ": " + what,
              "Give a sequence as a SequenceProto .pb or a folder of 0.npy, 1.npy, ...; an optional as an "
              "OptionalProto .pb, 'none', or its value (README.md, omrun)")
      .WithFile(path);
}

bool IsDir(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<uint8_t> ReadPb(const std::string &path, const std::string &label) {
  try {
    return ReadFileBytes(path);
  } catch (const Error &e) {
    throw Error(ErrorCategory::kInvalidInput, e.code(), label + ": " + e.message(), e.hint()).WithFile(path);
  }
}

template <typename Proto>
Proto ParsePb(const std::vector<uint8_t> &bytes, const std::string &path, const std::string &label, const char *what) {
  Proto proto;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    Bad(path, label, std::string("not a valid ONNX ") + what + " file: protobuf parsing failed");
  return proto;
}

HostTensor ElementOf(const onnx::TensorProto &t, const std::string &path, const std::string &label, ge::DataType dtype,
                     const std::vector<int64_t> &shape = {-2}) {
  HostTensor h;
  try {
    h = FromTensorProto(t, path);
  } catch (const Error &e) {
    throw Error(e.category(), e.code(), label + ": " + e.message(), e.hint()).WithFile(path);
  }
  return CheckLoadedTensor(std::move(h), FileKind::kPb, path, label, dtype, shape);
}

std::vector<HostTensor> FromSequenceProto(const onnx::SequenceProto &s, const std::string &path, const std::string &label,
                                          ge::DataType dtype) {
  const bool tensors = s.elem_type() == onnx::SequenceProto::TENSOR ||
                       (s.elem_type() == onnx::SequenceProto::UNDEFINED && s.sparse_tensor_values_size() == 0 && s.sequence_values_size() == 0 &&
                        s.map_values_size() == 0 && s.optional_values_size() == 0);
  if (!tensors)
    Bad(path, label, "the SequenceProto holds elements of elem_type " + std::to_string(s.elem_type()) +
                         "; only sequences of dense tensors are supported");
  if (s.sparse_tensor_values_size() > 0 || s.sequence_values_size() > 0 || s.map_values_size() > 0 ||
      s.optional_values_size() > 0)
    Bad(path, label, "the SequenceProto of elem_type TENSOR also holds sparse, sequence, map or optional values");
  std::vector<HostTensor> seq;
  for (int j = 0; j < s.tensor_values_size(); ++j)
    seq.push_back(ElementOf(s.tensor_values(j), path, label + " element " + std::to_string(j), dtype));
  return seq;
}

// A folder: 0.<ext>, 1.<ext>, ... with no gaps and nothing else.
std::vector<HostTensor> FromFolder(const std::string &dir, const std::string &label, ge::DataType dtype,
                                   const std::vector<int64_t> &elem_shape) {
  std::vector<std::pair<size_t, std::string>> files;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const size_t dot = name.find('.');
    const std::string stem = name.substr(0, dot);
    if (dot == std::string::npos || stem.empty() || stem.size() > 9 ||
        !std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        (stem.size() > 1 && stem[0] == '0'))
      Bad(dir, label, "the sequence folder holds '" + name + "', which is not named <element index>.<npy|pb|bin>");
    files.emplace_back(std::stoul(stem), entry.path().string());
  }
  if (ec) Bad(dir, label, "the folder cannot be listed: " + ec.message());
  std::sort(files.begin(), files.end());
  std::vector<HostTensor> seq;
  for (size_t j = 0; j < files.size(); ++j) {
    if (files[j].first != j)
      Bad(dir, label, "the sequence folder has no element " + std::to_string(j) + " (elements are 0, 1, ... without gaps)");
    const std::string elabel = label + " element " + std::to_string(j);
    const bool bin = KindFromPath(files[j].second) == FileKind::kBin;
    seq.push_back(LoadTensorFile(files[j].second, elabel, dtype, bin ? elem_shape : std::vector<int64_t>{-2}));
  }
  return seq;
}

HostValue Sequence(std::vector<HostTensor> seq) {
  HostValue v;
  v.kind = ValueKind::kSequence;
  v.seq = std::move(seq);
  return v;
}

HostValue LoadSequence(const std::string &path, const std::string &label, ge::DataType dtype,
                       const std::vector<int64_t> &elem_shape) {
  if (IsDir(path)) return Sequence(FromFolder(path, label, dtype, elem_shape));
  if (KindFromPath(path) != FileKind::kPb)
    Bad(path, label, "a sequence is read from a SequenceProto .pb file or a folder of element files");
  return ValueFromPbBytes(ReadPb(path, label), path, label, ValueKind::kSequence, dtype, elem_shape);
}

HostValue LoadOptional(const std::string &path, const std::string &label, ValueKind kind, ge::DataType dtype,
                       const std::vector<int64_t> &shape) {
  const bool of_seq = kind == ValueKind::kOptionalSequence;
  HostValue v;
  v.kind = kind;
  if (path == "none") {
    v.present = false;
    return v;
  }
  if (IsDir(path) || KindFromPath(path) != FileKind::kPb) {
    HostValue inner = of_seq ? LoadSequence(path, label, dtype, shape)
                             : TensorHostValue(LoadTensorFile(path, label, dtype, shape));
    inner.kind = kind;
    return inner;
  }
  return ValueFromPbBytes(ReadPb(path, label), path, label, kind, dtype, shape);
}

HostValue FromOptionalProto(const onnx::OptionalProto &o, const std::string &path, const std::string &label,
                            ValueKind kind, ge::DataType dtype, const std::vector<int64_t> &shape) {
  const bool of_seq = kind == ValueKind::kOptionalSequence;
  HostValue v;
  v.kind = kind;
  const int values = int{o.has_tensor_value()} + int{o.has_sparse_tensor_value()} + int{o.has_sequence_value()} +
                     int{o.has_map_value()} + int{o.has_optional_value()};
  if (o.elem_type() == onnx::OptionalProto::UNDEFINED && values > 0)
    Bad(path, label, "the OptionalProto has elem_type UNDEFINED (None) but holds a value");
  if (values > 1) Bad(path, label, "the OptionalProto holds more than one value");
  switch (o.elem_type()) {
    case onnx::OptionalProto::UNDEFINED:
      v.present = false;
      return v;
    case onnx::OptionalProto::TENSOR:
      if (of_seq) Bad(path, label, "the OptionalProto holds a tensor but the model expects an optional sequence");
      v.tensor = ElementOf(o.tensor_value(), path, label, dtype, shape);
      return v;
    case onnx::OptionalProto::SEQUENCE:
      if (!of_seq) Bad(path, label, "the OptionalProto holds a sequence but the model expects an optional tensor");
      v.seq = FromSequenceProto(o.sequence_value(), path, label, dtype);
      return v;
    default:
      Bad(path, label, "the OptionalProto holds elem_type " + std::to_string(o.elem_type()) +
                           "; only optional tensors and optional sequences of tensors are supported");
  }
}

}  // namespace

HostValue ValueFromPbBytes(const std::vector<uint8_t> &bytes, const std::string &path, const std::string &label,
                           ir::ValueKind kind, ge::DataType dtype, const std::vector<int64_t> &shape) {
  switch (kind) {
    case ValueKind::kSequence:
      return Sequence(FromSequenceProto(ParsePb<onnx::SequenceProto>(bytes, path, label, "SequenceProto"), path, label,
                                        dtype));
    case ValueKind::kOptionalTensor:
    case ValueKind::kOptionalSequence:
      return FromOptionalProto(ParsePb<onnx::OptionalProto>(bytes, path, label, "OptionalProto"), path, label, kind,
                               dtype, shape);
    default:
      Bad(path, label, "a tensor is read with LoadTensorFile, not as a SequenceProto / OptionalProto");
  }
}

HostValue LoadValueFile(const std::string &path, const std::string &label, ir::ValueKind kind, ge::DataType dtype,
                        const std::vector<int64_t> &shape) {
  switch (kind) {
    case ValueKind::kTensor: return TensorHostValue(LoadTensorFile(path, label, dtype, shape));
    case ValueKind::kSequence: return LoadSequence(path, label, dtype, shape);
    default: return LoadOptional(path, label, kind, dtype, shape);
  }
}

}  // namespace tensor_io
}  // namespace openatc
