// examples/model_exec (the GE model_exec flow written against acl/*.h) on the
// compilable_add_custom OM compiled by the atc binary: the sample's two success lines, and its
// error line and exit code 1 on failure.
#include <catch2/catch.hpp>

#include "acl_test_util.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {
bool Contains(const std::string &s, const std::string &sub) { return s.find(sub) != std::string::npos; }
}  // namespace

TEST_CASE("model_exec runs single_add.om on all-ones input", "[acl][e2e]") {
  auto r = RunCommand({BuildPath("examples/model_exec/model_exec"), SingleAddOm()});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "[INFO] Model executed successfully!\n[INFO] First element of output: 3.000000\n");
}

TEST_CASE("model_exec reports a failed call with its error code", "[acl][e2e]") {
  const std::string dir = MakeTempDir();
  auto missing = RunCommand({BuildPath("examples/model_exec/model_exec"), dir + "/missing.om"});
  CHECK(missing.exit_code == 1);
  CHECK(Contains(missing.out, "[ERROR] aclmdlLoadFromFile failed, error code: 100014\n"));
  CHECK(Contains(missing.out, "[ERROR] aclmdlLoadFromFile: cannot load the model:"));
  auto usage = RunCommand({BuildPath("examples/model_exec/model_exec")});
  CHECK(usage.exit_code == 1);
  CHECK(Contains(usage.out, "error code: 100000"));
  RemoveTree(dir);
}
