// The compilable_add_custom port end to end: atc compiles the sample's graph against the
// example's OPP root (deliverable built with -D_GLIBCXX_USE_CXX11_ABI=0 as GE's samples are),
// omrun runs the OM with no environment, and add2 = (x + x) + x exactly.
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "openatc/om/model.h"
#include "openatc/tensor_io/tensor_io.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
tensor_io::HostTensor Floats(const std::vector<int64_t> &shape, const std::vector<float> &v) {
  tensor_io::HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = shape;
  t.data.resize(v.size() * 4);
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}
std::vector<float> AsFloats(const tensor_io::HostTensor &t) {
  std::vector<float> v(t.data.size() / 4);
  std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}
}  // namespace

TEST_CASE("compilable_add_custom: atc compiles single_add.json and omrun gives 3 x input", "[e2e]") {
  const std::string dir = MakeTempDir();
  auto atc = RunAtc({"--model", SourcePath("examples/compilable_add_custom/single_add.json"), "--soc_version", "host",
                     "--output", dir + "/out/single_add"},
                    AddCustomOpp());
  INFO(atc.out << atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(atc.out == "ATC start working now, please wait for a moment.\nOM written to: " + dir +
                       "/out/single_add.om\nATC run success, welcome to the next use.\n");

  SECTION("all-ones input, the shipped ones.npy") {
    auto run = RunOmrun({dir + "/out/single_add.om", "--input", SourcePath("examples/compilable_add_custom/ones.npy"),
                         "--output", dir + "/r"});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    auto out = tensor_io::ReadNpy(dir + "/r/output_0.npy");
    CHECK(out.shape == std::vector<int64_t>{4, 4});
    CHECK(AsFloats(out) == std::vector<float>(16, 3.0f));
    CHECK(run.out.find("add2:0") != std::string::npos);
  }
  SECTION("distinct values, compared with the same float arithmetic") {
    std::vector<float> x;
    for (int i = 0; i < 16; ++i) x.push_back(0.37f * static_cast<float>(i) - 2.9f);
    tensor_io::WriteNpy(dir + "/x.npy", Floats({4, 4}, x));
    auto run = RunOmrun({dir + "/out/single_add.om", "--input", dir + "/x.npy", "--output", dir + "/r2"});
    REQUIRE(run.exit_code == 0);
    auto got = AsFloats(tensor_io::ReadNpy(dir + "/r2/output_0.npy"));
    REQUIRE(got.size() == 16);
    for (int i = 0; i < 16; ++i) CHECK(got[static_cast<size_t>(i)] == (x[static_cast<size_t>(i)] + x[static_cast<size_t>(i)]) + x[static_cast<size_t>(i)]);
  }
  SECTION("the OM carries AddCustom's Serialize buffer and the deliverable that wrote it") {
    om::Model m = om::ReadFile(dir + "/out/single_add.om");
    REQUIRE(m.artifacts.size() == 1);
    const om::OpArtifact &a = m.artifacts[0];
    CHECK(a.op_type == "AddCustom");
    CHECK(a.capabilities == (1u | 2u | 4u | 8u));  // EagerExecute, Compilable, ShapeInfer, Portable
    REQUIRE(a.has_payload);
    // The sample's format: [u32 0x56415231][u32 1][u32 count]{[u32 klen][key][u32 blen][bin]}; both
    // nodes share the key "[4,4]", so one binary.
    auto u32 = [&](size_t off) {
      uint32_t v;
      std::memcpy(&v, a.payload.data + off, 4);
      return v;
    };
    REQUIRE(a.payload.size > 17);
    CHECK(u32(0) == 0x56415231u);
    CHECK(u32(4) == 1u);
    CHECK(u32(8) == 1u);
    CHECK(u32(12) == 5u);
    CHECK(std::string(reinterpret_cast<const char *>(a.payload.data) + 16, 5) == "[4,4]");
    CHECK(u32(21) + 25 == a.payload.size);
    CHECK(std::memcmp(a.payload.data + 25, "\x7f" "ELF", 4) == 0);
    REQUIRE(m.deliverables.size() == 1);
    CHECK(m.deliverables[0].file_name == "libcust_opapi.so");
    CHECK(m.deliverables[0].op_types == std::vector<std::string>{"AddCustom"});
    CHECK(m.target.soc_version == "host");
    CHECK(m.build_options.at("soc_version") == "host");
  }
  SECTION("two compiles give identical bytes") {
    auto again = RunAtc({"--model", SourcePath("examples/compilable_add_custom/single_add.json"), "--soc_version",
                         "host", "--output", dir + "/out/again"},
                        AddCustomOpp());
    REQUIRE(again.exit_code == 0);
    CHECK(ReadText(dir + "/out/again.om") == ReadText(dir + "/out/single_add.om"));
  }
  RemoveTree(dir);
}

TEST_CASE("compilable_add_custom: GE's flow, graph_build -> AIR -> atc Ascend910B1 emulated -> model_exec, omrun",
          "[e2e][emulation]") {
  // What `make demo` runs (Makefile, README.md "Two commands"); the switch only on atc's command.
  const std::string dir = MakeTempDir();
  auto gb = RunCommand({BuildPath("examples/compilable_add_custom/compilable_add_graph_build"), dir + "/single_add.air"});
  INFO(gb.out << gb.err);
  REQUIRE(gb.exit_code == 0);
  CHECK(gb.out == "[INFO] graph_build: GraphBuildGraph1 written to " + dir + "/single_add.air\n");
  auto atc = RunCommand({BuildPath("bin/atc"), "--model=" + dir + "/single_add.air", "--framework=1",
                         "--soc_version=Ascend910B1", "--output=" + dir + "/single_add"},
                        {{"OPENATC_EMULATION", "1"}, {"ASCEND_CUSTOM_OPP_PATH", AddCustomOpp()}});
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  CHECK(atc.out == "ATC start working now, please wait for a moment.\nOM written to: " + dir +
                       "/single_add.om\nATC run success, welcome to the next use.\n");
  om::Model m = om::ReadFile(dir + "/single_add.om");
  CHECK(m.target.soc_version == "Ascend910B1");
  const std::vector<std::string> clean = {"OPENATC_EMULATION", "ASCEND_CUSTOM_OPP_PATH", "OPENATC_GM_CHECK"};
  auto exec = RunCommand({BuildPath("examples/model_exec/model_exec"), dir + "/single_add.om"}, {}, clean);
  INFO(exec.err);
  CHECK(exec.exit_code == 0);
  CHECK(exec.out == "[INFO] Model executed successfully!\n[INFO] First element of output: 3.000000\n");
  auto run = RunCommand({BuildPath("bin/omrun"), dir + "/single_add.om", "--input",
                         SourcePath("examples/compilable_add_custom/ones.npy"), "--output", dir + "/r"},
                        {}, clean);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(AsFloats(tensor_io::ReadNpy(dir + "/r/output_0.npy")) == std::vector<float>(16, 3.0f));
  RemoveTree(dir);
}
