// The shape arithmetic of a model with run-time shapes (loader/runtime/src/shape_value_cache.h), on an
// ONNX model written here: x [-1, 4] float, y = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [2], [2]))
// = x as [batch, 2, 2]; z = Relu(x) (a tensor op: never kept). Shape, Gather, Unsqueeze and Concat are
// the shape arithmetic; they run when the batch changes and are reused while it stays. Without a
// memory plan the Reshape's output is its input's bytes (ops/common/movement.h Input0AsOutput0).
#include <catch2/catch.hpp>
#include <cstring>
#include <map>

#include "e2e_util.h"
#include "float_tensors.h"
#include "onnx_builder.h"
#include "openatc/runtime/model.h"

using namespace openatc;
using namespace openatc::testing;

namespace {

std::string Model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  onnx::GraphProto *g = m.mutable_graph();
  g->set_name("shape_arithmetic");
  *g->add_input() = Value("x", onnx::TensorProto::FLOAT, {std::string("batch"), int64_t{4}});
  *g->add_initializer() = Int64Init("zero", {}, {0});
  *g->add_initializer() = Int64Init("axes", {1}, {0});
  *g->add_initializer() = Int64Init("two", {1}, {2});
  *g->add_node() = Node("Shape", {"x"}, {"shape"}, "shape");
  *g->add_node() = Node("Gather", {"shape", "zero"}, {"batch"}, "batch");
  *g->add_node() = Node("Unsqueeze", {"batch", "axes"}, {"batch1"}, "batch1");
  *g->add_node() = Node("Concat", {"batch1", "two", "two"}, {"target"}, "target", {onnx::MakeAttribute("axis", int64_t{0})});
  *g->add_node() = Node("Reshape", {"x", "target"}, {"y"}, "y");
  *g->add_node() = Node("Relu", {"x"}, {"z"}, "z");
  *g->add_output() = Value("y", onnx::TensorProto::FLOAT, {std::string("batch"), int64_t{2}, int64_t{2}});
  *g->add_output() = Value("z", onnx::TensorProto::FLOAT, {std::string("batch"), int64_t{4}});
  std::string bytes;
  m.SerializeToString(&bytes);
  return bytes;
}

HostTensor Input(int64_t batch, float first) {
  std::vector<float> v;
  for (int64_t i = 0; i < batch * 4; ++i) v.push_back(first - static_cast<float>(i));
  return FloatTensor({batch, 4}, v);
}

}  // namespace

TEST_CASE("shape arithmetic runs when the shapes it reads change and is reused while they stay", "[runtime]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/m.onnx", Model());
  auto atc = RunAtc({"--model", dir + "/m.onnx", "--soc_version", "host", "--output", dir + "/m"}, "");
  REQUIRE(atc.exit_code == 0);
  auto m = runtime::LoadModelFile(dir + "/m.om");
  CHECK(m->shape_nodes() == 4);  // Shape, Gather, Unsqueeze, Concat; not Reshape (a tensor input) nor Relu

  // Batches in order, and the reuses expected after each run: a new batch runs all four nodes
  // (Shape reads new dims, the rest depend on it), a repeated batch reuses all four.
  const std::vector<std::pair<int64_t, size_t>> runs = {{1, 0}, {2, 0}, {2, 4}, {2, 8}, {1, 8}, {3, 8}, {3, 12}, {1, 12}};
  float first = 10;
  for (const auto &[batch, reuses] : runs) {
    INFO("batch " << batch);
    const HostTensor x = Input(batch, first);
    const auto out = m->Run({x});
    REQUIRE(out.size() == 2);
    CHECK(out[0].shape == std::vector<int64_t>{batch, 2, 2});
    CHECK(FloatsOf(out[0]) == FloatsOf(x));  // a Reshape keeps the values in order
    std::vector<float> relu = FloatsOf(x);
    for (float &v : relu) v = v > 0 ? v : 0;
    CHECK(out[1].shape == std::vector<int64_t>{batch, 4});
    CHECK(FloatsOf(out[1]) == relu);
    CHECK(m->shape_node_reuses() == reuses);
    first += 1;  // other data each run: only shapes decide
  }
  RemoveTree(dir);
}

namespace {
// Records, per node, whether its output 0 has the data address of its input 0.
struct ViewWatcher : runtime::NodeObserver {
  std::map<std::string, bool> same;
  const runtime::LoadedModel *model = nullptr;
  void Started(size_t) override {}
  void Finished(size_t i, const std::vector<runtime::TensorView> &ins,
                const std::vector<runtime::TensorView> &outs) override {
    if (!ins.empty() && !outs.empty()) same[model->model().graph.nodes[i].name] = ins[0].data == outs[0].data;
  }
};
}  // namespace

TEST_CASE("a Reshape without a memory plan is a view of its input; with a plan it copies", "[runtime]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/m.onnx", Model());
  for (const bool planned : {false, true}) {
    INFO((planned ? "static" : "run-time shapes"));
    std::vector<std::string> args = {"--model", dir + "/m.onnx", "--soc_version", "host", "--output", dir + "/m"};
    if (planned) args.push_back("--input_shape=x:3,4");
    REQUIRE(RunAtc(args, "").exit_code == 0);
    auto m = runtime::LoadModelFile(dir + "/m.om");
    ViewWatcher watch;
    watch.model = m.get();
    m->set_node_observer(&watch);
    const HostTensor x = Input(3, 5);
    const auto out = m->Run({x});
    REQUIRE(out.size() == 2);
    CHECK(out[0].shape == std::vector<int64_t>{3, 2, 2});
    CHECK(FloatsOf(out[0]) == FloatsOf(x));
    REQUIRE(watch.same.count("y"));
    CHECK(watch.same["y"] == !planned);
    CHECK_FALSE(watch.same["z"]);  // Relu writes its own output
  }
  RemoveTree(dir);
}
