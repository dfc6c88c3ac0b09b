// ONNX control flow, sequences and optionals end to end in-process: ONNX model built in memory ->
// front end -> CompileGraph with the built-in OPP root -> OM bytes -> reader -> runtime, with
// hand-computed expected values. Also: a subgraph survives the OM round trip and the file asks
// for a 1.3 reader (openatc/ir/control_flow.h, om_format/FORMAT.md).
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>

#include "onnx_builder.h"
#include "openatc/common/error.h"
#include "openatc/common/target.h"
#include "openatc/compiler/compiler.h"
#include "openatc/frontend/onnx_reader.h"
#include "openatc/ir/control_flow.h"
#include "openatc/om/model.h"
#include "openatc/opp/deliverable.h"
#include "openatc/runtime/model.h"
#include "op_harness.h"
#include "run_command.h"

using namespace openatc;
using namespace openatc::testing;
using TP = onnx::TensorProto;

namespace {

om::Model Compile(const onnx::ModelProto &m) {
  onnx::ModelProto copy = m;
  ir::Graph g = frontend::ReadOnnxBytes(copy.SerializeAsString(), "", "cf.onnx");
  compiler::CompileOptions opts;
  opts.target = HostTarget();
  opts.model_path = "cf.onnx";
  return compiler::CompileGraph(std::move(g), opts, BuiltinOppSet());
}

// Compile -> serialise -> read back -> load -> run.
std::vector<HostTensor> CompileAndRun(const onnx::ModelProto &m, const std::vector<HostTensor> &inputs) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(Compile(m)));
  om::Model back = om::ReadBytes(bytes->data(), bytes->size(), bytes);
  auto loaded = runtime::LoadedModel::Load(std::move(back), "cf.om");
  return loaded->Run(inputs);
}

onnx::AttributeProto GraphAttr(const std::string &name, const onnx::GraphProto &g) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::GRAPH);
  *a.mutable_g() = g;
  return a;
}
onnx::AttributeProto IntAttr(const std::string &name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}

onnx::GraphProto Graph(const std::string &name, const std::vector<onnx::ValueInfoProto> &in,
                       const std::vector<onnx::ValueInfoProto> &out, const std::vector<onnx::NodeProto> &nodes) {
  onnx::GraphProto g;
  g.set_name(name);
  for (const auto &v : in) *g.add_input() = v;
  for (const auto &v : out) *g.add_output() = v;
  for (const auto &n : nodes) *g.add_node() = n;
  return g;
}

template <typename T>
HostTensor Make(ge::DataType dt, std::vector<int64_t> shape, const std::vector<T> &v) {
  HostTensor t;
  t.dtype = dt;
  t.shape = std::move(shape);
  t.data.resize(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}
template <typename T>
std::vector<T> Vals(const HostTensor &t) {
  std::vector<T> v(t.data.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), t.data.size());
  return v;
}

// Loop over i = 0..N-1: s += i + one (`one` an outer-scope initializer), scan output s each trip.
onnx::ModelProto SumLoop() {
  onnx::GraphProto body = Graph(
      "sum_body",
      {Value("i", TP::INT64, {}), Value("c", TP::BOOL, {}), Value("s", TP::INT64, {})},
      {Value("c_out", TP::BOOL, {}), Value("s_out", TP::INT64, {}), Value("s_scan", TP::INT64, {})},
      {Node("Add", {"i", "one"}, {"i1"}, "inc"), Node("Add", {"s", "i1"}, {"s_out"}, "acc"),
       Node("Identity", {"c"}, {"c_out"}, "keep"), Node("Identity", {"s_out"}, {"s_scan"}, "emit")});
  ModelSpec s;
  s.opset = 13;
  s.inputs = {Value("n", TP::INT64, {}), Value("s0", TP::INT64, {})};
  s.outputs = {Value("sum", TP::INT64, {}), Value("partial", TP::INT64, {std::string("T")})};
  s.initializers = {Int64Init("one", {}, {1})};
  s.nodes = {Node("Loop", {"n", "", "s0"}, {"sum", "partial"}, "loop", {GraphAttr("body", body)})};
  return MakeModel(s);
}

}  // namespace

TEST_CASE("control flow: Loop sums 1..N with a loop-carried value, a scan output and an outer-scope value") {
  const auto out = CompileAndRun(SumLoop(), {Make<int64_t>(ge::DT_INT64, {}, {4}), Make<int64_t>(ge::DT_INT64, {}, {0})});
  REQUIRE(out.size() == 2);
  CHECK(Vals<int64_t>(out[0]) == std::vector<int64_t>{10});
  CHECK(out[1].shape == std::vector<int64_t>{4});
  CHECK(Vals<int64_t>(out[1]) == std::vector<int64_t>{1, 3, 6, 10});
  // Zero trips: the initial value comes back and the scan output is empty.
  const auto none = CompileAndRun(SumLoop(), {Make<int64_t>(ge::DT_INT64, {}, {0}), Make<int64_t>(ge::DT_INT64, {}, {7})});
  CHECK(Vals<int64_t>(none[0]) == std::vector<int64_t>{7});
  CHECK(none[1].shape == std::vector<int64_t>{0});
}

TEST_CASE("control flow: If picks a branch that reads an outer-scope value") {
  onnx::GraphProto then_g = Graph("then", {}, {Value("y_then", TP::FLOAT, {int64_t{3}})}, {Node("Add", {"x", "w"}, {"y_then"}, "add")});
  onnx::GraphProto else_g = Graph("else", {}, {Value("y_else", TP::FLOAT, {int64_t{3}})}, {Node("Mul", {"x", "w"}, {"y_else"}, "mul")});
  ModelSpec s;
  s.inputs = {Value("c", TP::BOOL, {}), Value("x", TP::FLOAT, {int64_t{3}})};
  s.outputs = {Value("y", TP::FLOAT, {int64_t{3}})};
  s.initializers = {FloatInit("w", {3}, {10.0f, 20.0f, 30.0f})};
  s.nodes = {Node("If", {"c"}, {"y"}, "if", {GraphAttr("then_branch", then_g), GraphAttr("else_branch", else_g)})};
  const onnx::ModelProto m = MakeModel(s);
  const HostTensor x = Make<float>(ge::DT_FLOAT, {3}, {1.0f, 2.0f, 3.0f});
  auto yes = CompileAndRun(m, {Make<uint8_t>(ge::DT_BOOL, {}, {1}), x});
  CHECK(Vals<float>(yes[0]) == std::vector<float>{11.0f, 22.0f, 33.0f});
  auto no = CompileAndRun(m, {Make<uint8_t>(ge::DT_BOOL, {}, {0}), x});
  CHECK(Vals<float>(no[0]) == std::vector<float>{10.0f, 40.0f, 90.0f});
}

TEST_CASE("control flow: Scan-9 keeps a running sum along axis 0") {
  onnx::GraphProto body = Graph("scan_body", {Value("acc", TP::FLOAT, {int64_t{2}}), Value("row", TP::FLOAT, {int64_t{2}})},
                                {Value("acc_out", TP::FLOAT, {int64_t{2}}), Value("row_out", TP::FLOAT, {int64_t{2}})},
                                {Node("Add", {"acc", "row"}, {"acc_out"}, "add"), Node("Identity", {"acc_out"}, {"row_out"}, "id")});
  ModelSpec s;
  s.opset = 11;
  s.inputs = {Value("init", TP::FLOAT, {int64_t{2}}), Value("xs", TP::FLOAT, {int64_t{3}, int64_t{2}})};
  s.outputs = {Value("final", TP::FLOAT, {int64_t{2}}), Value("ys", TP::FLOAT, {int64_t{3}, int64_t{2}})};
  s.nodes = {Node("Scan", {"init", "xs"}, {"final", "ys"}, "scan", {GraphAttr("body", body), IntAttr("num_scan_inputs", 1)})};
  auto out = CompileAndRun(MakeModel(s), {Make<float>(ge::DT_FLOAT, {2}, {0.5f, 0.0f}),
                                          Make<float>(ge::DT_FLOAT, {3, 2}, {1, 2, 3, 4, 5, 6})});
  CHECK(Vals<float>(out[0]) == std::vector<float>{9.5f, 12.0f});
  CHECK(out[1].shape == std::vector<int64_t>{3, 2});
  CHECK(Vals<float>(out[1]) == std::vector<float>{1.5f, 2.0f, 4.5f, 6.0f, 9.5f, 12.0f});
}

TEST_CASE("sequences: SequenceConstruct / Insert / At / Length / ConcatFromSequence round trip") {
  ModelSpec s;
  s.inputs = {Value("a", TP::FLOAT, {int64_t{2}}), Value("b", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("second", TP::FLOAT, {int64_t{2}}), Value("len", TP::INT64, {}),
               Value("joined", TP::FLOAT, {int64_t{6}})};
  s.initializers = {Int64Init("pos", {}, {-2}), Int64Init("front", {}, {0})};
  s.nodes = {Node("SequenceConstruct", {"a", "b"}, {"seq"}, "make"),
             Node("SequenceInsert", {"seq", "b", "front"}, {"seq3"}, "insert"),  // [b, a, b]
             Node("SequenceAt", {"seq3", "pos"}, {"second"}, "at"),            // a
             Node("SequenceLength", {"seq3"}, {"len"}, "len"),
             Node("ConcatFromSequence", {"seq3"}, {"joined"}, "cat", {IntAttr("axis", 0)})};
  auto out = CompileAndRun(MakeModel(s), {Make<float>(ge::DT_FLOAT, {2}, {1, 2}), Make<float>(ge::DT_FLOAT, {2}, {3, 4})});
  CHECK(Vals<float>(out[0]) == std::vector<float>{1, 2});
  CHECK(Vals<int64_t>(out[1]) == std::vector<int64_t>{3});
  CHECK(Vals<float>(out[2]) == std::vector<float>{3, 4, 1, 2, 3, 4});
}

TEST_CASE("optionals: Optional wraps a tensor; OptionalHasElement and OptionalGetElement read it") {
  ModelSpec s;
  s.opset = 18;
  s.ir_version = 8;
  s.inputs = {Value("x", TP::FLOAT, {int64_t{2}})};
  s.outputs = {Value("has", TP::BOOL, {}), Value("y", TP::FLOAT, {int64_t{2}})};
  s.nodes = {Node("Optional", {"x"}, {"ox"}, "wrap"), Node("OptionalHasElement", {"ox"}, {"has"}, "has"),
             Node("OptionalGetElement", {"ox"}, {"y"}, "get")};
  auto out = CompileAndRun(MakeModel(s), {Make<float>(ge::DT_FLOAT, {2}, {5, -6})});
  CHECK(Vals<uint8_t>(out[0]) == std::vector<uint8_t>{1});
  CHECK(Vals<float>(out[1]) == std::vector<float>{5, -6});
}

TEST_CASE("OM: a subgraph survives write and read, and the file needs a 1.3 reader") {
  const om::Model m = Compile(SumLoop());
  auto bytes = om::Serialize(m);
  om::Model back = om::ReadBytes(bytes.data(), bytes.size());
  CHECK(back.min_reader_major == 1);
  CHECK(back.min_reader_minor == 3);  // a 1.2 reader (1.3 > 1.2) refuses the file
  const ir::Node *loop = nullptr;
  for (const auto &n : back.graph.nodes)
    if (n.type == "Loop") loop = &n;
  REQUIRE(loop != nullptr);
  const ir::AttrValue &body = loop->attrs.at("body");
  REQUIRE(body.kind == ir::AttrKind::kGraph);
  REQUIRE(body.g != nullptr);
  CHECK(ir::CapturedInputs(*loop) == 1);     // `one`
  CHECK(body.g->inputs.size() == 3 + 1);      // i, cond, s, then the captured `one`
  CHECK(body.g->outputs.size() == 3);
  const ir::Graph &orig = *m.graph.nodes[static_cast<size_t>(m.graph.FindNode("loop"))].attrs.at("body").g;
  REQUIRE(body.g->nodes.size() == orig.nodes.size());
  for (size_t k = 0; k < orig.nodes.size(); ++k) {
    CHECK(body.g->nodes[k].name == orig.nodes[k].name);
    CHECK(body.g->nodes[k].type == orig.nodes[k].type);
    CHECK(body.g->nodes[k].inputs == orig.nodes[k].inputs);
  }
  // Same model, same bytes (the subgraph's weights and descs are written deterministically).
  CHECK(om::Serialize(m) == bytes);
}

namespace {

// A value-info of type sequence(tensor(elem)) or optional(tensor(elem)) / optional(sequence(...)).
onnx::ValueInfoProto SeqValue(const std::string &name, int32_t elem) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  v.mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type()->set_elem_type(elem);
  return v;
}
onnx::ValueInfoProto OptValue(const std::string &name, int32_t elem, bool of_seq) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto *inner = v.mutable_type()->mutable_optional_type()->mutable_elem_type();
  if (of_seq) inner = inner->mutable_sequence_type()->mutable_elem_type();
  inner->mutable_tensor_type()->set_elem_type(elem);
  return v;
}

std::unique_ptr<runtime::LoadedModel> Load(const onnx::ModelProto &m) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(Compile(m)));
  om::Model back = om::ReadBytes(bytes->data(), bytes->size(), bytes);
  return runtime::LoadedModel::Load(std::move(back), "cf.om");
}

HostValue SeqOf(std::vector<HostTensor> ts) {
  HostValue v;
  v.kind = ir::ValueKind::kSequence;
  v.seq = std::move(ts);
  return v;
}

// seq (input) -> SequenceInsert(x at front) -> seq out; SequenceLength -> len out.
onnx::ModelProto InsertModel() {
  ModelSpec s;
  s.opset = 13;
  s.inputs = {SeqValue("seq", TP::FLOAT), Value("x", TP::FLOAT, {int64_t{2}})};
  s.outputs = {SeqValue("out", TP::FLOAT), Value("len", TP::INT64, {})};
  s.initializers = {Int64Init("front", {}, {0})};
  s.nodes = {Node("SequenceInsert", {"seq", "x", "front"}, {"out"}, "insert"),
             Node("SequenceLength", {"out"}, {"len"}, "len")};
  return MakeModel(s);
}

}  // namespace

TEST_CASE("model I/O: a sequence input and output run through RunValues") {
  auto m = Load(InsertModel());
  REQUIRE(m->has_value_io());
  REQUIRE(m->inputs().size() == 2);
  CHECK(m->inputs()[0].value_kind == ir::ValueKind::kSequence);
  CHECK(m->inputs()[0].dtype == ge::DT_FLOAT);
  CHECK(m->inputs()[0].bytes == 0);
  CHECK(m->inputs()[1].value_kind == ir::ValueKind::kTensor);
  CHECK(m->outputs()[0].value_kind == ir::ValueKind::kSequence);
  const HostTensor a = Make<float>(ge::DT_FLOAT, {1}, {1}), b = Make<float>(ge::DT_FLOAT, {3}, {2, 3, 4});
  const HostTensor x = Make<float>(ge::DT_FLOAT, {2}, {-1, -2});
  auto out = m->RunValues({SeqOf({a, b}), TensorHostValue(x)});
  REQUIRE(out.size() == 2);
  CHECK(out[0].kind == ir::ValueKind::kSequence);
  REQUIRE(out[0].seq.size() == 3);  // [x, a, b]
  CHECK(Vals<float>(out[0].seq[0]) == std::vector<float>{-1, -2});
  CHECK(Vals<float>(out[0].seq[1]) == std::vector<float>{1});
  CHECK(out[0].seq[2].shape == std::vector<int64_t>{3});
  CHECK(Vals<float>(out[0].seq[2]) == std::vector<float>{2, 3, 4});
  CHECK(out[1].kind == ir::ValueKind::kTensor);
  CHECK(Vals<int64_t>(out[1].tensor) == std::vector<int64_t>{3});
  // The empty sequence is a sequence too.
  auto empty = m->RunValues({SeqOf({}), TensorHostValue(x)});
  CHECK(empty[0].seq.size() == 1);
  CHECK(Vals<int64_t>(empty[1].tensor) == std::vector<int64_t>{1});
}

TEST_CASE("model I/O: wrong kinds and dtypes are refused naming the input; Run refuses such a model") {
  auto m = Load(InsertModel());
  const HostTensor x = Make<float>(ge::DT_FLOAT, {2}, {-1, -2});
  auto code_of = [&](const std::function<void()> &fn) {
    try {
      fn();
    } catch (const Error &e) {
      return e.code() + " " + e.message();
    }
    return std::string("no error");
  };
  const std::string tensor_for_seq = code_of([&] { m->RunValues({TensorHostValue(x), TensorHostValue(x)}); });
  CHECK(tensor_for_seq.rfind("OA2202", 0) == 0);
  CHECK(tensor_for_seq.find("input 0 ('seq') is a sequence of float32 tensors but a tensor was given") != std::string::npos);
  const std::string seq_for_tensor = code_of([&] { m->RunValues({SeqOf({}), SeqOf({x})}); });
  CHECK(seq_for_tensor.rfind("OA2202", 0) == 0);
  CHECK(seq_for_tensor.find("input 1 ('x')") != std::string::npos);
  const std::string elem_dtype =
      code_of([&] { m->RunValues({SeqOf({Make<int32_t>(ge::DT_INT32, {1}, {1})}), TensorHostValue(x)}); });
  CHECK(elem_dtype.rfind("OA2202", 0) == 0);
  CHECK(elem_dtype.find("element 0 is int32") != std::string::npos);
  const std::string plain_run = code_of([&] { m->Run({x, x}); });
  CHECK(plain_run.rfind("OA2202", 0) == 0);
  CHECK(plain_run.find("input 0 ('seq') is a sequence of float32 tensors but a single tensor was given") != std::string::npos);
}

TEST_CASE("model I/O: optional inputs (None and present) and an optional output") {
  // has = OptionalHasElement(o); y = Optional(x) passes through as an optional output.
  ModelSpec s;
  s.opset = 18;
  s.ir_version = 8;
  s.inputs = {OptValue("o", TP::FLOAT, false), Value("x", TP::FLOAT, {int64_t{1}})};
  s.outputs = {Value("has", TP::BOOL, {}), OptValue("y", TP::FLOAT, false)};
  s.nodes = {Node("OptionalHasElement", {"o"}, {"has"}, "has"), Node("Optional", {"x"}, {"y"}, "wrap")};
  auto m = Load(MakeModel(s));
  CHECK(m->inputs()[0].value_kind == ir::ValueKind::kOptionalTensor);
  CHECK(m->outputs()[1].value_kind == ir::ValueKind::kOptionalTensor);
  HostValue none;
  none.kind = ir::ValueKind::kOptionalTensor;
  none.present = false;
  const HostTensor x = Make<float>(ge::DT_FLOAT, {1}, {2.5f});
  auto out = m->RunValues({none, TensorHostValue(x)});
  CHECK(Vals<uint8_t>(out[0].tensor) == std::vector<uint8_t>{0});
  CHECK(out[1].kind == ir::ValueKind::kOptionalTensor);
  CHECK(out[1].present);
  CHECK(Vals<float>(out[1].tensor) == std::vector<float>{2.5f});
  // A plain tensor for an optional tensor input is a present value.
  auto given = m->RunValues({TensorHostValue(x), TensorHostValue(x)});
  CHECK(Vals<uint8_t>(given[0].tensor) == std::vector<uint8_t>{1});
}

TEST_CASE("model I/O: Identity passes a sequence through (ONNX Identity-14 takes sequences)") {
  ModelSpec s;
  s.opset = 16;
  s.inputs = {SeqValue("seq", TP::INT64)};
  s.outputs = {SeqValue("same", TP::INT64)};
  s.nodes = {Node("Identity", {"seq"}, {"same"}, "id")};
  auto m = Load(MakeModel(s));
  CHECK(m->outputs()[0].value_kind == ir::ValueKind::kSequence);
  auto out = m->RunValues({SeqOf({Make<int64_t>(ge::DT_INT64, {2}, {7, -7}), Make<int64_t>(ge::DT_INT64, {}, {9})})});
  REQUIRE(out[0].seq.size() == 2);
  CHECK(Vals<int64_t>(out[0].seq[0]) == std::vector<int64_t>{7, -7});
  CHECK(out[0].seq[1].shape.empty());
  CHECK(Vals<int64_t>(out[0].seq[1]) == std::vector<int64_t>{9});
}
