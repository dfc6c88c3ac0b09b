// libacl_rtc: options, compile errors and logs, reproducible output, in-memory headers, no
// files left behind, unsupported calls and bad inputs.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "acl/acl_rt_compile.h"
#include "acl/acl_rtc_error.h"
#include "rtc_test_util.h"

using rttest::Compile;

namespace {
bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("RTC compiles a kernel into an ELF shared object, reproducibly", "[rt][rtc]") {
  auto a = Compile(rttest::kAddKernel, {"-DT=float", "--npu-arch=dav-2201"});
  INFO(a.log << a.error);
  REQUIRE(a.rc == ACL_SUCCESS);
  REQUIRE(a.binary.size() > 64);
  REQUIRE(a.binary[0] == 0x7f);
  REQUIRE(a.binary[1] == 'E');
  REQUIRE(a.binary[2] == 'L');
  REQUIRE(a.binary[3] == 'F');
  auto b = Compile(rttest::kAddKernel, {"-DT=float", "--npu-arch=dav-2201"});
  REQUIRE(b.rc == ACL_SUCCESS);
  REQUIRE(a.binary == b.binary);
  auto c = Compile(rttest::kAddKernel, {"-DT=float", "-O3", "-std=c++20", "-I/nonexistent"});
  INFO(c.log << c.error);
  REQUIRE(c.rc == ACL_SUCCESS);
}

TEST_CASE("RTC refuses an unknown option, naming it", "[rt][rtc]") {
  auto r = Compile(rttest::kAddKernel, {"-DT=float", "-fno-foo"});
  REQUIRE(r.rc == ACL_ERROR_RTC_INVALID_OPTION);
  REQUIRE(Contains(r.error, "aclrtcCompileProg: option '-fno-foo' is not supported by the host RTC."));
  REQUIRE(Contains(r.error, "Accepted: -D<name>[=value], -I<dir>, -O<0|1|2|3|s|z>, -g, -std=<standard>, "
                            "--npu-arch=dav-<n>, --npu-soc=<SoC>"));
  REQUIRE(Contains(r.log, "option '-fno-foo' is not supported by the host RTC"));
  auto bare = Compile(rttest::kAddKernel, {"-D"});
  REQUIRE(bare.rc == ACL_ERROR_RTC_INVALID_OPTION);
  REQUIRE(Contains(bare.error, "option '-D' is not supported"));
}

TEST_CASE("RTC refuses a chip without runtime compilation, by --npu-arch or --npu-soc", "[rt][rtc]") {
  for (const char *option : {"--npu-arch=dav-2002", "--npu-soc=Ascend310P3"}) {
    auto r = Compile(rttest::kAddKernel, {"-DT=float", option});
    INFO(option);
    REQUIRE(r.rc == ACL_ERROR_RTC_INVALID_OPTION);
    CHECK(Contains(r.error, "Ascend310P3 (dav-2002) has no runtime compilation (RTC): aclrtcCompileProg exists on "
                            "Ascend 950, A3 and A2 only"));
    CHECK(Contains(r.error, "Compile the kernel ahead of time with bisheng, or target a chip with RTC such as "
                            "Ascend910B1"));
    CHECK(r.binary.empty());
  }
  auto b = Compile(rttest::kAddKernel, {"-DT=float", "--npu-arch=dav-3002"});
  REQUIRE(b.rc == ACL_ERROR_RTC_INVALID_OPTION);
  CHECK(Contains(b.error, "Ascend310B1 (dav-3002) has no runtime compilation (RTC)"));
}

TEST_CASE("RTC reports compile errors with the compiler's log", "[rt][rtc]") {
  auto r = Compile("int f() { return undefined_thing; }\n", {}, "broken_kernel");
  REQUIRE(r.rc == ACL_ERROR_RTC_COMPILATION);
  REQUIRE(Contains(r.log, "undefined_thing"));
  REQUIRE(Contains(r.log, "error"));
  REQUIRE(Contains(r.error, "aclrtcCompileProg: compiling program 'broken_kernel' with "));
  REQUIRE(Contains(r.error, "See the compile log (aclrtcGetCompileLog) for every message."));
  REQUIRE(r.binary.empty());

  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(&prog, "int f() { return nope; }", "p", 0, nullptr, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtcCompileProg(prog, 0, nullptr) == ACL_ERROR_RTC_COMPILATION);
  size_t size = 0;
  REQUIRE(aclrtcGetBinDataSize(prog, &size) == ACL_ERROR_RTC_INVALID_PROG);
  REQUIRE(std::string(aclGetRecentErrMsg()) ==
          "aclrtcGetBinDataSize: program 'p' has no binary: it was not compiled successfully. Call aclrtcCompileProg "
          "and check its result first.");
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);
  REQUIRE(prog == nullptr);
}

TEST_CASE("RTC handles a large source and a large log without blocking", "[rt][rtc]") {
  std::string src = "#include \"openatc/host_kernel.h\"\n";
  for (int i = 0; i < 4000; ++i) src += "static int unused_" + std::to_string(i) + "() { return " + std::to_string(i) + "; }\n";
  src += "OPENATC_HOST_KERNEL(big, GM_ADDR p) { p[0] = 1; }\n";
  auto ok = Compile(src);
  INFO(ok.error);
  REQUIRE(ok.rc == ACL_SUCCESS);
  std::string bad;
  for (int i = 0; i < 3000; ++i) bad += "int e" + std::to_string(i) + " = missing_" + std::to_string(i) + ";\n";
  auto fail = Compile(bad);
  REQUIRE(fail.rc == ACL_ERROR_RTC_COMPILATION);
  REQUIRE(Contains(fail.log, "missing_0"));
}

TEST_CASE("RTC in-memory headers are found and their folder removed", "[rt][rtc]") {
  const char *header = "#define MY_VALUE 42\n";
  const char *name = "my_value.h";
  const char *src = "#include \"my_value.h\"\nextern \"C\" int value() { return MY_VALUE; }\n";
  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(&prog, src, "with_header", 1, &header, &name) == ACL_SUCCESS);
  REQUIRE(aclrtcCompileProg(prog, 0, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);

  const char *bad_name = "../evil.h";
  REQUIRE(aclrtcCreateProg(&prog, src, "x", 1, &header, &bad_name) == ACL_ERROR_RTC_INVALID_INPUT);
  REQUIRE(std::string(aclGetRecentErrMsg()) ==
          "aclrtcCreateProg: include name '../evil.h' of header 0 is not a plain file name. Name in-memory headers like "
          "\"my_kernel.h\" (no folders).");
}

TEST_CASE("RTC leaves no file behind", "[rt][rtc]") {
  const char *build = std::getenv("OPENATC_BUILD_DIR");
  std::string dir = std::string(build ? build : ".") + "/tests/rt_tmp_" + std::to_string(getpid());
  mkdir(dir.c_str(), 0700);
  const char *old = std::getenv("TMPDIR");
  std::string saved = old ? old : "";
  const char *header = "#define V 1\n";
  const char *name = "v.h";
  // TMPDIR decides where the in-memory headers go: a folder that does not exist fails the compile.
  // (Listing /tmp instead would race with the other tests that run in parallel.)
  setenv("TMPDIR", (dir + "/missing").c_str(), 1);
  aclrtcProg bad = nullptr;
  REQUIRE(aclrtcCreateProg(&bad, "#include \"v.h\"\nint x = V;\n", "h", 1, &header, &name) == ACL_SUCCESS);
  CHECK(aclrtcCompileProg(bad, 0, nullptr) != ACL_SUCCESS);
  CHECK(std::string(aclGetRecentErrMsg()).find("cannot create a folder for in-memory headers") != std::string::npos);
  REQUIRE(aclrtcDestroyProg(&bad) == ACL_SUCCESS);

  setenv("TMPDIR", dir.c_str(), 1);
  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(&prog, "#include \"v.h\"\nint x = V;\n", "h", 1, &header, &name) == ACL_SUCCESS);
  REQUIRE(aclrtcCompileProg(prog, 0, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);
  auto r = Compile(rttest::kAddKernel, {"-DT=float"});
  REQUIRE(r.rc == ACL_SUCCESS);

  REQUIRE(rttest::ListDir(dir).empty());
  if (old) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  rmdir(dir.c_str());
}

TEST_CASE("RTC bad inputs and unsupported calls give errors with text", "[rt][rtc]") {
  aclrtcProg prog = nullptr;
  REQUIRE(aclrtcCreateProg(nullptr, "x", "n", 0, nullptr, nullptr) == ACL_ERROR_RTC_INVALID_INPUT);
  REQUIRE(std::string(aclGetRecentErrMsg()) == "aclrtcCreateProg: prog is a null pointer.");
  REQUIRE(aclrtcCreateProg(&prog, nullptr, "n", 0, nullptr, nullptr) == ACL_ERROR_RTC_INVALID_INPUT);
  REQUIRE(std::string(aclGetRecentErrMsg()) == "aclrtcCreateProg: src is a null pointer.");
  REQUIRE(aclrtcCompileProg(nullptr, 0, nullptr) == ACL_ERROR_RTC_INVALID_INPUT);
  REQUIRE(std::string(aclGetRecentErrMsg()) == "aclrtcCompileProg: prog is null. Pass a program from aclrtcCreateProg.");
  int not_a_prog = 0;
  REQUIRE(aclrtcCompileProg(&not_a_prog, 0, nullptr) == ACL_ERROR_RTC_INVALID_PROG);
  REQUIRE(aclrtcCreateProg(&prog, "int x;", "n", 0, nullptr, nullptr) == ACL_SUCCESS);
  REQUIRE(aclrtcAddNameExpr(prog, "<int>") == ACL_ERROR_RTC_NAME_EXPR_NOT_VALID);
  REQUIRE(std::string(aclGetRecentErrMsg()).rfind(
              "aclrtcAddNameExpr: name expression '<int>' does not start with a kernel name.", 0) == 0);
  REQUIRE(aclrtcAddNameExpr(prog, "k<int>") == ACL_SUCCESS);
  const char *lowered = nullptr;
  REQUIRE(aclrtcGetLoweredName(prog, "k<int>", &lowered) == ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  REQUIRE(std::string(aclGetRecentErrMsg()).rfind("aclrtcGetLoweredName: program 'n' is not compiled yet.", 0) == 0);
  REQUIRE(aclrtcGetBinData(prog, nullptr) == ACL_ERROR_RTC_INVALID_INPUT);
  size_t log_size = 0;
  REQUIRE(aclrtcGetCompileLogSize(prog, &log_size) == ACL_SUCCESS);
  REQUIRE(log_size == 1);
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_SUCCESS);
  REQUIRE(aclrtcDestroyProg(&prog) == ACL_ERROR_RTC_INVALID_INPUT);
  REQUIRE(aclrtcDestroyProg(nullptr) == ACL_ERROR_RTC_INVALID_INPUT);
}

TEST_CASE("RTC reports a missing compiler", "[rt][rtc]") {
  setenv("OPENATC_HOST_CXX", "/nonexistent/clang++", 1);
  auto r = Compile("int x;");
  unsetenv("OPENATC_HOST_CXX");
  REQUIRE(r.rc == ACL_ERROR_RTC_FAILURE);
  REQUIRE(Contains(r.error, "cannot run the host compiler '/nonexistent/clang++': No such file or directory. Install clang"));
}
