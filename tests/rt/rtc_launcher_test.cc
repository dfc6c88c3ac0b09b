// libacl_rtc with a compiler launcher ($OPENATC_RTC_LAUNCHER): the launcher runs the compile
// step with a cacheable command line (relative paths in a private working folder), the result is
// a loadable, reproducible ELF, no file is left behind, and a launcher that cannot run is an
// error naming the variable.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "acl/acl_rtc_error.h"
#include "rtc_test_util.h"

namespace {

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

std::string ReadText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/** A private folder under the build tree, with a launcher script that logs its argv (one line
 *  per call, words separated by '|') and then runs it. */
struct LauncherFixture {
  std::string dir, tmp, log, script;
  LauncherFixture() {
    const char *build = std::getenv("OPENATC_BUILD_DIR");
    dir = std::string(build ? build : ".") + "/tests/rtc_launcher_" + std::to_string(getpid());
    tmp = dir + "/tmp";
    log = dir + "/calls.log";
    script = dir + "/fake-launcher";
    mkdir(dir.c_str(), 0700);
    mkdir(tmp.c_str(), 0700);
    std::ofstream s(script);
    s << "#!/bin/sh\n{ printf '%s' \"$(pwd)\"; for a in \"$@\"; do printf '|%s' \"$a\"; done; echo; } >> '" << log
      << "'\nexec \"$@\"\n";
    s.close();
    chmod(script.c_str(), 0755);
    setenv("TMPDIR", tmp.c_str(), 1);
  }
  ~LauncherFixture() {
    unsetenv("OPENATC_RTC_LAUNCHER");
    unsetenv("TMPDIR");
    unlink(log.c_str());
    unlink(script.c_str());
    rmdir(tmp.c_str());
    rmdir(dir.c_str());
  }
};

}  // namespace

TEST_CASE("RTC runs the compile step through OPENATC_RTC_LAUNCHER with relative paths", "[rt][rtc]") {
  LauncherFixture f;
  setenv("OPENATC_RTC_LAUNCHER", f.script.c_str(), 1);
  auto a = rttest::Compile(rttest::kAddKernel, {"-DT=float", "--npu-arch=dav-2201"});
  INFO(a.log << a.error);
  REQUIRE(a.rc == ACL_SUCCESS);
  REQUIRE(a.binary.size() > 64);
  REQUIRE(std::string(a.binary.begin(), a.binary.begin() + 4) == "\x7f" "ELF");
  auto b = rttest::Compile(rttest::kAddKernel, {"-DT=float", "--npu-arch=dav-2201"});
  REQUIRE(b.rc == ACL_SUCCESS);
  REQUIRE(a.binary == b.binary);  // the random working folder does not reach the output

  const std::string calls = ReadText(f.log);
  INFO(calls);
  // Two compiles, one launcher call each (the link step runs without the launcher).
  std::istringstream lines(calls);
  std::string first, second, extra;
  REQUIRE(std::getline(lines, first));
  REQUIRE(std::getline(lines, second));
  REQUIRE_FALSE(std::getline(lines, extra));
  // Same command line both times apart from the working folder (what makes it cacheable).
  REQUIRE(first.substr(first.find('|')) == second.substr(second.find('|')));
  REQUIRE(Contains(first, "|-c|"));
  REQUIRE(Contains(first, "|-o|openatc_rtc_kernel.o|openatc_rtc_kernel.cc"));
  REQUIRE(Contains(first, "|-DT=float"));
  REQUIRE_FALSE(Contains(first.substr(first.find('|')), f.tmp));
  REQUIRE(first.rfind(f.tmp + "/openatc-rtc-", 0) == 0);  // run in a private folder under $TMPDIR
  REQUIRE(rttest::ListDir(f.tmp).empty());                 // removed afterwards
}

TEST_CASE("RTC with a launcher reports compile errors with the compiler's log", "[rt][rtc]") {
  LauncherFixture f;
  setenv("OPENATC_RTC_LAUNCHER", f.script.c_str(), 1);
  auto r = rttest::Compile("int f() { return undeclared_name; }\n");
  REQUIRE(r.rc == ACL_ERROR_RTC_COMPILATION);
  REQUIRE(Contains(r.log, "undeclared_name"));
  REQUIRE(rttest::ListDir(f.tmp).empty());
}

TEST_CASE("RTC refuses a launcher that cannot run, naming OPENATC_RTC_LAUNCHER", "[rt][rtc]") {
  LauncherFixture f;
  setenv("OPENATC_RTC_LAUNCHER", "/nonexistent/ccache --flag", 1);
  auto r = rttest::Compile("int x;");
  REQUIRE(r.rc == ACL_ERROR_RTC_FAILURE);
  REQUIRE(Contains(r.error, "cannot run the compiler launcher '/nonexistent/ccache': No such file or directory. "
                            "Check OPENATC_RTC_LAUNCHER ('/nonexistent/ccache --flag')"));
  REQUIRE(rttest::ListDir(f.tmp).empty());
}
