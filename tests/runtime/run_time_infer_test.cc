// A model with run-time shapes infers each custom node's output shapes before its Execute, as GE
// does, unless the node's deliverable declares that Execute sizes the outputs itself
// (OpenAtcDeliverableExecuteSizesOutputs, include/graph/custom_op_pull_registry.h). The test
// deliverable's InferFlagOp adds 1 to its input when InferShape ran since its previous Execute
// (tests/deliverables/run_time_infer/infer_flag_op.cc).
#include <catch2/catch.hpp>

#include "e2e_util.h"
#include "float_tensors.h"
#include "openatc/runtime/model.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
HostTensor Rows(int64_t rows, float first) {
  std::vector<float> v;
  for (int64_t i = 0; i < rows * 2; ++i) v.push_back(first + static_cast<float>(i));
  return FloatTensor({rows, 2}, v);
}

// The outputs of three runs (1, 3 and 2 rows) of InferFlagOp on x [-1, 2] compiled against `root`.
std::vector<std::vector<float>> ThreeRuns(const std::string &root) {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("InferFlagOp", {-1, 2}));
  auto r = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                  BuildPath("tests/opp/" + root));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto m = runtime::LoadModelFile(dir + "/m.om");
  std::vector<std::vector<float>> out;
  for (const HostTensor &x : {Rows(1, 10), Rows(3, 20), Rows(2, 30)}) {
    const std::vector<HostTensor> y = m->Run({x});
    REQUIRE(y.size() == 1);
    CHECK(y[0].shape == x.shape);
    out.push_back(FloatsOf(y[0]));
  }
  RemoveTree(dir);
  return out;
}
}  // namespace

TEST_CASE("a dynamic model's run infers a custom node's shapes before Execute", "[runtime]") {
  CHECK(ThreeRuns("run_time_infer") == std::vector<std::vector<float>>{
                                           {11, 12}, {21, 22, 23, 24, 25, 26}, {31, 32, 33, 34}});
}

TEST_CASE("a deliverable whose Execute sizes its outputs gets no run-time InferShape", "[runtime]") {
  CHECK(ThreeRuns("run_time_infer_sized") == std::vector<std::vector<float>>{
                                                 {10, 11}, {20, 21, 22, 23, 24, 25}, {30, 31, 32, 33}});
}
