// atc's op compile cache for the built-in ops' pre-packed weights (atc/compiler/src/passes/
// weight_cache.h) on x[1, 8, 6, 6] -> c1 (Conv, 16 ch, 3x3, pad 1) -> r (Relu) -> c2 (Conv, 16 ch,
// 3x3) -> out, whose two Convs (c1 fused with r as 'r') get packed copies of W: a cold compile
// stores one entry per Conv, a warm one hits and writes the same OM bytes as the cold one and as
// a compile without the cache; a changed weight or attribute misses only for its node; a corrupt
// entry (bytes changed, or a .bin that is no entry although its hash matches) is warned about,
// missed and replaced; force rebuilds; disable creates nothing and debug options bypass; two atc
// processes on one folder both succeed with identical OMs; aging counts weight entries with
// kernel entries.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <utime.h>

#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "e2e_util.h"
#include "openatc/common/op_cache.h"
#include "openatc/om/model.h"

using namespace openatc::testing;

namespace {

bool Contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string Base64(const std::vector<float> &v) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const auto *p = reinterpret_cast<const unsigned char *>(v.data());
  const size_t n = v.size() * sizeof(float);
  std::string out;
  for (size_t i = 0; i < n; i += 3) {
    const unsigned b0 = p[i], b1 = i + 1 < n ? p[i + 1] : 0, b2 = i + 2 < n ? p[i + 2] : 0;
    out += kAlphabet[b0 >> 2];
    out += kAlphabet[((b0 & 3) << 4) | (b1 >> 4)];
    out += i + 1 < n ? kAlphabet[((b1 & 15) << 2) | (b2 >> 6)] : '=';
    out += i + 2 < n ? kAlphabet[b2 & 63] : '=';
  }
  return out;
}

std::vector<float> Pattern(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 37 + seed * 11) % 101) - 50) / 64.0f;
  return v;
}

struct Net {
  std::vector<float> w1 = Pattern(16 * 8 * 9, 1), b1 = Pattern(16, 2), w2 = Pattern(16 * 16 * 9, 3), b2 = Pattern(16, 4);
  std::string c2_pads = "1, 1, 1, 1";

  std::string Json() const {
    auto konst = [](const std::string &name, const std::vector<int64_t> &dims, const std::vector<float> &v) {
      const std::string d = DescJson("DT_FLOAT", dims);
      return "{ \"name\": \"" + name + "\", \"type\": \"Const\", \"attr\": { \"value\": { \"t\": { \"desc\": " + d +
             ", \"data\": \"" + Base64(v) + "\" } } }, \"outputDesc\": [" + d + "] }";
    };
    auto conv = [](const std::string &name, const std::string &in, const std::string &pads) {
      return "{ \"name\": \"" + name + "\", \"type\": \"Conv\", \"input\": [\"" + in + ":0\", \"" + name + "_W:0\", \"" +
             name + "_B:0\"], \"attr\": { \"pads\": { \"list\": { \"i\": [" + pads +
             "] } }, \"kernel_shape\": { \"list\": { \"i\": [3, 3] } } } }";
    };
    return "{ \"name\": \"g\", \"graph\": [ { \"name\": \"g\", \"output\": [\"c2:0\"], \"op\": [" +
           DataOpJson("x", 0, DescJson("DT_FLOAT", {1, 8, 6, 6})) + ", " + konst("c1_W", {16, 8, 3, 3}, w1) + ", " +
           konst("c1_B", {16}, b1) + ", " + konst("c2_W", {16, 16, 3, 3}, w2) + ", " + konst("c2_B", {16}, b2) + ", " +
           conv("c1", "x", "1, 1, 1, 1") + ", { \"name\": \"r\", \"type\": \"Relu\", \"input\": [\"c1:0\"] }, " +
           conv("c2", "r", c2_pads) + " ] } ] }";
  }
};

/** The "weight cache ..." info lines of atc's stderr, without the "atc: info: " prefix. */
std::vector<std::string> CacheLines(const std::string &err) {
  std::vector<std::string> out;
  const std::string prefix = "atc: info: weight cache ";
  size_t start = 0;
  while (start < err.size()) {
    size_t end = err.find('\n', start);
    if (end == std::string::npos) end = err.size();
    const std::string line = err.substr(start, end - start);
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(11));
    start = end + 1;
  }
  return out;
}

std::string KeyOf(const std::string &line) {
  const size_t start = line.find("Conv_");
  return line.substr(start, line.find(' ', start) - start);
}

struct Fixture {
  std::string dir = MakeTempDir();
  std::string cache = dir + "/cache";
  std::string folder = cache + "/prepacked_weights/host";
  Fixture() = default;
  ~Fixture() { RemoveTree(dir); }

  std::string Graph(const Net &net, const std::string &name = "g.json") {
    WriteBytes(dir + "/" + name, net.Json());
    return dir + "/" + name;
  }
  CommandResult Run(const std::string &out, const std::string &graph, const std::vector<std::string> &flags,
                    const std::map<std::string, std::string> &env = {}) const {
    std::vector<std::string> argv = {BuildPath("bin/atc"), "--model", graph, "--soc_version", "host",
                                     "--output", dir + "/" + out, "--log", "info"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return RunCommand(argv, env,
                      {"ASCEND_CUSTOM_OPP_PATH", "ASCEND_CACHE_PATH", "ASCEND_MAX_OP_CACHE_SIZE",
                       "ASCEND_REMAIN_CACHE_SIZE_RATIO"});
  }
  /** atc with the cache on `cache` in `mode`; must succeed. */
  CommandResult Atc(const std::string &out, const std::string &graph, const std::string &mode = "enable") {
    auto r = Run(out, graph, {"--op_compiler_cache_mode=" + mode, "--op_compiler_cache_dir=" + cache});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return r;
  }
  std::string Om(const std::string &out) const { return ReadText(dir + "/" + out + ".om"); }
  /** The OM `out` as written with an empty build record (which holds the cache flags). */
  std::vector<uint8_t> OmWithoutRecord(const std::string &out) const {
    openatc::om::Model m = openatc::om::ReadFile(dir + "/" + out + ".om");
    m.build_options.clear();
    return openatc::om::Serialize(m);
  }
};

}  // namespace

TEST_CASE("weight cache: cold stores, warm hits, the OM is the same as without the cache", "[e2e][cache]") {
  Fixture f;
  const std::string graph = f.Graph(Net());
  auto plain = f.Run("plain", graph, {});
  REQUIRE(plain.exit_code == 0);
  REQUIRE(CacheLines(plain.err).empty());
  REQUIRE_FALSE(Exists(f.cache));

  const auto cold = CacheLines(f.Atc("cold", graph).err);
  REQUIRE(cold.size() == 4);
  const std::string k1 = KeyOf(cold[0]), k2 = KeyOf(cold[2]);
  REQUIRE(cold == std::vector<std::string>{"weight cache miss " + k1, "weight cache stored " + k1,
                                           "weight cache miss " + k2, "weight cache stored " + k2});
  REQUIRE(k1 != k2);
  REQUIRE(k1.size() == 5 + 32);
  for (const std::string &k : {k1, k2}) {
    REQUIRE(Exists(f.folder + "/" + k + ".bin"));
    const auto meta = nlohmann::json::parse(ReadText(f.folder + "/" + k + ".json"));
    CHECK(meta["format"] == "openatc-prepacked-weights-1");
    CHECK(meta["key"] == k);
    CHECK(meta["op_type"] == "Conv");
    CHECK(meta["copies"] == 1);
    CHECK(Contains(meta["environment"].get<std::string>(), "isa "));
  }
  REQUIRE(f.OmWithoutRecord("cold") == f.OmWithoutRecord("plain"));

  const auto warm = CacheLines(f.Atc("warm", graph).err);
  REQUIRE(warm == std::vector<std::string>{"weight cache hit " + k1, "weight cache hit " + k2});
  REQUIRE(f.Om("warm") == f.Om("cold"));

  // A changed weight misses for its node only; so does a changed attribute.
  Net w;
  w.w2[5] += 0.5f;
  const auto changed_w = CacheLines(f.Atc("w", f.Graph(w, "w.json")).err);
  REQUIRE(changed_w.size() == 3);
  REQUIRE(changed_w[0] == "weight cache hit " + k1);
  REQUIRE(changed_w[1].rfind("weight cache miss Conv_", 0) == 0);
  REQUIRE(KeyOf(changed_w[1]) != k2);
  Net a;
  a.c2_pads = "0, 0, 0, 0";
  const auto changed_a = CacheLines(f.Atc("a", f.Graph(a, "a.json")).err);
  REQUIRE(changed_a.size() == 3);
  REQUIRE(changed_a[0] == "weight cache hit " + k1);
  REQUIRE(changed_a[1].rfind("weight cache miss Conv_", 0) == 0);
  REQUIRE(KeyOf(changed_a[1]) != k2);
  REQUIRE(KeyOf(changed_a[1]) != KeyOf(changed_w[1]));

  // force: every entry deleted and rebuilt.
  const auto force = CacheLines(f.Atc("force", graph, "force").err);
  REQUIRE(force == std::vector<std::string>{"weight cache miss " + k1 + " (force)", "weight cache stored " + k1,
                                            "weight cache miss " + k2 + " (force)", "weight cache stored " + k2});
  REQUIRE(f.OmWithoutRecord("force") == f.OmWithoutRecord("cold"));  // the record holds the mode
}

TEST_CASE("weight cache: a corrupt entry is warned about, missed and replaced; never a wrong OM", "[e2e][cache]") {
  Fixture f;
  const std::string graph = f.Graph(Net());
  const auto cold = CacheLines(f.Atc("cold", graph).err);
  REQUIRE(cold.size() == 4);
  const std::string k1 = KeyOf(cold[0]), k2 = KeyOf(cold[2]);

  // A changed byte of c1's packed copy: the hash check fails.
  const std::string bin1 = f.folder + "/" + k1 + ".bin";
  std::string bytes = ReadText(bin1);
  bytes[bytes.size() - 7] = static_cast<char>(bytes[bytes.size() - 7] ^ 0x10);
  WriteBytes(bin1, bytes);
  // c2's .bin replaced by bytes that are no entry, with its .json's size and hash updated.
  const std::string bin2 = f.folder + "/" + k2 + ".bin", json2 = f.folder + "/" + k2 + ".json";
  const std::string junk("OAPW\x01\x00\x00\x00\x05\x00\x00\x00", 12);
  WriteBytes(bin2, junk);
  auto meta = nlohmann::json::parse(ReadText(json2));
  meta["binary_size"] = junk.size();
  meta["binary_xxh3_128"] = openatc::opcache::Xxh3Hex128(junk.data(), junk.size());
  WriteBytes(json2, meta.dump());

  auto r = f.Atc("fixed", graph);
  INFO(r.err);
  CHECK(Contains(r.err, "atc: warning: the op compile cache entry '" + f.folder + "/" + k1 +
                            "' is corrupt (its binary does not match the size and hash its .json records): it is "
                            "not used; node 'r' (Conv)'s weights are packed again and the entry replaced\n"));
  CHECK(Contains(r.err, "atc: warning: the op compile cache entry '" + f.folder + "/" + k2 +
                            "' is corrupt (its .bin ends inside copy 0)"));
  const auto lines = CacheLines(r.err);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "weight cache miss " + k1 +
                        " (the entry was corrupt: its binary does not match the size and hash its .json records; it "
                        "is replaced)");
  CHECK(lines[1] == "weight cache stored " + k1);
  CHECK(lines[2] == "weight cache miss " + k2 + " (the entry was corrupt: its .bin ends inside copy 0; it is replaced)");
  CHECK(lines[3] == "weight cache stored " + k2);
  REQUIRE(f.Om("fixed") == f.Om("cold"));
  REQUIRE(CacheLines(f.Atc("again", graph).err) ==
          std::vector<std::string>{"weight cache hit " + k1, "weight cache hit " + k2});
  REQUIRE(f.Om("again") == f.Om("cold"));
}

TEST_CASE("weight cache: disable touches nothing, debug bypasses; two atc processes on one folder agree", "[e2e][cache]") {
  Fixture f;
  const std::string graph = f.Graph(Net());
  auto off = f.Run("off", graph, {"--op_compiler_cache_mode=disable", "--op_compiler_cache_dir=" + f.cache});
  REQUIRE(off.exit_code == 0);
  REQUIRE(CacheLines(off.err).empty());
  REQUIRE_FALSE(Exists(f.cache));
  // Debug options bypass the cache, as they do for kernels.
  auto debug = f.Run("debug", graph,
                     {"--op_compiler_cache_mode=enable", "--op_compiler_cache_dir=" + f.cache, "--op_debug_level=1"});
  REQUIRE(debug.exit_code == 0);
  CHECK(Contains(debug.err, "atc: info: node 'r' (Conv): weight cache bypassed (--op_debug_level=1)\n"));
  CHECK(Contains(debug.err, "atc: info: node 'c2' (Conv): weight cache bypassed (--op_debug_level=1)\n"));
  REQUIRE(CacheLines(debug.err).empty());
  REQUIRE_FALSE(Exists(f.folder));

  CommandResult a, b;
  const std::vector<std::string> flags = {"--op_compiler_cache_mode=enable", "--op_compiler_cache_dir=" + f.cache};
  std::thread t1([&] { a = f.Run("p1", graph, flags); });
  std::thread t2([&] { b = f.Run("p2", graph, flags); });
  t1.join();
  t2.join();
  INFO(a.err << b.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  // Each key is packed and stored once (the per-key lock), the other process hits it.
  size_t stored = 0, hits = 0;
  for (const auto &l : CacheLines(a.err + b.err)) {
    stored += l.rfind("weight cache stored ", 0) == 0;
    hits += l.rfind("weight cache hit ", 0) == 0;
  }
  CHECK(stored == 2);
  CHECK(hits == 2);
  REQUIRE(f.Om("p1") == f.Om("p2"));
  REQUIRE(f.OmWithoutRecord("p1") == f.OmWithoutRecord("off"));
}

TEST_CASE("weight cache: aging counts weight entries with the kernels of their soc_version", "[e2e][cache]") {
  Fixture f;
  const auto first = CacheLines(f.Atc("first", f.Graph(Net())).err);
  REQUIRE(first.size() == 4);
  const std::string k1 = KeyOf(first[0]), k2 = KeyOf(first[2]);
  // An old 1.5 MB kernel entry, and the weight entries made two hours ago.
  const std::string kernels = f.cache + "/kernel_cache/host";
  REQUIRE(mkdir((f.cache + "/kernel_cache").c_str(), 0755) == 0);
  REQUIRE(mkdir(kernels.c_str(), 0755) == 0);
  WriteBytes(kernels + "/old_kernel.bin", std::string(1536 * 1024, 'k'));
  WriteBytes(kernels + "/old_kernel.json", "{}");
  auto age = [](const std::string &path, time_t seconds) {
    const utimbuf t{time(nullptr) - seconds, time(nullptr) - seconds};
    REQUIRE(utime(path.c_str(), &t) == 0);
  };
  age(kernels + "/old_kernel.bin", 3600);
  age(kernels + "/old_kernel.json", 3600);
  for (const std::string &k : {k1, k2})
    for (const char *ext : {".bin", ".json"}) age(f.folder + "/" + k + ext, 7200);
  WriteBytes(f.cache + "/op_cache.ini", "[op_compiler_cache]\nmax_op_cache_size=1\nremain_cache_size_ratio=50\n");

  // Another graph stores two new weight entries: 1 MB is exceeded, the old entries of both
  // folders go, oldest first, the new ones stay.
  Net other;
  other.w1[0] = 3.0f;
  other.w2[0] = 3.0f;
  const auto second = CacheLines(f.Atc("second", f.Graph(other, "other.json")).err);
  REQUIRE(second.size() == 4);
  CHECK_FALSE(Exists(kernels + "/old_kernel.bin"));
  CHECK_FALSE(Exists(f.folder + "/" + k1 + ".bin"));
  CHECK_FALSE(Exists(f.folder + "/" + k2 + ".json"));
  CHECK(Exists(f.folder + "/" + KeyOf(second[0]) + ".bin"));
  CHECK(Exists(f.folder + "/" + KeyOf(second[2]) + ".json"));
}
