// Output files: .npy / .bin / .txt per output (a folder per sequence output), outputs.json, and
// omrun's one-line summaries.
#include <cctype>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "element.h"
#include "file_util.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/tensor_io.h"
#include "openatc/tensor_io/value_io.h"

namespace openatc {
namespace tensor_io {

void WriteBin(const std::string &path, const HostTensor &t) { WriteFileAtomic(path, t.data.data(), t.data.size()); }

void WriteTxt(const std::string &path, const HostTensor &t) {
  std::string text;
  const size_t n = ComponentCount(t);
  if (KindOf(t.dtype) == ValueKind::kOther)
    throw Error(ErrorCategory::kInvalidInput, "OA3001", "dtype " + DataTypeShortName(t.dtype) + " cannot be written as text",
                "Write it with --outfmt BIN")
        .WithFile(path);
  for (size_t i = 0; i < n; ++i) text += ComponentText(t, i, "%.9g", "%.17g") + "\n";
  WriteFileAtomic(path, text.data(), text.size());
}

void WriteOutputs(const std::string &dir, const std::vector<std::string> &names, const std::vector<HostTensor> &outs,
                  const std::string &outfmt) {
  std::vector<HostValue> values;
  for (const HostTensor &t : outs) values.push_back(TensorHostValue(t));
  WriteValueOutputs(dir, names, values, outfmt);
}

namespace {

void WriteTensor(const std::string &path, const std::string &ext, const HostTensor &t) {
  if (ext == "npy") WriteNpy(path, t);
  else if (ext == "bin") WriteBin(path, t);
  else WriteTxt(path, t);
}

// Sequence output `i`: its elements in DIR/output_<i>.part/, then renamed to DIR/output_<i>/.
nlohmann::ordered_json WriteSequence(const std::filesystem::path &dir, size_t i, const std::string &ext,
                                     const std::vector<HostTensor> &seq) {
  const std::string folder = "output_" + std::to_string(i);
  const std::filesystem::path part = dir / (folder + ".part"), final_dir = dir / folder;
  std::error_code ec;
  std::filesystem::remove_all(part, ec);
  std::filesystem::create_directories(part, ec);
  if (ec)
    throw Error(ErrorCategory::kIo, "OA3006", "cannot create the folder of a sequence output: " + ec.message(),
                "Check the path and its permissions")
        .WithFile(part.string());
  nlohmann::ordered_json elements = nlohmann::ordered_json::array();
  for (size_t j = 0; j < seq.size(); ++j) {
    const std::string file = std::to_string(j) + "." + ext;
    WriteTensor((part / file).string(), ext, seq[j]);
    elements.push_back({{"shape", seq[j].shape}, {"dtype", DataTypeShortName(seq[j].dtype)}, {"file", folder + "/" + file}});
  }
  std::filesystem::remove_all(final_dir, ec);
  std::filesystem::rename(part, final_dir, ec);
  if (ec)
    throw Error(ErrorCategory::kIo, "OA3006", "cannot move a sequence output into place: " + ec.message(),
                "Check the path and its permissions")
        .WithFile(final_dir.string());
  return elements;
}

}  // namespace

void WriteValueOutputs(const std::string &dir, const std::vector<std::string> &names, const std::vector<HostValue> &outs,
                       const std::string &outfmt) {
  if (names.size() != outs.size())
    throw Error(ErrorCategory::kInternal, "E19999",
                "WriteOutputs got " + std::to_string(names.size()) + " names for " + std::to_string(outs.size()) +
                    " outputs");
  std::string fmt = outfmt;
  for (char &c : fmt) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string ext;
  if (fmt == "NPY") ext = "npy";
  else if (fmt == "BIN") ext = "bin";
  else if (fmt == "TXT") ext = "txt";
  else
    throw Error(ErrorCategory::kUsage, "OA3005", "unknown output format '" + outfmt + "'", "Use NPY, BIN or TXT");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw Error(ErrorCategory::kIo, "OA3006", "cannot create the output folder: " + ec.message(),
                "Check the path and its permissions")
        .WithFile(dir);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < outs.size(); ++i) {
    const HostValue &v = outs[i];
    nlohmann::ordered_json entry = {{"index", i}, {"name", names[i]}};
    if (v.kind != ir::ValueKind::kTensor) entry["kind"] = ValueKindName(v.kind);
    const bool optional = v.kind == ir::ValueKind::kOptionalTensor || v.kind == ir::ValueKind::kOptionalSequence;
    if (optional) entry["present"] = v.present;
    if (!v.present) {
      list.push_back(entry);
      continue;
    }
    if (IsSequenceKind(v.kind)) {
      const std::string dtype = v.seq.empty() ? std::string("undefined") : DataTypeShortName(v.seq.front().dtype);
      entry["dtype"] = dtype;
      entry["file"] = "output_" + std::to_string(i);
      entry["elements"] = WriteSequence(dir, i, ext, v.seq);
    } else {
      const std::string file = "output_" + std::to_string(i) + "." + ext;
      WriteTensor((std::filesystem::path(dir) / file).string(), ext, v.tensor);
      entry["shape"] = v.tensor.shape;
      entry["dtype"] = DataTypeShortName(v.tensor.dtype);
      entry["file"] = file;
    }
    list.push_back(entry);
  }
  nlohmann::ordered_json doc = {{"outputs", list}};
  const std::string text = doc.dump(2) + "\n";
  WriteFileAtomic((std::filesystem::path(dir) / "outputs.json").string(), text.data(), text.size());
}

std::string SummaryLine(const std::string &name, const HostTensor &t) {
  std::string line = name + ": shape " + ShapeToString(t.shape) + " " + DataTypeShortName(t.dtype) + " [";
  const size_t n = ComponentCount(t);
  const size_t shown = n < 8 ? n : 8;
  for (size_t i = 0; i < shown; ++i) {
    if (i) line += ", ";
    line += ComponentText(t, i, "%.6g", "%.6g");
  }
  if (n > shown) line += ", ...";
  if (KindOf(t.dtype) == ValueKind::kOther) line += std::to_string(t.data.size()) + " bytes";
  return line + "]";
}

}  // namespace tensor_io
}  // namespace openatc
