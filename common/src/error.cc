// The project error type: context accumulation and the one printed form.
#include "openatc/common/error.h"

namespace openatc {

Error::Error(ErrorCategory category, std::string code, std::string message, std::string hint)
    : std::runtime_error(message),
      category_(category),
      code_(std::move(code)),
      message_(std::move(message)),
      hint_(std::move(hint)) {
  Rebuild();
}

Error &Error::WithFile(const std::string &file) {
  if (file_.empty()) file_ = file;
  Rebuild();
  return *this;
}

Error &Error::WithNode(const std::string &node, const std::string &op_type) {
  if (node_.empty()) node_ = node;
  if (op_type_.empty()) op_type_ = op_type;
  Rebuild();
  return *this;
}

Error &Error::WithOffset(uint64_t offset) {
  if (!offset_) offset_ = offset;
  Rebuild();
  return *this;
}

Error &Error::WithHint(const std::string &hint) {
  if (hint_.empty()) hint_ = hint;
  Rebuild();
  return *this;
}

static void AppendSentence(std::string &out, const std::string &s) {
  if (s.empty()) return;
  out += s;
  char last = s.back();
  if (last != '.' && last != '!' && last != '?') out += '.';
}

void Error::Rebuild() {
  std::string s;
  if (!code_.empty()) s += code_ + ": ";
  if (!file_.empty()) s += "'" + file_ + "': ";
  if (!node_.empty()) {
    s += "node '" + node_ + "'";
    if (!op_type_.empty()) s += " (" + op_type_ + ")";
    s += ": ";
  } else if (!op_type_.empty()) {
    s += "op type '" + op_type_ + "': ";
  }
  if (offset_) s += "at byte " + std::to_string(*offset_) + ": ";
  AppendSentence(s, message_);
  if (!hint_.empty()) {
    s += ' ';
    AppendSentence(s, hint_);
  }
  what_ = s;
  static_cast<std::runtime_error &>(*this) = std::runtime_error(what_);
}

std::string Error::Format(const std::string &tool) const { return tool + ": error: " + what_; }

int OmrunExitCode(ErrorCategory category) {
  switch (category) {
    case ErrorCategory::kMismatch: return 1;
    case ErrorCategory::kUsage: return 2;
    case ErrorCategory::kInvalidInput: return 3;
    case ErrorCategory::kNotOm: return 4;
    case ErrorCategory::kGraph: return 4;
    case ErrorCategory::kCorruptOm: return 5;
    case ErrorCategory::kCustomOp: return 6;
    case ErrorCategory::kIo: return 7;
    case ErrorCategory::kInternal: return 7;
  }
  return 7;
}

}  // namespace openatc
