// Checked global memory end to end (README.md "Checked global memory"; OPENATC_GM_CHECK): the
// GmOverrun test op (tests/deliverables/gm_overrun) has an Ascend C kernel whose block b writes its
// output y_b in whole 8-float tiles; for n = 20 floats (80 bytes) the last tile writes 32 bytes at
// byte offset 64, 16 bytes past the end, in each of its two blocks. atc compiles it for the host
// and for Ascend910B1 emulated; omrun fails (exit 6, OA2208 naming node, op type, kernel, block,
// buffer, offset and size) by default, and with OPENATC_GM_CHECK=warn reports each (kernel, block,
// buffer) once, drops the bytes past the end and gives y_b = x_b + 1 exactly.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
constexpr int kN = 20;

bool Contains(const std::string &s, const std::string &p) { return s.find(p) != std::string::npos; }
size_t Count(const std::string &s, const std::string &p) {
  size_t n = 0;
  for (size_t at = s.find(p); at != std::string::npos; at = s.find(p, at + 1)) ++n;
  return n;
}

// `chained`: a second GmOverrun reads the first one's outputs, which are then tensors of the
// memory plan (named by the labels made at load, loader/runtime/src/prepare_nodes.cc).
std::string GraphJson(bool chained = false) {
  const std::string d = "{ \"dtype\": \"DT_FLOAT\", \"shape\": { \"dim\": [\"20\"] }, \"layout\": \"ND\" }";
  auto data = [&](const std::string &name, int index) {
    return "{ \"name\": \"" + name + "\", \"type\": \"Data\", \"input\": [\"\"], \"attr\": { \"index\": { \"i\": \"" +
           std::to_string(index) + "\" } }, \"inputDesc\": [" + d + "], \"outputDesc\": [" + d + "] }";
  };
  auto over = [&](const std::string &name, const std::string &a, const std::string &b) {
    return ", { \"name\": \"" + name + "\", \"type\": \"GmOverrun\", \"input\": [\"" + a + "\", \"" + b +
           "\"], \"outputDesc\": [" + d + ", " + d + "] }";
  };
  const std::string last = chained ? "again" : "over";
  return "{ \"name\": \"gm\", \"graph\": [ { \"name\": \"gm\", \"output\": [\"" + last + ":0\", \"" + last +
         ":1\"], \"op\": [" + data("x0", 0) + ", " + data("x1", 1) + over("over", "x0:0", "x1:0") +
         (chained ? over("again", "over:0", "over:1") : "") + " ] } ] }";
}

std::vector<float> Values(float base) {
  std::vector<float> v(kN);
  for (int i = 0; i < kN; ++i) v[static_cast<size_t>(i)] = base + 0.25f * static_cast<float>(i);
  return v;
}
void WriteFloats(const std::string &path, const std::vector<float> &v) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = {kN};
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  tensor_io::WriteNpy(path, t);
}
std::vector<float> ReadFloats(const std::string &path) {
  const auto t = tensor_io::ReadNpy(path);
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

struct Dir {
  std::string path = MakeTempDir();
  ~Dir() { RemoveTree(path); }
  CommandResult Atc(const std::string &soc, bool chained = false) const {
    WriteBytes(path + "/g.json", GraphJson(chained));
    std::map<std::string, std::string> set = {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/gm_overrun")}};
    std::vector<std::string> unset = {"OPENATC_GM_CHECK"};
    if (soc == "host") unset.push_back("OPENATC_EMULATION");
    else set["OPENATC_EMULATION"] = "1";
    return RunCommand({BuildPath("bin/atc"), "--model", path + "/g.json", "--soc_version", soc, "--output",
                       path + "/m"},
                      set, unset);
  }
  CommandResult Omrun(const std::string &mode, std::vector<std::string> extra = {}) const {
    WriteFloats(path + "/x0.npy", Values(1.0f));
    WriteFloats(path + "/x1.npy", Values(-3.0f));
    std::vector<std::string> argv = {BuildPath("bin/omrun"), path + "/m.om", "--input",
                                     path + "/x0.npy," + path + "/x1.npy", "--output", path + "/out"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::vector<std::string> unset = {"ASCEND_CUSTOM_OPP_PATH", "OPENATC_EMULATION"};
    if (mode.empty()) {
      unset.push_back("OPENATC_GM_CHECK");
      return RunCommand(argv, {}, unset);
    }
    return RunCommand(argv, {{"OPENATC_GM_CHECK", mode}}, unset);
  }
};

// The violation of block b on output b (independent of which block the pool runs first): the
// node's outputs are the model's output buffers, 80 bytes each.
std::string Violation(const Dir &d, int block) {
  return "kernel 'gm_overrun', block " + std::to_string(block) + " of 2: DataCopy writes 32 bytes at offset 64 of output " +
         std::to_string(block) + " of model " + d.path + "/m.om (80 bytes), 16 bytes past its end";
}
}  // namespace

TEST_CASE("gm check: an Ascend C kernel writing past its outputs", "[e2e][gm]") {
  const std::string soc = GENERATE(std::string("host"), std::string("Ascend910B1"));
  Dir d;
  auto atc = d.Atc(soc);
  INFO(soc << "\n" << atc.err);
  REQUIRE(atc.exit_code == 0);

  SECTION("default (fail): exit 6, OA2208 names node, op type, kernel, block, buffer, offset and size") {
    auto run = d.Omrun("");
    INFO(run.err);
    CHECK(run.exit_code == 6);
    CHECK(Contains(run.err, "omrun: error: OA2208: "));
    CHECK(Contains(run.err, "node 'over' (GmOverrun): a kernel accessed global memory outside its buffer: "));
    CHECK((Contains(run.err, Violation(d, 0)) || Contains(run.err, Violation(d, 1))));
    CHECK(Count(run.err, "OA2208") == 1);
  }
  SECTION("OPENATC_GM_CHECK=warn: exit 0, one warning per kernel, block and buffer, in-bounds values exact") {
    auto run = d.Omrun("warn", {"--loop", "3"});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(Count(run.err, "openatc: warning: OA2208: ") == 2);  // 3 runs x 2 blocks, each block's buffer once
    CHECK(Count(run.err, "openatc: warning: OA2208: " + Violation(d, 0) + ". OPENATC_GM_CHECK=warn: ") == 1);
    CHECK(Count(run.err, "openatc: warning: OA2208: " + Violation(d, 1) + ". OPENATC_GM_CHECK=warn: ") == 1);
    const auto x0 = Values(1.0f), x1 = Values(-3.0f);
    const auto y0 = ReadFloats(d.path + "/out/output_0.npy"), y1 = ReadFloats(d.path + "/out/output_1.npy");
    REQUIRE(y0.size() == static_cast<size_t>(kN));
    REQUIRE(y1.size() == static_cast<size_t>(kN));
    for (size_t i = 0; i < static_cast<size_t>(kN); ++i) {
      CHECK(y0[i] == x0[i] + 1.0f);
      CHECK(y1[i] == x1[i] + 1.0f);
    }
  }
}

TEST_CASE("gm check: an overrun of a planned intermediate tensor names it by node and output", "[e2e][gm]") {
  Dir d;
  auto atc = d.Atc("host", true);
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  auto run = d.Omrun("");
  INFO(run.err);
  CHECK(run.exit_code == 6);
  CHECK(Contains(run.err, "node 'over' (GmOverrun): a kernel accessed global memory outside its buffer: "));
  const std::string tail = "' of model " + d.path + "/m.om (80 bytes, planned), 16 bytes past its end";
  CHECK((Contains(run.err, "at offset 64 of tensor 'over:0" + tail) ||
         Contains(run.err, "at offset 64 of tensor 'over:1" + tail)));
}
