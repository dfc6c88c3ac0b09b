// ParseAippConfig: the --insert_op_conf file (docs/atc-deploy-flags.md §2), parse and checks only.
// A small reader of protobuf text format for the one message shape the file has: top-level
// `aipp_op { ... }` blocks (also `aipp_op: { }` and `< >`), `key: value` fields inside.
#include "openatc/atc/aipp_config.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "aipp_fields.h"
#include "openatc/common/error.h"

namespace openatc {
namespace atc {
namespace {

struct Token {
  enum Kind { kEnd, kWord, kNumber, kString, kPunct } kind = kEnd;
  std::string text;
  int line = 0;
};

class Lexer {
 public:
  Lexer(const std::string &text, const std::string &file) : s_(text), file_(file) {}

  Token Next() {
    SkipSpace();
    Token t;
    t.line = line_;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      t.kind = Token::kWord;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        t.text += s_[pos_++];
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.') {
      t.kind = Token::kNumber;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                  s_[pos_] == '-' || s_[pos_] == '+'))
        t.text += s_[pos_++];
    } else if (c == '"' || c == '\'') {
      t.kind = Token::kString;
      ++pos_;
      while (pos_ < s_.size() && s_[pos_] != c && s_[pos_] != '\n') t.text += s_[pos_++];
      if (pos_ >= s_.size() || s_[pos_] != c) Fail(line_, "a string is not closed on its line");
      ++pos_;
    } else if (c == '{' || c == '}' || c == '<' || c == '>' || c == ':' || c == ';' || c == ',') {
      t.kind = Token::kPunct;
      t.text = std::string(1, c);
      ++pos_;
    } else {
      Fail(line_, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "?") + "'");
    }
    return t;
  }

  [[noreturn]] void Fail(int line, const std::string &what) const {
    throw Error(ErrorCategory::kUsage, "E10001", "line " + std::to_string(line) + ": " + what,
                "Write the AIPP config as `aipp_op { key: value ... }` blocks (protobuf text format)")
        .WithFile(file_);
  }

 private:
  void SkipSpace() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') ++line_;
      if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      if (!std::isspace(static_cast<unsigned char>(c))) return;
      ++pos_;
    }
  }

  const std::string &s_;
  const std::string &file_;
  size_t pos_ = 0;
  int line_ = 1;
};

// Reads the fields of one block up to its closing bracket.
AippOp ReadBlock(Lexer &lex, const std::string &close, int open_line, const std::string &file) {
  AippOp op;
  op.line = open_line;
  std::set<std::string> seen;
  while (true) {
    Token key = lex.Next();
    if (key.kind == Token::kEnd) lex.Fail(open_line, "the aipp_op block opened here is not closed with '" + close + "'");
    if (key.kind == Token::kPunct && key.text == close) break;
    if (key.kind == Token::kPunct && (key.text == ";" || key.text == ",")) continue;
    if (key.kind != Token::kWord) lex.Fail(key.line, "expected a field name, found '" + key.text + "'");
    Token colon = lex.Next();
    if (colon.kind != Token::kPunct || colon.text != ":")
      lex.Fail(key.line, "field '" + key.text + "': expected ':' after the name");
    Token value = lex.Next();
    if (value.kind == Token::kEnd || value.kind == Token::kPunct)
      lex.Fail(key.line, "field '" + key.text + "': the value is missing");
    if (key.text != "input_edge_idx" && !seen.insert(key.text).second)
      lex.Fail(key.line, "field '" + key.text + "' cannot be configured repeatedly in one aipp_op block");
    SetAippField(op, key.text, value.text, value.kind == Token::kString, key.line, file);
  }
  CheckAippBlock(op, seen, file);
  return op;
}

// Block-level rules across blocks: one block per input, rank and name not mixed.
void CheckBlocks(const std::vector<AippOp> &ops, const std::string &file) {
  bool any_rank = false, any_name = false;
  std::set<std::string> targets;
  for (const AippOp &op : ops) {
    any_rank = any_rank || op.rank_given || !op.name_given;
    any_name = any_name || op.name_given;
    const std::string target =
        op.name_given ? "input '" + op.related_input_name + "'" : "input rank " + std::to_string(op.related_input_rank);
    if (!targets.insert(target).second)
      throw Error(ErrorCategory::kUsage, "E10052",
                  "line " + std::to_string(op.line) + ": cannot insert AIPP twice at the same position (" + target + ")",
                  "Give each aipp_op block its own related_input_rank")
          .WithFile(file);
  }
  if (any_rank && any_name)
    throw Error(ErrorCategory::kUsage, "E10052",
                "related_input_name and related_input_rank are mixed across the aipp_op blocks",
                "Name every block's input the same way (related_input_rank for GE IR and ONNX models)")
        .WithFile(file);
}

}  // namespace

std::vector<AippOp> ParseAippConfig(const std::string &text, const std::string &file) {
  Lexer lex(text, file);
  std::vector<AippOp> ops;
  while (true) {
    Token t = lex.Next();
    if (t.kind == Token::kEnd) break;
    if (t.kind != Token::kWord || t.text != "aipp_op")
      lex.Fail(t.line, "expected 'aipp_op', found '" + t.text + "' (the only top-level field of the file)");
    Token open = lex.Next();
    if (open.kind == Token::kPunct && open.text == ":") open = lex.Next();
    if (open.kind != Token::kPunct || (open.text != "{" && open.text != "<"))
      lex.Fail(t.line, "expected '{' after 'aipp_op'");
    ops.push_back(ReadBlock(lex, open.text == "{" ? "}" : ">", open.line, file));
  }
  CheckBlocks(ops, file);
  return ops;
}

std::vector<AippOp> ReadAippConfigFile(const std::string &path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path, ec) || !in)
    throw Error(ErrorCategory::kUsage, "E10001", "--insert_op_conf: the AIPP config file cannot be read",
                "Check the path given to --insert_op_conf")
        .WithFile(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ParseAippConfig(ss.str(), path);
}

}  // namespace atc
}  // namespace openatc
