// Compile-time constant folding of built-in ops (issue 5): a Shape -> Gather -> Unsqueeze ->
// Concat chain feeding a Reshape folds into one Const so the Reshape gets a static shape and the
// model a memory plan; all-Const built-in ops fold; custom ops, ops over Data inputs and outputs
// beyond the size guard do not; dead nodes are removed with indices renumbered. Expected values
// are computed by hand in each case.
#include <catch2/catch.hpp>

#include <cstring>

#include "openatc/compiler/compiler.h"
#include "openatc/om/model.h"
#include "openatc/opp/deliverable.h"
#include "openatc/runtime/model.h"
#include "pass_graph_builder.h"
#include "run_command.h"

using namespace openatc;

namespace {

const opp::CompileOppSet &Opp() {
  // The axpy test deliverable (a custom op) first, then the built-in package, as atc loads them.
  static opp::CompileOppSet *set = [] {
    auto *s = new opp::CompileOppSet();
    s->Load({testing::BuildPath("tests/opp/axpy")}, testing::BuildPath("opp/built-in"));
    return s;
  }();
  return *set;
}

using pass_test::Builder;
using pass_test::Int;
using pass_test::Named;

om::Model Compile(ir::Graph g) {
  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.model_path = "<folding test>";
  return compiler::CompileGraph(std::move(g), opts, Opp());
}

std::unique_ptr<runtime::LoadedModel> Load(const om::Model &m) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(m));
  return runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<folding test>");
}

template <typename T>
HostTensor Host(ge::DataType dt, std::vector<int64_t> shape, const std::vector<T> &v) {
  HostTensor t;
  t.dtype = dt;
  t.shape = shape;
  t.data.resize(v.size() * sizeof(T));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

template <typename T>
std::vector<T> Values(const HostTensor &t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  std::memcpy(v.data(), t.data.data(), v.size() * sizeof(T));
  return v;
}

template <typename T>
std::vector<T> ConstValues(const ir::Node &n) {
  REQUIRE(n.type == ir::kConst);
  const ir::ConstTensor &t = *n.attrs.at("value").t;
  std::vector<T> v(t.data.size / sizeof(T));
  std::memcpy(v.data(), t.data.data, v.size() * sizeof(T));
  return v;
}

}  // namespace

TEST_CASE("a Shape->Gather->Unsqueeze->Concat chain folds and Reshape gets a static shape and a plan",
          "[compiler][folding]") {
  Builder b;
  const int32_t x = b.Data("x", ge::DT_FLOAT, {2, 3, 4});
  const int32_t shape = b.Op("shape", "Shape", {x});
  const int32_t idx = b.Const<int64_t>("idx", ge::DT_INT64, {}, {0});
  const int32_t gather = b.Op("gather", "Gather", {shape, idx}, {{"axis", Int(0)}});
  const int32_t axes = b.Const<int64_t>("axes", ge::DT_INT64, {1}, {0});
  const int32_t unsq = b.Op("unsqueeze", "Unsqueeze", {gather, axes});
  const int32_t minus1 = b.Const<int64_t>("minus1", ge::DT_INT64, {1}, {-1});
  const int32_t concat = b.Op("concat", "Concat", {unsq, minus1}, {{"axis", Int(0)}});
  const int32_t reshape = b.Op("reshape", "Reshape", {x, concat});
  const int32_t relu = b.Op("relu", "Relu", {reshape});
  b.Output({relu});
  REQUIRE(b.g.nodes.size() == 11);

  om::Model m = Compile(std::move(b.g));
  const ir::Graph &g = m.graph;
  // Left: x, the folded concat (a Const [2, -1]), reshape, relu, NetOutput.
  CHECK(g.nodes.size() == 5);
  for (const char *gone : {"shape", "idx", "gather", "axes", "unsqueeze", "minus1"}) CHECK(g.FindNode(gone) < 0);
  CHECK(ConstValues<int64_t>(Named(g, "concat")) == std::vector<int64_t>{2, -1});
  CHECK(Named(g, "concat").inputs.empty());
  const ir::Node &r = Named(g, "reshape");
  CHECK(r.output_descs[0].shape == std::vector<int64_t>{2, 12});
  CHECK(r.inputs[1].node == g.FindNode("concat"));
  CHECK(r.inputs[0].node == g.FindNode("x"));
  // A static plan: the reshape output (not a graph output) has an arena offset.
  CHECK(r.plan.output_offsets == std::vector<int64_t>{0});
  CHECK(Named(g, "relu").output_descs[0].shape == std::vector<int64_t>{2, 12});

  auto model = Load(m);
  CHECK(model->arena_bytes() > 0);
  std::vector<float> in(24), want(24);
  for (int i = 0; i < 24; ++i) {
    in[static_cast<size_t>(i)] = static_cast<float>(i - 12);
    want[static_cast<size_t>(i)] = i < 12 ? 0.0f : static_cast<float>(i - 12);
  }
  auto out = model->Run({Host<float>(ge::DT_FLOAT, {2, 3, 4}, in)});
  REQUIRE(out.size() == 1);
  CHECK(out[0].shape == std::vector<int64_t>{2, 12});
  CHECK(Values<float>(out[0]) == want);
}

TEST_CASE("an all-Const Add folds; a Mul over a Data input does not", "[compiler][folding]") {
  Builder b;
  const int32_t y = b.Data("y", ge::DT_FLOAT, {2});
  const int32_t c1 = b.Const<float>("c1", ge::DT_FLOAT, {2}, {1.0f, 2.0f});
  const int32_t c2 = b.Const<float>("c2", ge::DT_FLOAT, {2}, {10.0f, 20.0f});
  const int32_t add = b.Op("add", "Add", {c1, c2});
  const int32_t mul = b.Op("mul", "Mul", {y, add});
  b.Output({mul, add});
  om::Model m = Compile(std::move(b.g));
  const ir::Graph &g = m.graph;
  CHECK(g.nodes.size() == 4);  // y, add (Const), mul, NetOutput
  CHECK(g.FindNode("c1") < 0);
  CHECK(g.FindNode("c2") < 0);
  CHECK(ConstValues<float>(Named(g, "add")) == std::vector<float>{11.0f, 22.0f});
  CHECK(Named(g, "mul").type == "Mul");
  CHECK(g.outputs[1].node == g.FindNode("add"));

  auto out = Load(m)->Run({Host<float>(ge::DT_FLOAT, {2}, {3.0f, 4.0f})});
  REQUIRE(out.size() == 2);
  CHECK(Values<float>(out[0]) == std::vector<float>{33.0f, 88.0f});
  CHECK(Values<float>(out[1]) == std::vector<float>{11.0f, 22.0f});  // a graph output that is a Const
}

TEST_CASE("a custom op over Const inputs is never folded", "[compiler][folding]") {
  CHECK(compiler::BuiltinFoldOptions(Opp()).op_types.count("Add") == 1);
  CHECK(compiler::BuiltinFoldOptions(Opp()).op_types.count("AxpyCustom") == 0);
  Builder b;
  const int32_t y = b.Data("y", ge::DT_FLOAT, {2});
  const int32_t c1 = b.Const<float>("c1", ge::DT_FLOAT, {2}, {1.0f, 2.0f});
  const int32_t c2 = b.Const<float>("c2", ge::DT_FLOAT, {2}, {10.0f, 20.0f});
  ir::AttrValue alpha;
  alpha.kind = ir::AttrKind::kFloat;
  alpha.f = 2.0f;
  const int32_t axpy = b.Op("axpy", "AxpyCustom", {c1, c2}, {{"alpha", alpha}});
  const int32_t add = b.Op("add", "Add", {y, axpy});
  b.Output({add});
  om::Model m = Compile(std::move(b.g));
  const ir::Graph &g = m.graph;
  CHECK(g.nodes.size() == 6);  // nothing folded, nothing removed
  CHECK(Named(g, "axpy").type == "AxpyCustom");
  auto out = Load(m)->Run({Host<float>(ge::DT_FLOAT, {2}, {0.5f, 0.25f})});
  REQUIRE(out.size() == 1);
  CHECK(Values<float>(out[0]) == std::vector<float>{12.5f, 24.25f});  // 0.5 + (2*1 + 10), 0.25 + (2*2 + 20)
}

TEST_CASE("Shape over a run-time shape is not folded", "[compiler][folding]") {
  Builder b;
  const int32_t x = b.Data("x", ge::DT_FLOAT, {-1, 3});
  const int32_t shape = b.Op("shape", "Shape", {x});
  b.Output({shape});
  om::Model m = Compile(std::move(b.g));
  CHECK(Named(m.graph, "shape").type == "Shape");
  auto out = Load(m)->Run({Host<float>(ge::DT_FLOAT, {4, 3}, std::vector<float>(12, 1.0f))});
  REQUIRE(out.size() == 1);
  CHECK(Values<int64_t>(out[0]) == std::vector<int64_t>{4, 3});
}

TEST_CASE("the size guard: small outputs, or outputs no larger than their Const inputs, fold", "[compiler][folding]") {
  Builder b;
  const int32_t y = b.Data("y", ge::DT_FLOAT, {1});
  // 128 x 256 float32 = 128 KiB from a 16-byte input: over 64 KiB, not folded.
  const int32_t big_shape = b.Const<int64_t>("big_shape", ge::DT_INT64, {2}, {128, 256});
  const int32_t big = b.Op("big", "ConstantOfShape", {big_shape});
  // 64 x 256 float32 = 64 KiB exactly: folded.
  const int32_t small_shape = b.Const<int64_t>("small_shape", ge::DT_INT64, {2}, {64, 256});
  const int32_t small = b.Op("small", "ConstantOfShape", {small_shape});
  // Transpose of a 200 x 100 float32 Const (80000 bytes): over 64 KiB but no larger than its input.
  std::vector<float> w(20000);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);
  const int32_t weight = b.Const<float>("weight", ge::DT_FLOAT, {200, 100}, w);
  ir::AttrValue perm;
  perm.kind = ir::AttrKind::kListInt;
  perm.list_i = {1, 0};
  const int32_t tr = b.Op("transpose", "Transpose", {weight}, {{"perm", perm}});
  const int32_t a1 = b.Op("a1", "Add", {y, big});
  const int32_t a2 = b.Op("a2", "Add", {y, small});
  const int32_t a3 = b.Op("a3", "Add", {y, tr});
  b.Output({a1, a2, a3});
  om::Model m = Compile(std::move(b.g));
  const ir::Graph &g = m.graph;
  CHECK(Named(g, "big").type == "ConstantOfShape");
  CHECK(g.FindNode("big_shape") >= 0);
  CHECK(Named(g, "small").type == ir::kConst);
  CHECK(Named(g, "small").attrs.at("value").t->data.size == 65536);
  CHECK(g.FindNode("small_shape") < 0);
  CHECK(Named(g, "transpose").type == ir::kConst);
  CHECK(Named(g, "transpose").output_descs[0].shape == std::vector<int64_t>{100, 200});
  CHECK(g.FindNode("weight") < 0);  // dead once its only consumer folded: the OM does not grow
  auto out = Load(m)->Run({Host<float>(ge::DT_FLOAT, {1}, {1.0f})});
  REQUIRE(out.size() == 3);
  CHECK(out[0].shape == std::vector<int64_t>{128, 256});
  CHECK(Values<float>(out[0]) == std::vector<float>(128 * 256, 1.0f));
  CHECK(Values<float>(out[1]) == std::vector<float>(64 * 256, 1.0f));
  const std::vector<float> t = Values<float>(out[2]);
  REQUIRE(t.size() == 20000);
  // out[i][j] = 1 + w[j][i] = 1 + (j * 100 + i)
  CHECK(t[0] == 1.0f);
  CHECK(t[1] == 101.0f);       // i = 0, j = 1
  CHECK(t[200] == 2.0f);       // i = 1, j = 0
  CHECK(t[19999] == 20000.0f);  // i = 99, j = 199: 1 + 19999
}

TEST_CASE("an output used only as a weight folds past the size guard; one also used otherwise does not",
          "[compiler][folding]") {
  // ConstantOfShape(value 0.5) -> W [32, 16, 6, 6] float32 = 73728 bytes (> 64 KiB) of Conv 'conv'
  // only: folded (onnx-light's models make every weight this way). The same-sized 'w2' also
  // feeds an Add: not folded.
  Builder b;
  const int32_t x = b.Data("x", ge::DT_FLOAT, {1, 16, 6, 6});
  ir::AttrValue half;
  half.kind = ir::AttrKind::kTensor;
  half.t = std::make_shared<ir::ConstTensor>();
  half.t->desc.dtype = ge::DT_FLOAT;
  half.t->desc.shape = {1};
  const float v = 0.5f;
  half.t->data = ir::Bytes::Copy(&v, sizeof(v));
  const int32_t wshape = b.Const<int64_t>("wshape", ge::DT_INT64, {4}, {32, 16, 6, 6});
  const int32_t w = b.Op("w", "ConstantOfShape", {wshape}, {{"value", half}});
  const int32_t conv = b.Op("conv", "Conv", {x, w});
  const int32_t wshape2 = b.Const<int64_t>("wshape2", ge::DT_INT64, {4}, {32, 16, 6, 6});
  const int32_t w2 = b.Op("w2", "ConstantOfShape", {wshape2}, {{"value", half}});
  const int32_t conv2 = b.Op("conv2", "Conv", {x, w2});
  const int32_t other = b.Op("other", "Add", {w2, w2});
  b.Output({conv, conv2, other});
  om::Model m = Compile(std::move(b.g));
  CHECK(Named(m.graph, "w").type == ir::kConst);
  CHECK(Named(m.graph, "w").attrs.at("value").t->data.size == 73728);
  CHECK(Named(m.graph, "w2").type == "ConstantOfShape");
  std::vector<float> ones(16 * 36, 1.0f);
  auto out = Load(m)->Run({Host<float>(ge::DT_FLOAT, {1, 16, 6, 6}, ones)});
  REQUIRE(out.size() == 3);
  // Each output element: 16 channels x 36 taps x 1 x 0.5 = 288.
  CHECK(out[0].shape == std::vector<int64_t>{1, 32, 1, 1});
  CHECK(Values<float>(out[0]) == std::vector<float>(32, 288.0f));
  CHECK(Values<float>(out[1]) == std::vector<float>(32, 288.0f));
  CHECK(Values<float>(out[2]) == std::vector<float>(32 * 16 * 36, 1.0f));
}

TEST_CASE("RemoveDeadNodes drops dead Consts and built-in ops, keeps Data, custom ops and outputs",
          "[compiler][folding]") {
  Builder b;
  const int32_t x = b.Data("x", ge::DT_FLOAT, {2});
  const int32_t unused = b.Data("unused", ge::DT_FLOAT, {2});
  const int32_t dead_c = b.Const<float>("dead_c", ge::DT_FLOAT, {1}, {1.0f});
  const int32_t dead_op = b.Op("dead_op", "Relu", {dead_c});
  const int32_t custom_c = b.Const<float>("custom_c", ge::DT_FLOAT, {1}, {2.0f});
  const int32_t custom = b.Op("custom", "SomeCustomOp", {custom_c});  // dead but custom: kept
  const int32_t live = b.Op("live", "Relu", {x});
  b.g.nodes[static_cast<size_t>(live)].control_inputs = {unused};
  b.Output({live});
  (void)dead_op;
  (void)custom;
  ir::Graph g = std::move(b.g);
  CHECK(compiler::RemoveDeadNodes(g, {"Relu"}) == 2);
  REQUIRE(g.nodes.size() == 6);
  CHECK(g.FindNode("dead_c") < 0);
  CHECK(g.FindNode("dead_op") < 0);
  CHECK(g.FindNode("custom_c") == 2);
  CHECK(g.nodes[3].name == "custom");
  CHECK(g.nodes[3].inputs[0].node == 2);
  CHECK(g.nodes[4].name == "live");
  CHECK(g.nodes[4].inputs[0].node == x);
  CHECK(g.nodes[4].control_inputs == std::vector<int32_t>{unused});
  CHECK(g.inputs == std::vector<int32_t>{0, 1});
  CHECK(g.outputs[0].node == 4);
  CHECK(g.nodes[5].inputs[0].node == 4);
  CHECK(compiler::RemoveDeadNodes(g, {"Relu"}) == 0);
}

TEST_CASE("--oo_constant_folding=false and --oo_dead_code_elimination=false turn the passes off",
          "[compiler][folding]") {
  auto build = [] {
    Builder b;
    const int32_t y = b.Data("y", ge::DT_FLOAT, {2});
    const int32_t c1 = b.Const<float>("c1", ge::DT_FLOAT, {2}, {1.0f, 2.0f});
    const int32_t c2 = b.Const<float>("c2", ge::DT_FLOAT, {2}, {10.0f, 20.0f});
    const int32_t add = b.Op("add", "Add", {c1, c2});
    b.Const<float>("dead", ge::DT_FLOAT, {1}, {0.0f});
    b.Output({b.Op("mul", "Mul", {y, add})});
    return std::move(b.g);
  };
  compiler::CompileOptions opts;
  opts.target = openatc::HostTarget();
  opts.ge_options["ge.oo.constantFolding"] = "false";
  om::Model off = compiler::CompileGraph(build(), opts, Opp());
  CHECK(off.graph.nodes.size() == 7);
  CHECK(Named(off.graph, "add").type == "Add");
  opts.ge_options["ge.oo.constantFolding"] = "true";
  opts.ge_options["ge.oo.deadCodeElimination"] = "false";
  om::Model no_dce = compiler::CompileGraph(build(), opts, Opp());
  CHECK(no_dce.graph.nodes.size() == 7);  // c1, c2 and dead stay
  CHECK(Named(no_dce.graph, "add").type == ir::kConst);
  auto out = Load(off)->Run({Host<float>(ge::DT_FLOAT, {2}, {3.0f, 4.0f})});
  CHECK(Values<float>(out[0]) == std::vector<float>{33.0f, 88.0f});
  out = Load(no_dce)->Run({Host<float>(ge::DT_FLOAT, {2}, {3.0f, 4.0f})});
  CHECK(Values<float>(out[0]) == std::vector<float>{33.0f, 88.0f});
}
