/**
 * @file openatc/common/error.h
 * The one error type of OpenATC internals. It carries a category (which fixes the CLI exit code
 * and the ACL error code at the C boundary), a code (a GE error-code family such as E10001 where
 * one fits, else an OA-prefixed code listed in the README), the message, a hint (what to do),
 * and context added on the way up: file, node name, op type, byte offset.
 *
 * Printed form (README.md "Error codes"):
 *   <tool>: error: <code>: '<file>': node '<name>' (<op type>): <what is wrong>. <what to do>
 * Unknown parts are left out with their separator.
 */
#ifndef OPENATC_COMMON_ERROR_H_
#define OPENATC_COMMON_ERROR_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace openatc {

/// What kind of failure; maps 1:1 to omrun/atc exit codes (README.md "omrun" and "atc").
enum class ErrorCategory {
  kUsage,         ///< bad flags or arguments (exit 2; atc: 255)
  kInvalidInput,  ///< bad input data file: count, dtype, shape, size (exit 3)
  kNotOm,         ///< not an OM, foreign OM, unsupported version, wrong target (exit 4)
  kCorruptOm,     ///< checksum, bounds, verifier failure (exit 5)
  kCustomOp,      ///< a custom op callback failed or threw (exit 6)
  kGraph,         ///< the graph or model file is invalid (atc: 255, omrun: 4)
  kMismatch,      ///< output differs from the expected output (exit 1)
  kIo,            ///< file system failure (exit 7 unless a more specific one applies)
  kInternal,      ///< a bug or an unexpected system failure (exit 7)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCategory category, std::string code, std::string message, std::string hint = {});

  ErrorCategory category() const { return category_; }
  const std::string &code() const { return code_; }
  const std::string &message() const { return message_; }
  const std::string &hint() const { return hint_; }
  const std::string &file() const { return file_; }
  const std::string &node() const { return node_; }
  const std::string &op_type() const { return op_type_; }
  std::optional<uint64_t> offset() const { return offset_; }

  // Context setters; each keeps an already-set (more specific) value and returns *this.
  Error &WithFile(const std::string &file);
  Error &WithNode(const std::string &node, const std::string &op_type = {});
  Error &WithOffset(uint64_t offset);
  Error &WithHint(const std::string &hint);

  /// The full one-line form, prefixed with "<tool>: error: ".
  std::string Format(const std::string &tool) const;

 private:
  void Rebuild();
  ErrorCategory category_;
  std::string code_, message_, hint_, file_, node_, op_type_;
  std::optional<uint64_t> offset_;
  std::string what_;
};

/// omrun exit code for a category (README.md "omrun"): 1 mismatch, 2 usage, 3 bad input, 4 not an
/// OM, 5 corrupt, 6 custom op, 7 internal.
int OmrunExitCode(ErrorCategory category);

}  // namespace openatc

#endif  // OPENATC_COMMON_ERROR_H_
