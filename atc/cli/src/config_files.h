// Config files named by atc flags (internal to atc/cli): read, parse and check.
#ifndef OPENATC_ATC_CLI_CONFIG_FILES_H_
#define OPENATC_ATC_CLI_CONFIG_FILES_H_

#include <string>

namespace openatc {
namespace atc {

/// The bytes of the file `path` that flag `flag` names. Throws `code` (E10001 by default)
/// naming the flag and the file when it does not exist or cannot be read.
std::string ReadFlagFile(const std::string &flag, const std::string &path, const char *code = "E10001");

/// Reads and checks the file of --keep_dtype, --modify_mixlist, --op_precision_mode or
/// --raw_ge_options as ATC reads it (docs/atc-deploy-flags.md §3); throws E10001 (E10003 for a
/// keep_dtype op type that is not PascalCase) naming the flag, the file and the line or key.
void CheckConfigFile(const std::string &flag, const std::string &path);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_CLI_CONFIG_FILES_H_
