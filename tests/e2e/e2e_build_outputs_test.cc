// atc's extra build outputs through the executables: --save_original_model (<output>_original.om,
// the graph before optimisation, run by omrun), --display_model_info=1 and --mode=6 (ATC's
// "Display Model Info" block with the OM's real sizes), --disable_reuse_memory=1 (a plan without
// shared bytes, same results), and the warning for an
// --op_precision_mode entry that has no numeric effect on the host.
//
// Graph: y = Sigmoid(x), x float[2]. With --precision_mode=force_fp16 the OM computes in float16:
// sigmoid(1) = 0.7310585786... rounds to 1497/2048 = 0.73095703125 (spacing 2^-11 in [0.5, 1));
// the original OM is not optimised, so it keeps float32: 0.7310586 (to 1e-6).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <sys/stat.h>

#include "e2e_util.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

std::vector<float> RunOnes(const std::string &dir, const std::string &om) {
  tensor_io::HostTensor in;
  in.dtype = ge::DT_FLOAT;
  in.shape = {2};
  const float ones[2] = {1.0f, 1.0f};
  in.data.resize(sizeof ones);
  std::memcpy(in.data.data(), ones, sizeof ones);
  tensor_io::WriteNpy(dir + "/ones.npy", in);
  auto r = RunOmrun({om, "--input", dir + "/ones.npy", "--output", dir + "/out"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const tensor_io::HostTensor y = tensor_io::ReadNpy(dir + "/out/output_0.npy");
  std::vector<float> v(y.data.size() / sizeof(float));
  std::memcpy(v.data(), y.data.data(), y.data.size());
  return v;
}

// Bytes of the segments of these kinds (stored, or raw when `raw`).
uint64_t Segments(const om::ContainerInfo &info, om::SegmentKind kind, bool raw) {
  uint64_t n = 0;
  for (const auto &s : info.segments)
    if (s.kind == kind) n += raw ? s.raw_size : s.stored_size;
  return n;
}

std::string Line(const std::string &text, const std::string &start) {
  const size_t at = text.find("\n" + start);
  if (at == std::string::npos) return "";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

}  // namespace

TEST_CASE("atc --save_original_model writes the unoptimised graph as a second OM that omrun runs", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("Sigmoid", {2}));
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m",
                   "--precision_mode=force_fp16", "--save_original_model=true"},
                  "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("warning") == std::string::npos);
  const om::Model original = om::ReadFile(dir + "/m_original.om");
  CHECK(original.graph.name == "unary_original");
  CHECK(om::ReadFile(dir + "/m.om").graph.name == "unary");
  for (const auto &n : original.graph.nodes) CHECK(n.attrs.count("openatc_output_dtype") == 0);
  CHECK(RunOnes(dir, dir + "/m.om") == std::vector<float>{0.73095703125f, 0.73095703125f});
  for (float v : RunOnes(dir, dir + "/m_original.om")) CHECK(std::fabs(v - 0.7310585786f) < 1e-6f);

  SECTION("a failure to write the original only warns") {
    ::mkdir((dir + "/n_original.om").c_str(), 0755);  // a folder where the file would go
    auto w = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/n",
                     "--save_original_model=true"},
                    "");
    INFO(w.err);
    CHECK(w.exit_code == 0);
    CHECK(w.err.rfind("atc: warning: --save_original_model: '" + dir + "/n_original.om' was not written: ", 0) == 0);
    CHECK(om::ReadFile(dir + "/n.om").graph.name == "unary");
  }
  SECTION("false writes no original") {
    REQUIRE(RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/f",
                    "--save_original_model=false"},
                   "")
                .exit_code == 0);
    struct stat st {};
    CHECK(::stat((dir + "/f_original.om").c_str(), &st) != 0);
  }
  RemoveTree(dir);
}

TEST_CASE("atc --display_model_info=1 and --mode=6 print ATC's model info block with the OM's sizes", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("Relu", {2, 3}));
  const std::vector<std::string> args = {"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m",
                                         "--display_model_info=1"};
  auto r = RunAtc(args, "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const om::Model m = om::ReadFile(dir + "/m.om");
  const om::ContainerInfo info = om::InspectFile(dir + "/m.om");
  using K = om::SegmentKind;
  const std::string resource = "resource info: memory_size[" + std::to_string(m.graph.arena_bytes) + " B], weight_size[" +
                               std::to_string(Segments(info, K::kWeight, true)) + " B], stream_num[1], event_num[0].";
  const std::string om_info =
      "om       info: modeldef_size[" + std::to_string(info.envelope_size) + " B], weight_data_size[" +
      std::to_string(Segments(info, K::kWeight, false)) + " B], tbe_kernels_size[" +
      std::to_string(Segments(info, K::kArtifact, false) + Segments(info, K::kKernel, false)) +
      " B], cust_aicpu_kernel_store_size[-1 B], task_info_size[-1 B], so_store_size[" +
      std::to_string(Segments(info, K::kDeliverable, false)) + " B].";
  std::string cmdline = "Original Atc command line: " + BuildPath("bin/atc");
  for (const auto &a : args) cmdline += " " + a;
  const std::string block_start = "============ Display Model Info start ============\n";
  const std::string block_end = "============ Display Model Info end   ============\n";
  const std::string expected_after_start = cmdline + "\n";
  const size_t start = r.out.find(block_start);
  REQUIRE(start != std::string::npos);
  CHECK(r.out.compare(start + block_start.size(), expected_after_start.size(), expected_after_start) == 0);
  const std::string system = Line(r.out, "system   info: ");
  CHECK(system.rfind("system   info: atc_version[OpenATC ", 0) == 0);
  CHECK(system.find("], soc_version[host], framework_type[1].") != std::string::npos);
  CHECK(Line(r.out, "resource info: ") == resource);
  CHECK(Line(r.out, "om       info: ") == om_info);
  // After saving, before ATC's last lines.
  CHECK(r.out.find(block_end) < r.out.find("OM written to: " + dir + "/m.om"));
  CHECK(r.out.find("ATC run success") > r.out.find(block_end));

  // --mode=6: the same block, the command line from the OM's build record (no --output).
  auto six = RunAtc({"--mode=6", "--om", dir + "/m.om"}, "");
  INFO(six.err);
  REQUIRE(six.exit_code == 0);
  CHECK(six.out.find(block_start) != std::string::npos);
  CHECK(Line(six.out, "Original Atc command line: ") ==
        "Original Atc command line: atc --compress=3 --display_model_info=1 --framework=1 --mode=0 --model=" + dir +
            "/g.json --soc_version=host");
  CHECK(Line(six.out, "system   info: ") == system);
  CHECK(Line(six.out, "resource info: ") == resource);
  CHECK(Line(six.out, "om       info: ") == om_info);
  CHECK(six.out.find(block_end) < six.out.find("OpenATC OM: " + dir + "/m.om"));
  RemoveTree(dir);
}

TEST_CASE("atc --op_precision_mode: a mode without numeric effect on the host is warned about once", "[e2e]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("Relu", {2, 3}));
  WriteBytes(dir + "/p.ini", "[ByOpType]\nRelu=high_precision\n[ByNodeName]\nop=high_precision\nx=keep_fp16\n");
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m",
                   "--op_precision_mode=" + dir + "/p.ini", "--allow_hf32=false"},
                  "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string tail = "' has no effect on the host: each built-in kernel has one implementation (the entries are "
                           "recorded in the OM's build record, and an op's Compile reads ge.exec.op_precision_mode)\n";
  CHECK(r.err == "atc: warning: --op_precision_mode: 'high_precision" + tail + "atc: warning: --op_precision_mode: 'keep_fp16" +
                     tail);
  RemoveTree(dir);
}

TEST_CASE("atc --disable_reuse_memory=1 plans every tensor apart and computes the same outputs", "[e2e]") {
  const std::string dir = MakeTempDir();
  // x -> r1 Relu -> s2 Sigmoid -> r3 Relu -> y Sigmoid, float[2]: r1, s2, r3 are planned (512 B each
  // after GE's 512-byte rounding); y is the caller's buffer.
  const std::string d = DescJson("DT_FLOAT", {2});
  auto node = [](const std::string &name, const std::string &type, const std::string &in) {
    return ", { \"name\": \"" + name + "\", \"type\": \"" + type + "\", \"input\": [\"" + in + ":0\"] }";
  };
  WriteBytes(dir + "/g.json", "{ \"name\": \"chain\", \"graph\": [ { \"name\": \"chain\", \"output\": [\"y:0\"], \"op\": [" +
                                  DataOpJson("x", 0, d) + node("r1", "Relu", "x") + node("s2", "Sigmoid", "r1") +
                                  node("r3", "Relu", "s2") + node("y", "Sigmoid", "r3") + " ] } ] }");
  auto build = [&](const std::string &out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/" + out};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = RunAtc(args, "");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("disable_reuse_memory") == std::string::npos);  // it has an effect: no warning
    return om::ReadFile(dir + "/" + out + ".om").graph.arena_bytes;
  };
  CHECK(build("shared", {}) == 1024);  // r3 takes r1's bytes once s2 has read them
  CHECK(build("apart", {"--disable_reuse_memory=1"}) == 1536);
  CHECK(build("zero", {"--disable_reuse_memory=0"}) == 1024);
  CHECK(RunOnes(dir, dir + "/apart.om") == RunOnes(dir, dir + "/shared.om"));
  RemoveTree(dir);
}
