// GE's offline build API on the host target (ge/ge_ir_build.h): the lifecycle, a graph built with
// the GE API compiled in-process into the same OM bytes atc writes for its AIR file, saved as
// <name>.om and run by omrun with exact values, and the error cases with GE's codes.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "ir_build_util.h"
#include "openatc/register/attr_value.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {
const std::string &LastError() { return openatc::reg::LastSdkError(); }
bool Exists(const std::string &path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}
struct BuildScope {
  explicit BuildScope(IrOptions options = {{ge::ir_option::SOC_VERSION, "host"}}) {
    SetBuildEnvironment();
    REQUIRE(ge::aclgrphBuildInitialize(options) == ge::GRAPH_SUCCESS);
  }
  ~BuildScope() { ge::aclgrphBuildFinalize(); }
};
}  // namespace

TEST_CASE("ir_build: a build outside initialize/finalize fails with GE's code; finalize twice is harmless",
          "[ir_build]") {
  ge::aclgrphBuildFinalize();  // never initialized: nothing happens
  ge::Graph graph("g");
  ge::ModelBufferData model;
  CHECK(ge::aclgrphBuildModel(graph, IrOptions{}, model) == ge::GE_CLI_GE_NOT_INITIALIZED);
  CHECK(LastError().find("aclgrphBuildModel: OA2501: aclgrphBuildModel needs the offline build to be initialized") == 0);
  CHECK(model.data == nullptr);
  {
    BuildScope scope;
    IrOptions again{{ge::ir_option::SOC_VERSION, "Ascend910B1"}};  // ignored: already started
    CHECK(ge::aclgrphBuildInitialize(again) == ge::GRAPH_SUCCESS);
    REQUIRE(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{}, model) == ge::GRAPH_SUCCESS);
  }
  ge::aclgrphBuildFinalize();
  CHECK(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{}, model) == ge::GE_CLI_GE_NOT_INITIALIZED);
  int32_t major = -1, minor = -1, patch = -1;
  CHECK(ge::aclgrphGetIRVersion(&major, &minor, &patch) == ge::GRAPH_SUCCESS);
  CHECK((major == 1 && minor == 0 && patch == 0));
  CHECK(ge::aclgrphGetIRVersion(nullptr, &minor, &patch) == ge::GRAPH_PARAM_INVALID);
}

TEST_CASE("ir_build: the in-process OM equals atc's OM of the graph's AIR file, and runs", "[ir_build]") {
  const std::string dir = MakeTempDir();
  BuildScope scope;
  const ge::Graph graph = AxpyGraph("axpy_graph", 2.5f);
  ge::ModelBufferData model;
  REQUIRE(ge::aclgrphBuildModel(graph, IrOptions{}, model) == ge::GRAPH_SUCCESS);
  REQUIRE(model.length > 4);
  REQUIRE(ge::aclgrphSaveModel((dir + "/api").c_str(), model) == ge::GRAPH_SUCCESS);
  REQUIRE(ge::aclgrphSaveModel(dir + "/named.om", model) == ge::GRAPH_SUCCESS);  // std::string form
  CHECK(Exists(dir + "/named.om.om"));  // GE's rule: ".om" is always appended
  const std::string api = ReadText(dir + "/api.om");
  CHECK(api == std::string(reinterpret_cast<const char *>(model.data.get()), model.length));

  // atc on the AIR file Graph::SaveToFile writes, named as the graph (what the OM records).
  REQUIRE(graph.SaveToFile((dir + "/axpy_graph").c_str()) == ge::GRAPH_SUCCESS);
  std::string log;
  REQUIRE(AtcInDir(dir, "axpy_graph", "host",
                   {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/axpy")}, {"SOURCE_DATE_EPOCH", kEpoch}},
                   &log) == 0);
  INFO(log);
  CHECK(ReadText(dir + "/atc.om") == api);

  CHECK(RunOm(dir, dir + "/api.om") == Expected(2.5f));
  // Build options override the globals for one graph: the same graph with --input_shape pinned.
  ge::ModelBufferData pinned;
  REQUIRE(ge::aclgrphBuildModel(graph, IrOptions{{ge::ir_option::INPUT_SHAPE, "x1:8;x2:8"}}, pinned) ==
          ge::GRAPH_SUCCESS);
  CHECK(pinned.length != model.length);  // the build record holds input_shape
  RemoveTree(dir);
}

TEST_CASE("ir_build: bad options, graphs, buffers and files fail with GE's codes and say what is wrong",
          "[ir_build]") {
  const std::string dir = MakeTempDir();
  {
    SetBuildEnvironment();
    IrOptions bad{{ge::ir_option::SOC_VERSION, "host"}, {ge::ir_option::EXEC_DISABLE_REUSED_MEMORY, "7"}};
    CHECK(ge::aclgrphBuildInitialize(bad) == ge::GRAPH_PARAM_INVALID);
    CHECK(LastError().find("aclgrphBuildInitialize: E10001: ") == 0);
    CHECK(LastError().find("disable_reuse_memory") != std::string::npos);
    ge::ModelBufferData model;
    CHECK(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{}, model) == ge::GE_CLI_GE_NOT_INITIALIZED);
  }
  {
    IrOptions no_soc{{ge::ir_option::LOG_LEVEL, "error"}};  // ge.socVersion is required, as atc's flag
    CHECK(ge::aclgrphBuildInitialize(no_soc) == ge::GRAPH_PARAM_INVALID);
    CHECK(LastError().find("aclgrphBuildInitialize: E10054: the required parameter --soc_version is empty") == 0);
  }
  BuildScope scope;
  ge::ModelBufferData model;
  CHECK(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{{"ge.no_such_key", "1"}}, model) ==
        ge::GRAPH_PARAM_INVALID);
  CHECK(LastError() ==
        "aclgrphBuildModel: OA2502: build option 'ge.no_such_key' = '1' is not an option of the offline build. Use "
        "the keys of ge::ir_option (ge/ge_ir_build.h), e.g. \"input_shape\" or \"ge.exec.precision_mode\".");
  CHECK(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{{ge::ir_option::INPUT_SHAPE, "x1:a"}}, model) ==
        ge::GRAPH_PARAM_INVALID);
  CHECK(LastError().find("E10001") != std::string::npos);
  CHECK(ge::aclgrphBuildModel(ge::Graph(), IrOptions{}, model) == ge::GRAPH_PARAM_INVALID);
  CHECK(LastError().find("OA2503: the graph is default-constructed") != std::string::npos);
  CHECK(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{{ge::ir_option::OUT_NODES, "nope:0"}}, model) ==
        ge::GRAPH_PARAM_INVALID);
  CHECK(LastError().find("'g': --out_nodes names node 'nope'") != std::string::npos);
  CHECK(model.data == nullptr);  // untouched by the failures

  CHECK(ge::aclgrphSaveModel((dir + "/m").c_str(), model) == ge::GRAPH_PARAM_INVALID);
  CHECK(LastError().find("OA2503: the model buffer is empty") != std::string::npos);
  REQUIRE(ge::aclgrphBuildModel(AxpyGraph("g", 1.0f), IrOptions{}, model) == ge::GRAPH_SUCCESS);
  CHECK(ge::aclgrphSaveModel(static_cast<const char *>(nullptr), model) == ge::GRAPH_PARAM_INVALID);
  CHECK(ge::aclgrphSaveModel((dir + "/missing/m").c_str(), model) == ge::GRAPH_FAILED);
  CHECK(LastError() == "aclgrphSaveModel: OA2504: '" + dir +
                           "/missing/m.om': cannot write the OM (No such file or directory); nothing was written. "
                           "Check that the folder exists and is writable.");
  ge::ModelBufferData junk;
  junk.data.reset(new uint8_t[8]{1, 2, 3, 4, 5, 6, 7, 8}, std::default_delete<uint8_t[]>());
  junk.length = 8;
  CHECK(ge::aclgrphSaveModel((dir + "/junk").c_str(), junk) == ge::GRAPH_PARAM_INVALID);
  CHECK(!Exists(dir + "/junk.om"));
  RemoveTree(dir);
}
