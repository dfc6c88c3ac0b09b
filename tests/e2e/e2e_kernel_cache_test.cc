// atc --op_compiler_cache_mode / --op_compiler_cache_dir on the AxpyCustom test deliverable, whose
// Compile builds one kernel per (dtype, element count) with the RTC: cold builds store, warm
// builds hit (the --log info lines and a launcher script counting compiler runs), changed
// kernels miss, a corrupt entry is replaced, force recompiles, debug options bypass, the folder's
// precedence (flag > ASCEND_CACHE_PATH > $HOME/atc_data), and two atc processes on one folder.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <thread>

#include "e2e_util.h"

using namespace openatc::testing;

namespace {

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

/** The "compile cache ..." lines of atc's stderr, without the "atc: info: " prefix. */
std::vector<std::string> CacheLines(const std::string &err) {
  std::vector<std::string> out;
  const std::string prefix = "atc: info: ";
  size_t start = 0;
  while (start < err.size()) {
    size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(start, end - start);
    if (line.rfind(prefix, 0) == 0 && Contains(line, "compile cache ")) out.push_back(line.substr(prefix.size()));
    start = end + 1;
  }
  return out;
}

std::string KeyOf(const std::string &line) { return line.substr(line.rfind(' ') + 1); }

struct Fixture {
  std::string dir = MakeTempDir();
  std::string cache = dir + "/cache";
  std::string calls = dir + "/calls.log";
  std::string launcher = dir + "/count-launcher";
  Fixture() {
    WriteBytes(launcher, "#!/bin/sh\necho x >> '" + calls + "'\nexec \"$@\"\n");
    chmod(launcher.c_str(), 0755);
  }
  ~Fixture() { RemoveTree(dir); }

  size_t Compiles() const {
    std::ifstream in(calls);
    size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
  }
  /** The graph file of Data x1, x2 -> AxpyCustom(alpha), named by its content. */
  std::string Graph(const std::string &dtype, const std::vector<int64_t> &dims, float alpha) {
    std::string path = dir + "/" + dtype;
    for (int64_t d : dims) path += "_" + std::to_string(d);
    path += "_a" + std::to_string(static_cast<int>(alpha * 1000)) + ".json";
    WriteBytes(path, AxpyGraphJson(dtype, dims, alpha));
    return path;
  }
  /** atc on `graph` with the cache enabled on `cache` (unless `flags` say otherwise); no checks. */
  CommandResult Run(const std::string &out, const std::string &graph, std::vector<std::string> flags,
                    std::map<std::string, std::string> env) const {
    std::vector<std::string> argv = {BuildPath("bin/atc"), "--model", graph, "--soc_version", "host",
                                     "--output", dir + "/" + out, "--log", "info"};
    bool has_dir = false;
    for (const auto &fl : flags) has_dir = has_dir || fl.rfind("--op_compiler_cache_dir", 0) == 0;
    if (!has_dir && !env.count("ASCEND_CACHE_PATH") && !env.count("HOME")) flags.push_back("--op_compiler_cache_dir=" + cache);
    argv.insert(argv.end(), flags.begin(), flags.end());
    env["ASCEND_CUSTOM_OPP_PATH"] = AxpyOpp();
    env["OPENATC_RTC_LAUNCHER"] = launcher;
    return RunCommand(argv, env, {"ASCEND_CACHE_PATH", "ASCEND_MAX_OP_CACHE_SIZE", "ASCEND_REMAIN_CACHE_SIZE_RATIO"});
  }
  /** Run on an AxpyCustom graph; atc must succeed. */
  CommandResult Atc(const std::string &out, const std::string &dtype, const std::vector<int64_t> &dims,
                    std::vector<std::string> flags = {"--op_compiler_cache_mode=enable"},
                    std::map<std::string, std::string> env = {}, float alpha = 2.0f) {
    auto r = Run(out, Graph(dtype, dims, alpha), flags, env);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return r;
  }
};

}  // namespace

TEST_CASE("atc op compile cache: cold stores, warm hits without compiling, same OM", "[e2e][cache]") {
  Fixture f;
  auto cold = f.Atc("cold", "DT_FLOAT", {2, 5});
  auto l = CacheLines(cold.err);
  REQUIRE(l.size() == 2);
  REQUIRE(l[0].rfind("compile cache miss axpy_", 0) == 0);
  const std::string key = KeyOf(l[0]);
  REQUIRE(l[1] == "compile cache stored " + key);
  REQUIRE(f.Compiles() == 1);
  struct stat st {};
  REQUIRE(stat((f.cache + "/kernel_cache/host/" + key + ".bin").c_str(), &st) == 0);
  REQUIRE(stat((f.cache + "/kernel_cache/host/" + key + ".json").c_str(), &st) == 0);
  REQUIRE_FALSE(Contains(cold.err, "op_compiler_cache"));  // no "has no effect" warning any more

  auto warm = f.Atc("warm", "DT_FLOAT", {2, 5});
  REQUIRE(CacheLines(warm.err) == std::vector<std::string>{"compile cache hit " + key});
  REQUIRE(f.Compiles() == 1);
  REQUIRE(ReadText(f.dir + "/warm.om") == ReadText(f.dir + "/cold.om"));

  // An attribute the kernel does not depend on (alpha is a launch argument) hits too; a new
  // element count or dtype is another kernel.
  auto alpha = f.Atc("alpha", "DT_FLOAT", {2, 5}, {"--op_compiler_cache_mode=enable"}, {}, 3.0f);
  REQUIRE(CacheLines(alpha.err) == std::vector<std::string>{"compile cache hit " + key});
  for (auto [dtype, dims] : {std::pair<std::string, std::vector<int64_t>>{"DT_FLOAT", {2, 6}}, {"DT_INT32", {2, 5}}}) {
    auto other = f.Atc("other", dtype, dims);
    auto o = CacheLines(other.err);
    REQUIRE(o.size() == 2);
    REQUIRE(o[0].rfind("compile cache miss axpy_", 0) == 0);
    REQUIRE(KeyOf(o[0]) != key);
  }
  REQUIRE(f.Compiles() == 3);

  // Without the flag (ATC's default: disable) the cache is neither read nor reported.
  auto off = f.Atc("off", "DT_FLOAT", {2, 5}, {});
  REQUIRE(CacheLines(off.err).empty());
  REQUIRE(f.Compiles() == 4);
}

TEST_CASE("atc op compile cache: corrupt entry replaced, force recompiles, debug bypasses", "[e2e][cache]") {
  Fixture f;
  const std::string key = KeyOf(CacheLines(f.Atc("a", "DT_FLOAT", {7}).err)[0]);
  const std::string bin = f.cache + "/kernel_cache/host/" + key + ".bin";
  std::string bytes = ReadText(bin);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x01);
  WriteBytes(bin, bytes);
  auto fixed = CacheLines(f.Atc("b", "DT_FLOAT", {7}).err);
  REQUIRE(fixed.size() == 2);
  REQUIRE(fixed[0] == "compile cache miss " + key +
                          " (the entry was corrupt: its binary does not match the size and hash its .json records; "
                          "it is replaced)");
  REQUIRE(fixed[1] == "compile cache stored " + key);
  REQUIRE(ReadText(f.dir + "/b.om") == ReadText(f.dir + "/a.om"));
  REQUIRE(f.Compiles() == 2);

  auto force = CacheLines(f.Atc("c", "DT_FLOAT", {7}, {"--op_compiler_cache_mode=force"}).err);
  REQUIRE(force == std::vector<std::string>{"compile cache miss " + key + " (force)", "compile cache stored " + key});
  REQUIRE(f.Compiles() == 3);

  auto debug = f.Atc("d", "DT_FLOAT", {7}, {"--op_compiler_cache_mode=enable", "--op_debug_level=1"});
  REQUIRE(CacheLines(debug.err) == std::vector<std::string>{"kernel 'axpy': compile cache bypassed (--op_debug_level=1)"});
  REQUIRE(f.Compiles() == 4);
}

TEST_CASE("atc op compile cache folder: flag, else ASCEND_CACHE_PATH, else $HOME/atc_data", "[e2e][cache]") {
  Fixture f;
  struct stat st {};
  f.Atc("home", "DT_FLOAT", {3}, {"--op_compiler_cache_mode=enable"}, {{"HOME", f.dir + "/home"}});
  REQUIRE(stat((f.dir + "/home/atc_data/kernel_cache/host").c_str(), &st) == 0);
  f.Atc("env", "DT_FLOAT", {3}, {"--op_compiler_cache_mode=enable"},
        {{"HOME", f.dir + "/home"}, {"ASCEND_CACHE_PATH", f.dir + "/env"}});
  REQUIRE(stat((f.dir + "/env/kernel_cache/host").c_str(), &st) == 0);
  auto flag = f.Atc("flag", "DT_FLOAT", {3}, {"--op_compiler_cache_mode=enable", "--op_compiler_cache_dir=" + f.dir + "/flag"},
                    {{"ASCEND_CACHE_PATH", f.dir + "/env"}});
  REQUIRE(stat((f.dir + "/flag/kernel_cache/host").c_str(), &st) == 0);
  REQUIRE(CacheLines(flag.err)[0].rfind("compile cache miss ", 0) == 0);  // a fresh folder

  auto bad = f.Atc("bad", "DT_FLOAT", {3}, {"--op_compiler_cache_mode=enable", "--op_compiler_cache_dir=" + f.dir + "/a b"});
  REQUIRE(Contains(bad.err, "atc: warning: --op_compiler_cache_dir '" + f.dir +
                                "/a b' has characters other than letters, digits, '_', '-', '.' and '/': no op compile "
                                "cache is used."));
  REQUIRE(CacheLines(bad.err).empty());

  REQUIRE(mkdir(f.cache.c_str(), 0755) == 0);
  WriteBytes(f.cache + "/op_cache.ini", "[op_compiler_cache]\nmax_op_cache_size=lots\n");
  auto ini = f.Atc("ini", "DT_FLOAT", {3});
  REQUIRE(Contains(ini.err, "atc: warning: '" + f.cache + "/op_cache.ini': max_op_cache_size=lots is not an integer in "
                                                          "1..1099511627776 or -1; it is ignored\n"));
}

TEST_CASE("atc op compile cache: two atc processes on one folder compile a kernel once", "[e2e][cache]") {
  Fixture f;
  const std::string graph = f.Graph("DT_FLOAT", {4, 9}, 2.0f);
  const std::vector<std::string> flags = {"--op_compiler_cache_mode=enable"};
  CommandResult a, b;
  std::thread t1([&] { a = f.Run("p1", graph, flags, {}); });
  std::thread t2([&] { b = f.Run("p2", graph, flags, {}); });
  t1.join();
  t2.join();
  INFO(a.err << b.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  REQUIRE(f.Compiles() == 1);  // the second waited on the key's lock, then hit
  const auto la = CacheLines(a.err), lb = CacheLines(b.err);
  REQUIRE(la.size() + lb.size() == 3);
  REQUIRE(ReadText(f.dir + "/p1.om") == ReadText(f.dir + "/p2.om"));
}
