// A model's runs reuse one set of value slots (loader/runtime/src/executor.cc RunSlots): a run that
// fails half-way gives its slots back released, and the runs after it are unaffected. Model
// (ONNX, written here): x [batch, 2] float, axes [1] int64 (a model input, so the graph has
// run-time shapes); m = Mul(x, w) with w = [2, 3]; y = ReduceSum(m, axes, keepdims 0).
#include <catch2/catch.hpp>

#include <cstring>

#include "e2e_util.h"
#include "float_tensors.h"
#include "onnx_builder.h"
#include "openatc/common/error.h"
#include "openatc/runtime/model.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
std::string Model() {
  ModelSpec spec;
  spec.inputs = {Value("x", onnx::TensorProto::FLOAT, {std::string("batch"), int64_t{2}}),
                 Value("axes", onnx::TensorProto::INT64, {int64_t{1}})};
  spec.initializers = {FloatInit("w", {2}, {2, 3})};
  spec.nodes = {Node("Mul", {"x", "w"}, {"m"}, "m"),
                Node("ReduceSum", {"m", "axes"}, {"y"}, "y", {onnx::MakeAttribute("keepdims", int64_t{0})})};
  spec.outputs = {Value("y", onnx::TensorProto::FLOAT, {std::string("n")})};
  std::string bytes;
  MakeModel(spec).SerializeToString(&bytes);
  return bytes;
}

HostTensor X(const std::vector<float> &v) { return FloatTensor({static_cast<int64_t>(v.size() / 2), 2}, v); }
HostTensor Axes(int64_t a) {
  HostTensor t;
  t.dtype = ge::DT_INT64;
  t.shape = {1};
  t.data.resize(8);
  std::memcpy(t.data.data(), &a, 8);
  return t;
}
}  // namespace

TEST_CASE("a run that fails half-way leaves the model's next runs unaffected", "[runtime]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/m.onnx", Model());
  auto atc = RunAtc({"--model", dir + "/m.onnx", "--soc_version", "host", "--output", dir + "/m"}, "");
  INFO(atc.err);
  REQUIRE(atc.exit_code == 0);
  auto m = runtime::LoadModelFile(dir + "/m.om");
  // rows of x * [2, 3] summed: [1*2 + 2*3, 3*2 + 4*3] = [8, 18]
  CHECK(FloatsOf(m->Run({X({1, 2, 3, 4}), Axes(1)})[0]) == std::vector<float>{8, 18});
  // The Mul runs, then the ReduceSum refuses axis 5 (rank 2): the run fails after a node ran.
  CHECK_THROWS_AS(m->Run({X({1, 2, 3, 4, 5, 6}), Axes(5)}), Error);
  // columns summed over three rows: [(1 + 3 + 5) * 2, (2 + 4 + 6) * 3] = [18, 36]
  CHECK(FloatsOf(m->Run({X({1, 2, 3, 4, 5, 6}), Axes(0)})[0]) == std::vector<float>{18, 36});
  CHECK(FloatsOf(m->Run({X({1, 2, 3, 4}), Axes(-1)})[0]) == std::vector<float>{8, 18});
  RemoveTree(dir);
}
