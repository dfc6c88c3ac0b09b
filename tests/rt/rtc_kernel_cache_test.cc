// The host RTC's op compile cache (device/rtc/src/kernel_cache.h), driven in-process through
// openatc::rt::SetKernelCache and aclrtcCompileProg: what hits, what misses, corrupt entries,
// force, the debug bypass, the launcher (not in the key, not run on a hit), aging, and two
// threads compiling one key.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_rtc_error.h"
#include "openatc/rt/runtime.h"
#include "rtc_test_util.h"

namespace {

using Mode = openatc::rt::KernelCacheConfig::Mode;

bool StartsWith(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }

size_t CountLines(const std::string &path) {
  std::ifstream in(path);
  size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

/** A cache folder, the info lines the cache reports, and a launcher script that counts compiles. */
struct CacheFixture {
  std::string dir, soc_dir, calls, launcher;
  std::mutex mutex;
  std::vector<std::string> lines, warnings;

  CacheFixture() {
    const char *build = std::getenv("OPENATC_BUILD_DIR");
    dir = std::string(build ? build : ".") + "/tests/rtc_kernel_cache_" + std::to_string(getpid());
    std::system(("rm -rf '" + dir + "'").c_str());
    mkdir(dir.c_str(), 0700);
    soc_dir = dir + "/cache/kernel_cache/host";
    calls = dir + "/calls.log";
    launcher = dir + "/count-launcher";
    std::ofstream s(launcher);
    s << "#!/bin/sh\necho x >> '" << calls << "'\nexec \"$@\"\n";
    s.close();
    chmod(launcher.c_str(), 0755);
    setenv("OPENATC_RTC_LAUNCHER", launcher.c_str(), 1);
    Set(Mode::kEnable);
  }
  ~CacheFixture() {
    openatc::rt::SetKernelCache({});
    unsetenv("OPENATC_RTC_LAUNCHER");
    std::system(("rm -rf '" + dir + "'").c_str());
  }
  void Set(Mode mode, int64_t max_mb = 500, const std::string &bypass = "") {
    openatc::rt::KernelCacheConfig c;
    c.mode = mode;
    c.dir = dir + "/cache";
    c.bypass_reason = bypass;
    c.max_size_mb = max_mb;
    c.info = [this](const std::string &l) {
      std::lock_guard<std::mutex> lock(mutex);
      lines.push_back(l);
    };
    c.warning = [this](const std::string &l) {
      std::lock_guard<std::mutex> lock(mutex);
      warnings.push_back(l);
    };
    openatc::rt::SetKernelCache(c);
  }
  size_t Compiles() const { return CountLines(calls); }
  /** The lines reported since the last call. */
  std::vector<std::string> Take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::string> out;
    out.swap(lines);
    return out;
  }
  /** The key of a "compile cache <what> <key>..." line. */
  static std::string KeyOf(const std::string &line) {
    std::istringstream words(line);
    std::string w1, w2, w3, key;
    words >> w1 >> w2 >> w3 >> key;
    return key;
  }
};

rttest::Compiled Add(const std::string &type, const std::vector<std::string> &extra = {}) {
  std::vector<std::string> options = {"-DT=" + type};
  options.insert(options.end(), extra.begin(), extra.end());
  return rttest::Compile(rttest::kAddKernel, options, "add_custom");
}

}  // namespace

TEST_CASE("kernel cache: a cold compile stores, a warm one hits without the compiler or launcher", "[rt][rtc][cache]") {
  CacheFixture f;
  auto cold = Add("float");
  REQUIRE(cold.rc == ACL_SUCCESS);
  auto l = f.Take();
  REQUIRE(l.size() == 2);
  REQUIRE(StartsWith(l[0], "compile cache miss add_custom_"));
  const std::string key = CacheFixture::KeyOf(l[0]);
  REQUIRE(key.size() == std::string("add_custom_").size() + 32);
  REQUIRE(l[1] == "compile cache stored " + key);
  REQUIRE(f.Compiles() == 1);
  REQUIRE(rttest::ListDir(f.soc_dir) == std::set<std::string>{key + ".bin", key + ".json", key + ".lock"});

  auto warm = Add("float");
  REQUIRE(warm.rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"compile cache hit " + key});
  REQUIRE(f.Compiles() == 1);  // the launcher did not run
  REQUIRE(warm.binary == cold.binary);

  // The launcher is not part of the key: without it, the same entry hits.
  unsetenv("OPENATC_RTC_LAUNCHER");
  auto direct = Add("float");
  REQUIRE(direct.rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"compile cache hit " + key});
  REQUIRE(f.warnings.empty());
}

TEST_CASE("kernel cache: a changed source, option, option order or name misses", "[rt][rtc][cache]") {
  CacheFixture f;
  REQUIRE(Add("float", {"-DEXTRA=1", "-O2"}).rc == ACL_SUCCESS);
  const std::string base = CacheFixture::KeyOf(f.Take()[0]);
  std::set<std::string> keys = {base};
  auto miss = [&](const rttest::Compiled &c) {
    REQUIRE(c.rc == ACL_SUCCESS);
    auto l = f.Take();
    REQUIRE(l.size() == 2);
    REQUIRE(StartsWith(l[0], "compile cache miss "));
    REQUIRE(keys.insert(CacheFixture::KeyOf(l[0])).second);  // a key of its own
  };
  miss(Add("int32_t", {"-DEXTRA=1", "-O2"}));                                // option value
  miss(Add("float", {"-O2", "-DEXTRA=1"}));                                  // option order
  miss(Add("float", {"-DEXTRA=1", "-O2", "--npu-arch=dav-2201"}));           // target chip
  miss(rttest::Compile(std::string(rttest::kAddKernel) + "// v2\n", {"-DT=float", "-DEXTRA=1", "-O2"}, "add_custom"));
  miss(rttest::Compile(rttest::kAddKernel, {"-DT=float", "-DEXTRA=1", "-O2"}, "add_custom2"));  // program name
  REQUIRE(f.Compiles() == 6);
  REQUIRE(Add("float", {"-DEXTRA=1", "-O2"}).rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"compile cache hit " + base});
}

TEST_CASE("kernel cache: a corrupt entry is a miss and is replaced", "[rt][rtc][cache]") {
  CacheFixture f;
  auto good = Add("float");
  REQUIRE(good.rc == ACL_SUCCESS);
  const std::string key = CacheFixture::KeyOf(f.Take()[0]);
  const std::string bin = f.soc_dir + "/" + key + ".bin", json = f.soc_dir + "/" + key + ".json";
  SECTION("a flipped byte in the binary") {
    std::fstream io(bin, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(100);
    io.put(static_cast<char>(good.binary[100] ^ 0x5a));
  }
  SECTION("a truncated .json") { REQUIRE(truncate(json.c_str(), 10) == 0); }
  SECTION("a missing .bin") { REQUIRE(unlink(bin.c_str()) == 0); }
  auto again = Add("float");
  REQUIRE(again.rc == ACL_SUCCESS);
  REQUIRE(again.binary == good.binary);  // never the corrupt bytes
  auto l = f.Take();
  REQUIRE(l.size() == 2);
  REQUIRE(StartsWith(l[0], "compile cache miss " + key + " (the entry was corrupt: "));
  REQUIRE(l[1] == "compile cache stored " + key);
  REQUIRE(f.warnings.size() == 1);  // a corrupt entry is also a warning
  REQUIRE(StartsWith(f.warnings[0], "the op compile cache entry '" + f.soc_dir + "/" + key + "' is corrupt ("));
  REQUIRE(f.Compiles() == 2);
  REQUIRE(Add("float").rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"compile cache hit " + key});
}

TEST_CASE("kernel cache: force recompiles and stores; -g and debug options bypass; disable writes nothing",
          "[rt][rtc][cache]") {
  CacheFixture f;
  REQUIRE(Add("float").rc == ACL_SUCCESS);
  const std::string key = CacheFixture::KeyOf(f.Take()[0]);
  f.Set(Mode::kForce);
  REQUIRE(Add("float").rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"compile cache miss " + key + " (force)", "compile cache stored " + key});
  REQUIRE(f.Compiles() == 2);

  f.Set(Mode::kEnable);
  REQUIRE(Add("float", {"-g"}).rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"kernel 'add_custom': compile cache bypassed (the option -g)"});
  f.Set(Mode::kEnable, 500, "--op_debug_level=2");
  REQUIRE(Add("float").rc == ACL_SUCCESS);
  REQUIRE(f.Take() == std::vector<std::string>{"kernel 'add_custom': compile cache bypassed (--op_debug_level=2)"});
  REQUIRE(f.Compiles() == 4);
  REQUIRE(rttest::ListDir(f.soc_dir).size() == 3);  // still only the first key's entry

  std::system(("rm -rf '" + f.dir + "/cache'").c_str());
  f.Set(Mode::kDisable);
  REQUIRE(Add("float").rc == ACL_SUCCESS);
  REQUIRE(f.Take().empty());
  REQUIRE(rttest::ListDir(f.dir + "/cache").empty());
}

TEST_CASE("kernel cache: over the size limit, entries unused for 30 minutes age out to the ratio", "[rt][rtc][cache]") {
  CacheFixture f;
  REQUIRE(mkdir((f.dir + "/cache").c_str(), 0755) == 0);
  REQUIRE(mkdir((f.dir + "/cache/kernel_cache").c_str(), 0755) == 0);
  REQUIRE(mkdir(f.soc_dir.c_str(), 0755) == 0);
  auto fake = [&](const std::string &stem, size_t bytes, time_t age) {
    for (const char *ext : {".bin", ".json"}) {
      const std::string path = f.soc_dir + "/" + stem + ext;
      std::ofstream(path) << std::string(std::string(ext) == ".bin" ? bytes : 10, 'x');
      struct utimbuf t = {time(nullptr) - age, time(nullptr) - age};
      REQUIRE(utime(path.c_str(), &t) == 0);
    }
  };
  fake("oldest_0", 300 << 10, 7200);   // 300 KiB, 2 h unused: goes first
  fake("older_1", 300 << 10, 3600);    // 300 KiB, 1 h unused: goes second
  fake("old_2", 300 << 10, 2400);      // 300 KiB, 40 min unused: goes third
  fake("recent_3", 600 << 10, 60);     // 600 KiB, used a minute ago: never aged
  SECTION("no aging with -1") {
    f.Set(Mode::kEnable, -1);
    REQUIRE(Add("float").rc == ACL_SUCCESS);
    REQUIRE(rttest::ListDir(f.soc_dir).size() == 8 + 3);
  }
  SECTION("1 MB limit, 50 %") {
    f.Set(Mode::kEnable, 1);
    REQUIRE(Add("float").rc == ACL_SUCCESS);
    const std::string key = CacheFixture::KeyOf(f.Take()[0]);
    // 1.5 MiB + the new entry > 1 MiB: entries unused for 30 minutes or more are deleted, least
    // recently used first, while more than 50 % of 1 MiB is held. After all three old ones, 600 KiB
    // + the new entry are still over 512 KiB, but the rest was used within 30 minutes: kept.
    auto left = rttest::ListDir(f.soc_dir);
    CHECK_FALSE(left.count("oldest_0.bin"));
    CHECK_FALSE(left.count("older_1.bin"));
    CHECK_FALSE(left.count("old_2.bin"));
    CHECK(left.count("recent_3.bin"));
    CHECK(left.count("recent_3.json"));
    CHECK(left.count(key + ".bin"));
    CHECK(left.count(key + ".json"));
  }
}

TEST_CASE("kernel cache: two threads compiling one new kernel compile it once", "[rt][rtc][cache]") {
  CacheFixture f;
  rttest::Compiled a, b;
  std::thread t1([&] { a = Add("int16_t"); });
  std::thread t2([&] { b = Add("int16_t"); });
  t1.join();
  t2.join();
  REQUIRE(a.rc == ACL_SUCCESS);
  REQUIRE(b.rc == ACL_SUCCESS);
  REQUIRE(a.binary == b.binary);
  REQUIRE(f.Compiles() == 1);
  auto l = f.Take();
  REQUIRE(l.size() == 3);  // miss + stored from one thread, hit from the other
}

TEST_CASE("kernel cache: a folder that cannot be created is warned about and the compile goes on", "[rt][rtc][cache]") {
  CacheFixture f;
  std::ofstream(f.dir + "/cache") << "a file, not a folder";
  auto r = Add("float");
  REQUIRE(r.rc == ACL_SUCCESS);
  REQUIRE(f.warnings.size() == 1);
  REQUIRE(StartsWith(f.warnings[0], "cannot create the op compile cache folder '" + f.soc_dir + "' (Not a directory)"));
  REQUIRE(f.Compiles() == 1);
}

TEST_CASE("kernel cache: ccache works as OPENATC_RTC_LAUNCHER, and a cache hit does not run it", "[rt][rtc][cache]") {
  if (std::system("command -v ccache >/dev/null 2>&1") != 0) {
    WARN("ccache is not installed: skipped");
    return;
  }
  CacheFixture f;
  const std::string ccache_dir = f.dir + "/ccache";
  setenv("CCACHE_DIR", ccache_dir.c_str(), 1);
  setenv("OPENATC_RTC_LAUNCHER", "ccache", 1);
  auto stat = [&](const std::string &name) {
    const std::string cmd = "ccache --print-stats | awk '$1 == \"" + name + "\" { print $2 }'";
    std::string out;
    if (FILE *p = popen(cmd.c_str(), "r")) {
      char buf[64];
      while (fgets(buf, sizeof buf, p)) out += buf;
      pclose(p);
    }
    return std::atoi(out.c_str());
  };
  // Our cache off: ccache itself caches the compile step (the second is a ccache hit).
  f.Set(Mode::kDisable);
  auto a = Add("double");
  auto b = Add("double");
  REQUIRE(a.rc == ACL_SUCCESS);
  REQUIRE(b.rc == ACL_SUCCESS);
  REQUIRE(a.binary == b.binary);
  REQUIRE(stat("direct_cache_hit") + stat("preprocessed_cache_hit") == 1);
  const int calls = stat("cache_miss") + stat("direct_cache_hit") + stat("preprocessed_cache_hit");
  // Our cache on: the cold compile goes through ccache (a ccache hit), the warm one runs nothing.
  f.Set(Mode::kEnable);
  REQUIRE(Add("double").rc == ACL_SUCCESS);
  REQUIRE(Add("double").rc == ACL_SUCCESS);
  const auto l = f.Take();
  REQUIRE(l.size() == 3);
  REQUIRE(StartsWith(l[2], "compile cache hit "));
  REQUIRE(stat("cache_miss") + stat("direct_cache_hit") + stat("preprocessed_cache_hit") == calls + 1);
  unsetenv("CCACHE_DIR");
}
