// GE's offline build API under OPENATC_EMULATION (ge/ge_ir_build.h): ge.socVersion Ascend910B1
// builds for the emulated chip, the OM equals atc's under the same switch and runs with omrun
// without it. The switch is read once per process (at aclgrphBuildInitialize): this binary holds
// this one test case and sets the variable for itself first (the product never sets it).
#include <catch2/catch.hpp>

#include <cstdlib>

#include "ir_build_util.h"
#include "run_command.h"

using namespace openatc::testing;

TEST_CASE("ir_build: Ascend910B1 emulated builds the same OM as atc and runs", "[ir_build][emulation]") {
  REQUIRE(::setenv("OPENATC_EMULATION", "1", 1) == 0);
  SetBuildEnvironment();
  IrOptions global{{ge::ir_option::SOC_VERSION, "Ascend910B1"}};
  REQUIRE(ge::aclgrphBuildInitialize(global) == ge::GRAPH_SUCCESS);
  ::unsetenv("OPENATC_EMULATION");  // read once: later builds keep the emulated chip
  const std::string dir = MakeTempDir();
  const ge::Graph graph = AxpyGraph("emu_graph", -1.5f);
  ge::ModelBufferData model;
  REQUIRE(ge::aclgrphBuildModel(graph, IrOptions{}, model) == ge::GRAPH_SUCCESS);
  REQUIRE(ge::aclgrphSaveModel((dir + "/api").c_str(), model) == ge::GRAPH_SUCCESS);
  REQUIRE(graph.SaveToFile((dir + "/emu_graph").c_str()) == ge::GRAPH_SUCCESS);
  std::string log;
  REQUIRE(AtcInDir(dir, "emu_graph", "Ascend910B1",
                   {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/axpy")}, {"SOURCE_DATE_EPOCH", kEpoch},
                    {"OPENATC_EMULATION", "1"}},
                   &log) == 0);
  INFO(log);
  CHECK(ReadText(dir + "/atc.om") == ReadText(dir + "/api.om"));
  auto info = RunCommand({BuildPath("bin/omrun"), "--info", dir + "/api.om"});
  CHECK(info.out.find("Ascend910B1") != std::string::npos);
  CHECK(RunOm(dir, dir + "/api.om") == Expected(-1.5f));
  ge::aclgrphBuildFinalize();
  RemoveTree(dir);
}
