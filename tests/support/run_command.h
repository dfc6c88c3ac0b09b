// Test support: run a program, capture its exit code, stdout and stderr (no shell).
#ifndef OPENATC_TESTS_SUPPORT_RUN_COMMAND_H_
#define OPENATC_TESTS_SUPPORT_RUN_COMMAND_H_

#include <map>
#include <string>
#include <vector>

namespace openatc::testing {

struct CommandResult {
  int exit_code = -1;  ///< the exit status, or 128 + signal number
  std::string out;
  std::string err;
};

/// Runs argv[0] (a path) with argv. `env` entries are set ("NAME=value") or, with an empty value
/// after '=' and `unset` true, removed. Blocks until it exits.
CommandResult RunCommand(const std::vector<std::string> &argv, const std::map<std::string, std::string> &set_env = {},
                         const std::vector<std::string> &unset_env = {});

/// <build>/bin/<tool>, <build>/..., <source>/... from the ctest environment.
std::string BuildPath(const std::string &relative);
std::string SourcePath(const std::string &relative);
/// A fresh empty directory under the system temp folder, removed by the caller with RemoveTree.
std::string MakeTempDir();
void RemoveTree(const std::string &path);
std::string ReadText(const std::string &path);
void WriteBytes(const std::string &path, const std::string &bytes);

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_SUPPORT_RUN_COMMAND_H_
