// Output files: .npy / .bin / .txt per output, outputs.json, and omrun's one-line summaries.
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
    const std::string file = "output_" + std::to_string(i) + "." + ext;
    const std::string path = (std::filesystem::path(dir) / file).string();
    if (ext == "npy") WriteNpy(path, outs[i]);
    else if (ext == "bin") WriteBin(path, outs[i]);
    else WriteTxt(path, outs[i]);
    list.push_back({{"index", i},
                    {"name", names[i]},
                    {"shape", outs[i].shape},
                    {"dtype", DataTypeShortName(outs[i].dtype)},
                    {"file", file}});
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
