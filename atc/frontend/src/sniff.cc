// Encoding detection and protobuf parsing of a GE IR file's bytes (binary, JSON, text) into a
// ModelDef; parse failures become E10041 errors carrying protobuf's message and position.
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>

#include "internal.h"

namespace openatc::frontend::detail {
namespace {

bool EndsWith(const std::string &s, const std::string &suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
}

/// Keeps the first text-format error (line and column are 0-based in protobuf; we print 1-based).
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string &message) override {
    if (!has_error_) {
      has_error_ = true;
      std::string m = message;
      if (!m.empty() && m.back() == '.') m.pop_back();
      text_ = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) +
              ": " + m;
    }
  }
  void AddWarning(int, int, const std::string &) override {}
  bool has_error() const { return has_error_; }
  const std::string &text() const { return text_; }

 private:
  bool has_error_ = false;
  std::string text_;
};

/// Returns "" on success, else the text parser's first error.
std::string ParseText(const std::string &bytes, geir::ModelDef *model) {
  google::protobuf::TextFormat::Parser parser;
  FirstErrorCollector collector;
  parser.RecordErrorsTo(&collector);
  // Same nesting bound as the binary and JSON parsers, so hostile input cannot exhaust the stack.
  parser.SetRecursionLimit(100);
  model->Clear();
  if (parser.ParseFromString(bytes, model)) return "";
  return collector.has_error() ? collector.text() : "the text does not parse";
}

/// Line and column (1-based) of byte `offset` in `text`.
std::string LineColumn(const std::string &text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

/// protobuf 3.21's JSON status message is "<message>\n<up to 20 bytes either side>\n<spaces>^".
/// Returns "<message> (at line L, column C)" when the excerpt locates the error unambiguously,
/// else the message with the excerpt quoted.
std::string DescribeJsonError(const std::string &status_message, const std::string &json) {
  size_t first_nl = status_message.find('\n');
  size_t last_nl = status_message.rfind('\n');
  if (first_nl == std::string::npos || last_nl == first_nl) return status_message;
  std::string msg = status_message.substr(0, first_nl);
  if (!msg.empty() && msg.back() == '.') msg.pop_back();
  std::string excerpt = status_message.substr(first_nl + 1, last_nl - first_nl - 1);
  size_t caret = status_message.find('^', last_nl);
  if (caret == std::string::npos) return status_message;
  size_t caret_col = caret - last_nl - 1;
  if (excerpt.empty()) {
    return msg + " (at " + LineColumn(json, json.size()) + ", the end of the input)";
  }
  size_t pos = json.find(excerpt);
  if (pos != std::string::npos && json.find(excerpt, pos + 1) == std::string::npos) {
    return msg + " (at " + LineColumn(json, pos + caret_col) + ")";
  }
  return msg + " (near '" + excerpt + "')";
}

}  // namespace

GeIrEncoding ResolveEncoding(const std::string &bytes, GeIrEncoding encoding,
                             const std::string &name) {
  if (encoding != GeIrEncoding::kAuto) return encoding;
  if (EndsWith(name, ".json")) return GeIrEncoding::kJson;
  if (EndsWith(name, ".air")) return GeIrEncoding::kBinary;
  if (EndsWith(name, ".txt") || EndsWith(name, ".pbtxt")) return GeIrEncoding::kText;
  for (char c : bytes) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (c == '{') return GeIrEncoding::kJson;
    break;
  }
  return GeIrEncoding::kAuto;  // binary, then text (decided by ParseModelDef)
}

void ParseModelDef(const std::string &bytes, GeIrEncoding encoding, const std::string &name,
                   geir::ModelDef *model) {
  GeIrEncoding enc = ResolveEncoding(bytes, encoding, name);
  // protobuf logs some parse failures (e.g. invalid UTF-8 in a string field) to stderr; library
  // code must not print, and the failure is reported through the thrown error instead.
  google::protobuf::LogSilencer silence_protobuf;
  const std::string hint =
      "Check that the file is a GE IR graph (ge.proto.ModelDef) in binary AIR, JSON or text form";
  switch (enc) {
    case GeIrEncoding::kBinary:
      if (!model->ParseFromString(bytes)) {
        throw GraphError(kParseFailed,
                         "the file is not a valid binary ge.proto.ModelDef (AIR); protobuf could "
                         "not decode its " + std::to_string(bytes.size()) + " bytes",
                         hint);
      }
      return;
    case GeIrEncoding::kJson: {
      google::protobuf::util::JsonParseOptions opts;
      opts.ignore_unknown_fields = false;
      opts.case_insensitive_enum_parsing = false;
      auto status = google::protobuf::util::JsonStringToMessage(bytes, model, opts);
      if (!status.ok()) {
        std::string msg = DescribeJsonError(std::string(status.message()), bytes);
        throw GraphError(kParseFailed, "the JSON graph does not parse: " + msg,
                         "Fix the JSON (the proto3 JSON mapping of ge.proto.ModelDef in schemas/ge_ir.proto; "
                         "README.md, \"Graph files\", points at an example)");
      }
      return;
    }
    case GeIrEncoding::kText: {
      std::string err = ParseText(bytes, model);
      if (!err.empty()) {
        throw GraphError(kParseFailed, "the text graph does not parse: " + err,
                         "Fix the protobuf text dump of ge.proto.ModelDef");
      }
      return;
    }
    case GeIrEncoding::kAuto: {
      if (model->ParseFromString(bytes)) return;
      std::string err = ParseText(bytes, model);
      if (err.empty()) return;
      throw GraphError(kParseFailed,
                       "the file parses neither as binary AIR nor as a text dump (text: " + err +
                           ")",
                       hint);
    }
  }
}

}  // namespace openatc::frontend::detail
