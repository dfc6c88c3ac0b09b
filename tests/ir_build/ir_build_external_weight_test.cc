// GE's offline build API with external weights (ge.externalWeight "1" / "2"; ge_api/ir_build/src/
// ir_build.cc): aclgrphBuildModel + aclgrphSaveModel write the OM and its weight files beside it
// byte for byte as atc --external_weight does for the graph's AIR file (mode 2's file named after
// the graph, as GE names it when the build does not know the OM's name: atc is run with --output
// = the graph's name to compare), a copy of the buffer carries the files, and the saved OM loads
// with aclmdlLoadFromFile and computes alpha * x1 + c; without its weight folder it does not load.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include "acl/acl.h"
#include "graph/operator_factory.h"
#include "ir_build_util.h"
#include "ops_proto_legacy.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

constexpr float kAlpha = 2.5f;
constexpr const char *kGraph = "ext_graph";

/// Data x1 (float32 [8]) and Const c = X2() -> AxpyCustom "axpy" (alpha) -> output.
ge::Graph ConstAxpyGraph() {
  ge::TensorDesc desc(ge::Shape({8}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto x1 = ge::op::Data("x1");
  x1.update_input_desc_x(desc);
  x1.update_output_desc_y(desc);
  const std::vector<float> c_values = X2();
  auto c = ge::op::Const("c");
  c.set_attr_value(ge::Tensor(desc, reinterpret_cast<const uint8_t *>(c_values.data()), sizeof(float) * 8));
  c.update_output_desc_y(desc);
  auto axpy = ge::OperatorFactory::CreateOperator("axpy", "AxpyCustom");
  axpy.SetInput("x1", x1).SetInput("x2", c);
  axpy.SetAttr("alpha", kAlpha);
  ge::Graph g(kGraph);
  g.SetInputs({x1}).SetOutputs({axpy});
  return g;
}

std::vector<std::string> FilesIn(const std::string &dir) {
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

aclDataBuffer *DeviceBuffer(size_t bytes, const void *init) {
  void *p = nullptr;
  REQUIRE(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  if (init != nullptr) REQUIRE(aclrtMemcpy(p, bytes, init, bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
  return aclCreateDataBuffer(p, bytes);
}

void FreeDataset(aclmdlDataset *d) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(d); ++i) {
    aclDataBuffer *b = aclmdlGetDatasetBuffer(d, i);
    aclrtFree(aclGetDataBufferAddr(b));
    aclDestroyDataBuffer(b);
  }
  aclmdlDestroyDataset(d);
}

/// aclmdlLoadFromFile + aclmdlExecute on X1(); output 0's floats.
std::vector<float> RunWithAcl(const std::string &om) {
  uint32_t id = 0;
  REQUIRE(aclmdlLoadFromFile(om.c_str(), &id) == ACL_SUCCESS);
  const std::vector<float> x1 = X1();
  aclmdlDataset *in = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(in, DeviceBuffer(x1.size() * sizeof(float), x1.data())) == ACL_SUCCESS);
  aclmdlDataset *out = aclmdlCreateDataset();
  REQUIRE(aclmdlAddDatasetBuffer(out, DeviceBuffer(8 * sizeof(float), nullptr)) == ACL_SUCCESS);
  REQUIRE(aclmdlExecute(id, in, out) == ACL_SUCCESS);
  std::vector<float> y(8);
  REQUIRE(aclrtMemcpy(y.data(), y.size() * sizeof(float), aclGetDataBufferAddr(aclmdlGetDatasetBuffer(out, 0)),
                      y.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS);
  FreeDataset(in);
  FreeDataset(out);
  CHECK(aclmdlUnload(id) == ACL_SUCCESS);
  return y;
}

}  // namespace

TEST_CASE("ir_build: ge.externalWeight writes the weight files beside the saved OM as atc does, and it loads",
          "[ir_build]") {
  SetBuildEnvironment();
  IrOptions global{{ge::ir_option::SOC_VERSION, "host"}};
  REQUIRE(ge::aclgrphBuildInitialize(global) == ge::GRAPH_SUCCESS);
  const ge::Graph graph = ConstAxpyGraph();
  for (const std::string mode : {"1", "2"}) {
    INFO("ge.externalWeight " << mode);
    const std::string dir = MakeTempDir();
    ge::ModelBufferData model;
    REQUIRE(ge::aclgrphBuildModel(graph, IrOptions{{"ge.externalWeight", mode.c_str()}}, model) == ge::GRAPH_SUCCESS);
    const ge::ModelBufferData copy = model;  // the copy carries the weight files too
    model = ge::ModelBufferData();
    REQUIRE(mkdir((dir + "/api").c_str(), 0755) == 0);
    REQUIRE(ge::aclgrphSaveModel((dir + "/api/m").c_str(), copy) == ge::GRAPH_SUCCESS);
    const std::vector<std::string> api_files = FilesIn(dir + "/api/weight");
    REQUIRE(api_files.size() == 1);
    if (mode == "2") CHECK(api_files[0] == std::string(kGraph) + "_weight_combined");
    else CHECK(api_files[0].rfind("weight_", 0) == 0);
    CHECK(ReadText(dir + "/api/m.om") == std::string(reinterpret_cast<const char *>(copy.data.get()), copy.length));

    // atc on the graph's AIR file, named as the graph (what the OM records and mode 2 names).
    REQUIRE(mkdir((dir + "/atc").c_str(), 0755) == 0);
    REQUIRE(graph.SaveToFile((dir + "/atc/" + kGraph).c_str()) == ge::GRAPH_SUCCESS);
    const std::string script = "cd '" + dir + "/atc' && exec '" + BuildPath("bin/atc") + "' --model=" + kGraph +
                               " --framework=1 --soc_version=host --output=" + kGraph + " --external_weight=" + mode;
    auto r = RunCommand({"/bin/sh", "-c", script},
                        {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("tests/opp/axpy")}, {"SOURCE_DATE_EPOCH", kEpoch}});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(ReadText(dir + "/atc/" + kGraph + ".om") == ReadText(dir + "/api/m.om"));
    REQUIRE(FilesIn(dir + "/atc/weight") == api_files);
    CHECK(ReadText(dir + "/atc/weight/" + api_files[0]) == ReadText(dir + "/api/weight/" + api_files[0]));

    std::vector<float> want = Expected(kAlpha);
    CHECK(RunWithAcl(dir + "/api/m.om") == want);
    // The weights are read from the files: without them the OM does not load.
    REQUIRE(std::remove((dir + "/api/weight/" + api_files[0]).c_str()) == 0);
    uint32_t id = 0;
    CHECK(aclmdlLoadFromFile((dir + "/api/m.om").c_str(), &id) == ACL_ERROR_READ_MODEL_FAILURE);
    RemoveTree(dir);
  }
  ge::aclgrphBuildFinalize();
}
