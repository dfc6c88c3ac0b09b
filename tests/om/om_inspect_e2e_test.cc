// OM inspection and foreign files end to end, through the atc and omrun binaries:
// atc --mode=1 (OM or graph -> JSON that compiles again, plus <x>.om_info.json), atc --mode=6
// (model summary; GE OM header facts), omrun --info (format, producer, arena bound), omrun on a
// GE OM / a 0.x OM / any other file, and reproducible builds with SOURCE_DATE_EPOCH.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <xxhash.h>

#include "e2e_util.h"
#include "om_test_util.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/om/container_info.h"
#include "openatc/om/model.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

const std::string kStart = "ATC start working now, please wait for a moment.\n";
const std::string kOk = kStart + "ATC run success, welcome to the next use.\n";

std::string Slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// atc with the AddCustom OPP root and SOURCE_DATE_EPOCH set to `epoch` (unset when empty).
CommandResult Atc(const std::vector<std::string> &args, const std::string &epoch = {}) {
  std::vector<std::string> argv = {BuildPath("bin/atc")};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = {{"ASCEND_CUSTOM_OPP_PATH", AddCustomOpp()}};
  if (!epoch.empty()) {
    env["SOURCE_DATE_EPOCH"] = epoch;
    return RunCommand(argv, env);
  }
  return RunCommand(argv, env, {"SOURCE_DATE_EPOCH"});
}

const std::string kSingleAdd = "examples/compilable_add_custom/single_add.json";

// Same node names, types, edges, control edges, descs and attr kinds.
void CheckSameGraph(const ir::Graph &a, const ir::Graph &b) {
  CHECK(a.name == b.name);
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const ir::Node &x = a.nodes[i], &y = b.nodes[i];
    INFO("node " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.type == y.type);
    CHECK(x.inputs == y.inputs);
    CHECK(x.control_inputs == y.control_inputs);
    REQUIRE(x.input_descs.size() == y.input_descs.size());
    REQUIRE(x.output_descs.size() == y.output_descs.size());
    for (size_t k = 0; k < x.output_descs.size(); ++k) {
      CHECK(x.output_descs[k].dtype == y.output_descs[k].dtype);
      CHECK(x.output_descs[k].shape == y.output_descs[k].shape);
      CHECK(x.output_descs[k].format == y.output_descs[k].format);
    }
    REQUIRE(x.attrs.size() == y.attrs.size());
    for (const auto &[k, v] : x.attrs) CHECK(y.attrs.at(k).kind == v.kind);
  }
  CHECK(a.inputs == b.inputs);
  CHECK(a.outputs == b.outputs);
}

}  // namespace

TEST_CASE("om inspect: mode 6, mode 1 and omrun --info on compilable_add_custom", "[om][e2e]") {
  const std::string dir = MakeTempDir();
  auto c = Atc({"--model", SourcePath(kSingleAdd), "--soc_version", "host", "--output", dir + "/a"});
  INFO(c.out << c.err);
  REQUIRE(c.exit_code == 0);
  const std::string om_path = dir + "/a.om";
  const om::Model m = om::ReadFile(om_path);
  const om::ContainerInfo info = om::InspectFile(om_path);
  REQUIRE(m.artifacts.size() == 1);
  REQUIRE(m.deliverables.size() == 1);
  REQUIRE(info.segments.size() == 2);
  const om::OpArtifact &art = m.artifacts[0];
  const uint64_t art_hash = XXH3_64bits(art.payload.data, art.payload.size);
  const uint64_t so_hash = XXH3_64bits(m.deliverables[0].data.data, m.deliverables[0].data.size);

  SECTION("mode 6 prints the summary") {
    auto r = Atc({"--mode=6", "--om", om_path});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string &o = r.out;
    // ATC's Display Model Info block first (tests/e2e/e2e_build_outputs_test.cc checks its lines), then ours.
    const std::string block_end = "============ Display Model Info end   ============\n";
    CHECK(o.rfind(kStart + "============ Display Model Info start ============\n", 0) == 0);
    CHECK(o.find(block_end + "OpenATC OM: " + om_path + " (" + std::to_string(info.file_size) + " bytes)\n") !=
          std::string::npos);
    CHECK(o.find("  model name: GraphBuildGraph1\n") != std::string::npos);
    CHECK(o.find("  target: host (x86_64)\n") != std::string::npos);
    CHECK(o.find("  format version: 1.3 (minimum reader 1.0)\n  build time: none\n") != std::string::npos);
    CHECK(o.find("inputs: 1\n  [0] data: DT_FLOAT [4, 4] ND\noutputs: 1\n  [0] add2:0: DT_FLOAT [4, 4] ND\n") !=
          std::string::npos);
    CHECK(o.find("op types: 3 (4 nodes)\n  AddCustom x2: capabilities PortableOp+CompilableOp+EagerExecuteOp+"
                 "ShapeInferOp, artifact " + std::to_string(art.payload.size) + " bytes (xxh3 " + Hex(art_hash) +
                 "), deliverable libcust_opapi.so\n  Data x1: built-in\n  NetOutput x1: built-in\n") !=
          std::string::npos);
    CHECK(o.find("deliverables: 1\n  [0] libcust_opapi.so: " + std::to_string(m.deliverables[0].data.size) +
                 " bytes, xxh3 " + Hex(so_hash)) != std::string::npos);
    CHECK(o.find("segments: 2 (envelope " + std::to_string(info.envelope_size) + " bytes at 64") != std::string::npos);
    CHECK(o.find("  #0 artifact zstd at " + std::to_string(info.segments[0].file_offset) + ": ") != std::string::npos);
    CHECK(o.find("  #1 deliverable zstd at ") != std::string::npos);
    CHECK(o.find("build options: 5\n  compress: 3\n  framework: 1\n  mode: 0\n") != std::string::npos);
    CHECK(o.find("  soc_version: host\nATC run success") != std::string::npos);
  }

  SECTION("mode 1 writes a graph that compiles to the same results, and the OM facts") {
    auto r = Atc({"--mode=1", "--om", om_path, "--json", dir + "/a.json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == kOk);
    // The graph re-reads with the front end and matches the OM's graph.
    const ir::Graph g = frontend::ReadGeIrFile(dir + "/a.json");
    CheckSameGraph(m.graph, g);
    // The facts file.
    const auto j = nlohmann::json::parse(Slurp(dir + "/a.om_info.json"));
    CHECK(j["format_version"] == "1.3");
    CHECK(j["min_reader_version"] == "1.0");
    // The plan: add1's 16 floats at offset 0 of a 512-byte arena; add2 is the graph output.
    CHECK(j["plan"]["arena_bytes"] == 512);
    REQUIRE(j["plan"]["nodes"].size() == 2);
    CHECK(j["plan"]["nodes"][0]["node"] == "add1");
    CHECK(j["plan"]["nodes"][0]["output_offsets"] == std::vector<int64_t>{0});
    CHECK(j["plan"]["nodes"][1]["output_offsets"] == std::vector<int64_t>{-1});
    CHECK(j["producer"] == m.producer);
    CHECK(j["target"]["soc_version"] == "host");
    CHECK(j["build_options"]["soc_version"] == "host");
    CHECK(j.count("build_time") == 0);
    CHECK(j["inputs"][0]["name"] == "data");
    CHECK(j["inputs"][0]["shape"] == nlohmann::json::array({4, 4}));
    CHECK(j["outputs"][0]["dtype"] == "DT_FLOAT");
    CHECK(j["artifacts"][0]["op_type"] == "AddCustom");
    CHECK(j["artifacts"][0]["bytes"] == art.payload.size);
    CHECK(j["artifacts"][0]["xxh3"] == Hex(art_hash));
    CHECK(j["artifacts"][0]["deliverable"] == "libcust_opapi.so");
    CHECK(j["artifacts"][0]["capability_mask"] == 15);
    CHECK(j["deliverables"][0]["xxh3"] == Hex(so_hash));
    CHECK(j["deliverables"][0]["op_types"] == nlohmann::json::array({"AddCustom"}));
    CHECK(j["container"]["file_bytes"] == info.file_size);
    REQUIRE(j["container"]["segments"].size() == 2);
    CHECK(j["container"]["segments"][1]["kind"] == "deliverable");
    CHECK(j["container"]["segments"][1]["raw_bytes"] == m.deliverables[0].data.size);
    CHECK(j["tensors"].empty());
    // No temp file is left next to the outputs.
    CHECK(RunCommand({"/bin/sh", "-c", "ls -A " + dir}).out == "a.json\na.om\na.om_info.json\n");

    // Compile the JSON again; both OMs give (x + x) + x = 3 for ones.
    auto c2 = Atc({"--model", dir + "/a.json", "--soc_version", "host", "--output", dir + "/b"});
    INFO(c2.out << c2.err);
    REQUIRE(c2.exit_code == 0);
    for (const char *name : {"a", "b"}) {
      auto run = RunOmrun({dir + "/" + name + ".om", "--input",
                           SourcePath("examples/compilable_add_custom/ones.npy"), "--output",
                           dir + "/out_" + name, "--outfmt", "TXT"});
      INFO(run.err);
      REQUIRE(run.exit_code == 0);
    }
    const std::string out_a = Slurp(dir + "/out_a/output_0.txt");
    CHECK(out_a == Slurp(dir + "/out_b/output_0.txt"));
    CHECK(std::count(out_a.begin(), out_a.end(), '3') == 16);
    // Same semantics: identical graphs and artifacts, only the build record's model path differs.
    const om::Model b = om::ReadFile(dir + "/b.om");
    CheckSameGraph(m.graph, b.graph);
    REQUIRE(b.artifacts.size() == 1);
    CHECK(b.artifacts[0].hash == art.hash);
    CHECK(b.build_options.at("model") == dir + "/a.json");
  }

  SECTION("mode 1 on a graph file converts it; the result is a fixed point") {
    auto r = Atc({"--mode=1", "--om", SourcePath(kSingleAdd), "--json", dir + "/src.json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CheckSameGraph(frontend::ReadGeIrFile(SourcePath(kSingleAdd)), frontend::ReadGeIrFile(dir + "/src.json"));
    auto r2 = Atc({"--mode=1", "--om", dir + "/src.json", "--json", dir + "/src2.json"});
    REQUIRE(r2.exit_code == 0);
    CHECK(Slurp(dir + "/src.json") == Slurp(dir + "/src2.json"));
  }

  SECTION("mode 1 into a folder that does not exist leaves nothing") {
    auto r = Atc({"--mode=1", "--om", om_path, "--json", dir + "/missing/x.json"});
    CHECK(r.exit_code == 255);
    CHECK(r.err.find("atc: error: E13001: ") == 0);
    CHECK(r.err.find("cannot write the JSON file: cannot create '" + dir + "/missing/.x.json.tmp.") !=
          std::string::npos);
    CHECK(r.err.find("Check that the folder of --json exists and is writable.") != std::string::npos);
  }

  SECTION("omrun --info prints format, producer and the memory plan's arena") {
    auto r = RunOmrun({"--info", om_path});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    // By hand: add1 and add2 each output 4 x 4 floats = 64 bytes; add2 is the graph output (the
    // caller's buffer), so the arena holds add1 only, rounded up to the planner's 512 bytes.
    CHECK(r.out == "target: host (x86_64)\nproducer: " + m.producer +
                       "\nformat: 1.3 (minimum reader 1.0)\n"
                       "arena: 512 bytes (static memory plan; graph outputs use the caller's buffers; all op "
                       "outputs together: 128 bytes)\n"
                       "inputs:\n  [0] data float32 [4, 4] ND (64 bytes)\n"
                       "outputs:\n  [0] add2:0 float32 [4, 4] ND (64 bytes)\n");
  }
  RemoveTree(dir);
}

TEST_CASE("om inspect: builds are byte-identical; SOURCE_DATE_EPOCH is the only time", "[om][e2e]") {
  const std::string dir = MakeTempDir();
  auto build = [&](const std::string &out, const std::string &epoch) {
    auto r = Atc({"--model", SourcePath(kSingleAdd), "--soc_version", "host", "--output", dir + "/" + out}, epoch);
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return Slurp(dir + "/" + out + ".om");
  };
  const std::string a1 = build("a1", ""), a2 = build("a2", "");
  CHECK(a1 == a2);
  const std::string d1 = build("d1", "1700000000"), d2 = build("d2", "1700000000");
  CHECK(d1 == d2);
  CHECK(d1 != a1);
  CHECK(om::ReadFile(dir + "/a1.om").build_time == -1);
  CHECK(om::ReadFile(dir + "/d1.om").build_time == 1700000000);
  auto r = Atc({"--mode=6", "--om", dir + "/d1.om"});
  CHECK(r.out.find("  build time: 1700000000 (SOURCE_DATE_EPOCH)\n") != std::string::npos);

  auto bad = Atc({"--model", SourcePath(kSingleAdd), "--soc_version", "host", "--output", dir + "/bad"}, "soon");
  CHECK(bad.exit_code == 255);
  // The host RTC's clang refuses it first (the OM writer's own check, OA2024, is in om_version_test).
  CHECK(bad.err.find("SOURCE_DATE_EPOCH") != std::string::npos);
  CHECK(RunCommand({"/bin/sh", "-c", "ls -A " + dir}).out == "a1.om\na2.om\nd1.om\nd2.om\n");
  RemoveTree(dir);
}

TEST_CASE("om inspect: GE OMs, pre-release OMs and other files", "[om][e2e]") {
  const std::string dir = MakeTempDir();
  // A GE OM: 256-byte ModelFileHeader (docs/ge-om.md §2) + a 16-byte body.
  std::string ge(256 + 16, '\0');
  auto put32 = [&](size_t off, uint32_t v) { std::memcpy(&ge[off], &v, 4); };
  std::memcpy(&ge[0], "IMOD", 4);
  put32(4, 256);
  put32(8, 0x20000000);
  std::memcpy(&ge[84], "resnet_ge", 9);
  put32(152, 2);
  put32(156, 1);
  std::memcpy(&ge[160], "2.0.0", 5);
  const uint64_t len = 16;
  std::memcpy(&ge[184], &len, 8);
  ge[193] = 1;
  WriteBytes(dir + "/ge.om", ge);

  auto run = RunOmrun({dir + "/ge.om"});
  CHECK(run.exit_code == 4);
  CHECK(run.err == "omrun: error: OA2002: '" + dir + "/ge.om': this is a GE OM (magic IMOD) made by CANN's ATC; "
                   "this runtime executes only OpenATC OMs. Rebuild it with OpenATC's atc.\n");
  auto info = RunOmrun({"--info", dir + "/ge.om"});
  CHECK(info.exit_code == 4);

  auto show = Atc({"--mode=6", "--om", dir + "/ge.om"});
  INFO(show.err);
  CHECK(show.exit_code == 0);
  CHECK(show.out == kStart + "GE OM (magic IMOD, made by CANN's ATC): " + dir + "/ge.om (272 bytes)\n"
                    "  version: 0x20000000 (2.0)\n  headsize: 256\n  model name: resnet_ge\n"
                    "  model_length: 16 (matches the file size)\n  length: 0\n  model_num: 1\n"
                    "  is_unknow_model: 1 (dynamic)\n  platform_version: 2.0.0\n  platform_type: 0\n"
                    "  om_ir_version: 2\n  modeltype: 0\n  genmode: 0 (offline)\n  is_encrypt: 0\n"
                    "  is_checksum: 0\n  need_check_os_cpu_info: 0\n  ops: 0\n"
                    "This runtime cannot execute a GE OM: rebuild the model with OpenATC's atc.\n"
                    "ATC run success, welcome to the next use.\n");
  WriteBytes(dir + "/short.om", "IMOD1234");
  auto shortr = Atc({"--mode=6", "--om", dir + "/short.om"});
  CHECK(shortr.exit_code == 255);
  CHECK(shortr.err.find("OA2001: '" + dir + "/short.om': the file starts with GE's OM magic IMOD but has only 8 "
                        "bytes, fewer than GE's 256-byte model header.") != std::string::npos);

  WriteBytes(dir + "/text.om", "hello, not a model\n");
  auto other = RunOmrun({dir + "/text.om"});
  CHECK(other.exit_code == 4);
  CHECK(other.err == "omrun: error: OA2001: '" + dir + "/text.om': not an OM file (no OAOM magic). "
                     "Pass an OM built by OpenATC's atc.\n");
  auto other6 = Atc({"--mode=6", "--om", dir + "/text.om"});
  CHECK(other6.exit_code == 255);
  CHECK(other6.err.find("OA2001: '" + dir + "/text.om': not an OM file (no OAOM magic).") != std::string::npos);

  // A 0.x file (the Foundation's format): refused by omrun and by mode 6.
  auto img = om::Serialize(omtest::MakeSmallModel());
  img[8] = 0;
  img[10] = 1;
  omtest::Resign(img);
  WriteBytes(dir + "/old.om", std::string(img.begin(), img.end()));
  auto old = RunOmrun({dir + "/old.om"});
  CHECK(old.exit_code == 4);
  CHECK(old.err.find("OA2015: ") != std::string::npos);
  CHECK(old.err.find("was written by an unstable pre-release format 0.x; rebuild it with atc.") != std::string::npos);
  RemoveTree(dir);
}
