// ONNX's own node conformance cases (Debian libonnx-testdata, data/node) of the round-3 group-L
// built-ins: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss (and their `_expanded` function
// bodies, which use other built-ins too), Hardmax, CumSum, Mod and BitShift. The cases are run by
// the conformance runner (tests/conformance: atc then omrun with --expected_output, atol 1e-7,
// rtol 1e-3), so this test reuses its loader and comparison instead of a copy of them. Skipped
// with a message where the runner, the tools or libonnx-testdata are absent.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

#include "op_harness.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

const char *const kDataDir = "/usr/share/libonnx-testdata/data";

// Case-name prefixes of the group-L ops.
const std::vector<std::string> kPrefixes = {"test_nllloss_", "test_sce_", "test_hardmax_",
                                            "test_cumsum_",  "test_mod_", "test_bitshift_"};

bool Exists(const std::string &p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

std::vector<std::string> GroupCases() {
  std::vector<std::string> ids;
  const std::string node = std::string(kDataDir) + "/node";
  if (DIR *d = ::opendir(node.c_str())) {
    while (dirent *e = ::readdir(d)) {
      const std::string name = e->d_name;
      for (const auto &p : kPrefixes)
        if (name.rfind(p, 0) == 0) ids.push_back("node/" + name);
    }
    ::closedir(d);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

TEST_CASE("ONNX node test cases of the group-L built-ins pass through atc and omrun", "[ops][onnx]") {
  const std::string runner = BuildPath("tests/onnx_conformance");
  const std::string atc = BuildPath("bin/atc"), omrun = BuildPath("bin/omrun");
  if (!Exists(std::string(kDataDir) + "/node")) {
    WARN("libonnx-testdata is not installed (" << kDataDir << "); skipped");
    return;
  }
  if (!Exists(runner) || !Exists(atc) || !Exists(omrun)) {
    WARN("build the onnx_conformance, atc and omrun targets first; skipped");
    return;
  }
  const std::vector<std::string> ids = GroupCases();
  CHECK(ids.size() ==
        139);  // libonnx-testdata 1.12: 52 nllloss, 68 sce, 7 hardmax, 7 cumsum, 13 mod, 8 bitshift (incl. _expanded)
  const std::string dir = MakeTempDir();
  const std::string list = dir + "/cases.txt";
  {
    std::ofstream out(list);
    for (const auto &id : ids) out << id << "\n";
  }
  const CommandResult r =
      RunCommand({runner, "--atc", atc, "--omrun", omrun, "--data", kDataDir, "--jobs", "1", "--cases", list});
  RemoveTree(dir);
  INFO("stdout:\n" << r.out << "\nstderr (tail):\n" << r.err.substr(r.err.size() > 4000 ? r.err.size() - 4000 : 0));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(std::to_string(ids.size()) + " cases: " + std::to_string(ids.size()) + " pass") !=
        std::string::npos);
  CHECK(r.out.find("REGRESSION") == std::string::npos);
}
