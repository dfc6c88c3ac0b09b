// Ascend targets forwarded to CANN, tested against the STAND-IN CANN libraries of
// tests/standins (CANN itself cannot be installed here):
//   - compile: aclrtc* for an Ascend compile target (openatc::rt::SetCompileTarget, the device
//     state of libascendcl.so; never an environment variable) go to CANN's libacl_rtc.so; atc
//     --soc_version Ascend910B1 records the target and the stand-in's blob in the OM;
//   - run: aclmdlLoad* of an Ascend OM selects CANN's libascendcl.so, and the op's Execute
//     launches through it (the stand-in logs each call to $OPENATC_STANDIN_LOG);
//   - without CANN both fail naming the target and every path searched.
// The runtime backend is process-wide, so the test cases run in this order in their own binary.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "acl_test_util.h"
#include "openatc/common/target.h"
#include "openatc/om/model.h"
#include "openatc/rt/runtime.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

std::string StandinHome() { return BuildPath("tests/standins/ascend_home"); }

openatc::Target Ascend910B1() { return openatc::Target{openatc::TargetKind::kAscendCann, "Ascend910B1", ""}; }

/// FNV-1a 64 of `s` as 16 hex digits (what the stand-in RTC puts in its blob).
std::string Fnv1a64Hex(const std::string &s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::string Blob(const std::string &name, const std::string &source, const std::string &options) {
  return std::string("\x7f" "ELF") + "OPENATC-STANDIN-CANN-RTC\nname=" + name + "\nsource-fnv1a64=" + Fnv1a64Hex(source) +
         "\noptions=" + options + "\n";
}

/// The Ascend910B1 OM of single_add.json (compiled once, by atc with the stand-in CANN).
struct AscendOm {
  std::string dir = MakeTempDir();
  std::string path = dir + "/single_add_910b1.om";
  CommandResult atc;
  AscendOm() {
    atc = RunCommand({BuildPath("bin/atc"), "--model", SourcePath("examples/compilable_add_custom/single_add.json"),
                      "--soc_version", "Ascend910B1", "--output", dir + "/single_add_910b1"},
                     {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("examples/compilable_add_custom/opp")},
                      {"ASCEND_HOME_PATH", StandinHome()}});
  }
  ~AscendOm() { RemoveTree(dir); }
};
AscendOm &Om() {
  static AscendOm om;
  return om;
}

std::vector<std::string> Lines(const std::string &path) {
  std::ifstream f(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(f, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("RTC for an Ascend target without CANN", "[acl][cann]") {
  const std::string dir = MakeTempDir();
  setenv("ASCEND_HOME_PATH", (dir + "/none").c_str(), 1);
  openatc::rt::SetCompileTarget(Ascend910B1());
  aclrtcProg prog = nullptr;
  CHECK(aclrtcCreateProg(&prog, "int x;", "k", 0, nullptr, nullptr) == ACL_ERROR_RTC_FAILURE);
  CHECK(prog == nullptr);
  CHECK(RecentErrorContains("aclrtcCreateProg: compiling for Ascend910B1 needs CANN's RTC (libacl_rtc.so), which was "
                            "not found; searched " + dir + "/none/lib64/libacl_rtc.so, /usr/local/Ascend/ascend-toolkit/"
                            "latest/lib64/libacl_rtc.so, /usr/local/Ascend/cann/lib64/libacl_rtc.so. Install CANN and "
                            "set ASCEND_HOME_PATH, or build for --soc_version host."));
  openatc::rt::SetCompileTarget(openatc::HostTarget());
  unsetenv("ASCEND_HOME_PATH");
  RemoveTree(dir);
}

TEST_CASE("RTC for an Ascend target forwards to CANN's RTC (stand-in)", "[acl][cann]") {
  setenv("ASCEND_HOME_PATH", StandinHome().c_str(), 1);
  // A host program created before the switch stays with the host RTC.
  openatc::rt::SetCompileTarget(openatc::HostTarget());
  aclrtcProg host = nullptr;
  REQUIRE(aclrtcCreateProg(&host, "int x;", "host_prog", 0, nullptr, nullptr) == ACL_SUCCESS);

  openatc::rt::SetCompileTarget(Ascend910B1());
  CHECK(openatc::rt::CompileTarget() == Ascend910B1());
  CHECK(std::getenv("OPENATC_RTC_TARGET") == nullptr);  // the target is passed, not put in the environment
  const std::string source = "extern \"C\" void k() {}\n";
  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(&prog, source.c_str(), "k", 0, nullptr, nullptr) == ACL_SUCCESS);
  const char *options[] = {"--npu-arch=dav-2201", "-DN=4"};
  REQUIRE(aclrtcCompileProg(prog, 2, options) == ACL_SUCCESS);
  size_t size = 0;
  REQUIRE(aclrtcGetBinDataSize(prog, &size) == ACL_SUCCESS);
  std::string bin(size, '\0');
  REQUIRE(aclrtcGetBinData(prog, &bin[0]) == ACL_SUCCESS);
  CHECK(bin == Blob("k", source, "--npu-arch=dav-2201 -DN=4"));
  size_t log_size = 0;
  REQUIRE(aclrtcGetCompileLogSize(prog, &log_size) == ACL_SUCCESS);
  std::string log(log_size, '\0');
  REQUIRE(aclrtcGetCompileLog(prog, &log[0]) == ACL_SUCCESS);
  CHECK(log == std::string("stand-in CANN RTC: compiled k\n") + '\0');
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);
  CHECK(prog == nullptr);

  // A CANN compile error keeps CANN's code and carries CANN's log.
  REQUIRE(aclrtcCreateProg(&prog, "STANDIN_COMPILE_ERROR", "bad", 0, nullptr, nullptr) == ACL_SUCCESS);
  CHECK(aclrtcCompileProg(prog, 0, nullptr) == ACL_ERROR_RTC_COMPILATION);
  CHECK(RecentErrorContains("aclrtcCompileProg: CANN's RTC (" + StandinHome() +
                            "/lib64/libacl_rtc.so) returned 176003; compile log: stand-in CANN RTC: bad: STANDIN_COMPILE_ERROR in source"));
  CHECK(aclrtcDestroyProg(&prog) == ACL_SUCCESS);

  // The host program still answers from the host RTC (not compiled: no binary).
  CHECK(aclrtcGetBinDataSize(host, &size) == ACL_ERROR_RTC_INVALID_PROG);
  CHECK(RecentErrorContains("program 'host_prog' has no binary"));
  CHECK(aclrtcDestroyProg(&host) == ACL_SUCCESS);
  openatc::rt::SetCompileTarget(openatc::HostTarget());
  unsetenv("ASCEND_HOME_PATH");
}

TEST_CASE("atc --soc_version Ascend910B1 compiles through CANN's RTC (stand-in)", "[acl][cann][e2e]") {
  const CommandResult &r = Om().atc;
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("ATC run success, welcome to the next use.") != std::string::npos);
  openatc::om::Model m = openatc::om::ReadFile(Om().path);
  CHECK(m.target.soc_version == "Ascend910B1");
  REQUIRE(m.artifacts.size() == 1);
  const auto &payload = m.artifacts[0].payload;
  const std::string bytes(reinterpret_cast<const char *>(payload.data), payload.size);
  // The op reads its kernel source next to its .so and passes only --npu-arch (the element count
  // is a kernel argument).
  const std::string source = ReadText(BuildPath("examples/compilable_add_custom/opp/op_graph/lib/linux/x86_64/"
                                                "add_custom_kernel.cpp"));
  const std::string prefix = Blob("add_custom", source, "");
  const std::string head = prefix.substr(0, prefix.size() - 1);  // up to "options="
  const size_t at = bytes.find(head);
  REQUIRE(at != std::string::npos);
  const std::string options = bytes.substr(at + head.size(), bytes.find('\n', at + head.size()) - at - head.size());
  CHECK(options == "--npu-arch=dav-2201");
}

TEST_CASE("aclmdlLoad of an Ascend OM without CANN fails naming the paths", "[acl][cann]") {
  REQUIRE(Om().atc.exit_code == 0);
  const std::string dir = MakeTempDir();
  setenv("ASCEND_HOME_PATH", (dir + "/none").c_str(), 1);
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile(Om().path.c_str(), &id) == ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK(RecentErrorContains("running an OM built for Ascend910B1 needs CANN's runtime (libascendcl.so), which was not "
                            "found; searched " + dir + "/none/lib64/libascendcl.so, "));
  CHECK(openatc::rt::ActiveBackend() == "host");
  unsetenv("ASCEND_HOME_PATH");
  RemoveTree(dir);
}

TEST_CASE("aclmdlExecute of an Ascend OM launches through CANN's runtime (stand-in)", "[acl][cann]") {
  REQUIRE(Om().atc.exit_code == 0);
  const std::string log = Om().dir + "/standin.log";
  setenv("ASCEND_HOME_PATH", StandinHome().c_str(), 1);
  setenv("OPENATC_STANDIN_LOG", log.c_str(), 1);
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(Om().path.c_str(), &id) == ACL_SUCCESS);
  CHECK(openatc::rt::ActiveBackend() == "Ascend910B1");
  {
    FloatDataset in({std::vector<float>(16, 1.0f)});
    FloatDataset out({std::vector<float>(16, 0.0f)});
    REQUIRE(aclmdlExecute(id, in.get(), out.get()) == ACL_SUCCESS);
  }
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  const std::vector<std::string> lines = Lines(log);
  std::ostringstream all;
  for (const auto &l : lines) all << l << "\n";
  INFO(all.str());
  REQUIRE(lines.size() >= 4);
  CHECK(lines[0] == "standin-cann: aclInit");
  CHECK(lines[1] == "standin-cann: aclrtSetDevice 0");
  std::vector<std::string> launches;
  for (const auto &l : lines)
    if (l.find("Launch") != std::string::npos || l.find("Binary") != std::string::npos) launches.push_back(l);
  // add1 = AddCustom(data, data): x and y are the same buffer; add2 = AddCustom(add1, data). The
  // fourth 8-byte word holds n = 16 and zero padding.
  const std::string load = "standin-cann: aclrtBinaryLoadFromData size=";
  REQUIRE(launches.size() == 6);
  CHECK(launches[0].rfind(load, 0) == 0);
  CHECK(launches[0].find(" name=add_custom") != std::string::npos);
  CHECK(launches[1] == "standin-cann: aclrtBinaryGetFunction name=add_custom");
  CHECK(launches[2] ==
        "standin-cann: aclrtLaunchKernelWithHostArgs kernel=add_custom blocks=1 args_size=32 args=4xptr repeated");
  CHECK(launches[3].rfind(load, 0) == 0);
  CHECK(launches[4] == "standin-cann: aclrtBinaryGetFunction name=add_custom");
  CHECK(launches[5] ==
        "standin-cann: aclrtLaunchKernelWithHostArgs kernel=add_custom blocks=1 args_size=32 args=4xptr distinct");

  // One backend per process: a host OM is now refused, naming both.
  CHECK(aclmdlLoadFromFile(SingleAddOm().c_str(), &id) == ACL_ERROR_FEATURE_UNSUPPORTED);
  CHECK(RecentErrorContains("this process already runs OMs for Ascend910B1 through CANN (" + StandinHome() +
                            "/lib64/libascendcl.so), so it cannot run an OM built for host"));
  unsetenv("OPENATC_STANDIN_LOG");
}
