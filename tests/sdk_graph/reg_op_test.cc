// REG_OP prototypes (docs/custom-op-lifecycle.md §4): FindOpPrototype, OperatorFactory, chained
// setters, dynamic instances, attributes, IMPL_OP, and the error paths of Operator.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "graph/operator_reg.h"
#include "openatc/register/attr_value.h"
#include "openatc/register/op_impl.h"
#include "openatc/register/op_prototype.h"
#include "ops_proto_legacy.h"
#include "register/op_impl_registry.h"

namespace ge {
REG_OP(AddCustom)
    .INPUT(x1, TensorType({DT_FLOAT, DT_FLOAT16}))
    .INPUT(x2, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16}))
    .OP_END_FACTORY_REG(AddCustom);

REG_OP(EveryKind)
    .INPUT(a, TensorType::ALL())
    .OPTIONAL_INPUT(b, TensorType({DT_INT32}))
    .DYNAMIC_INPUT(c, T)
    .INPUT(d, T)
    .OUTPUT(y, T)
    .DYNAMIC_OUTPUT(z, TensorType::FLOAT())
    .REQUIRED_ATTR(axis, Int)
    .ATTR(alpha, Float, 0.5)
    .ATTR(mode, String, "fast")
    .ATTR(flag, Bool, true)
    .ATTR(dims, ListInt, {1, 2, 3})
    .ATTR(names, ListString, {"p", "q"})
    .ATTR(dtype, Type, DT_INT64)
    .ATTR(value, Tensor, Tensor())
    .ATTR(lfloat, ListFloat, {1.5f})
    .ATTR(blob, Bytes, std::vector<uint8_t>{7, 8})
    .ATTR(llint, ListListInt, {{1}, {2, 3}})
    .ATTR(ltype, ListType, {DT_FLOAT})
    .ATTR(lbool, ListBool, {true, false})
    .ATTR(astr, AscendString, "as")
    .DATATYPE(T, TensorType({DT_FLOAT, DT_INT32}))
    .GRAPH(then_branch)
    .DYNAMIC_GRAPH(branches)
    .OP_END_FACTORY_REG(EveryKind);
}  // namespace ge

namespace {
using openatc::reg::FindOpPrototype;
using openatc::reg::IrInputKind;
using openatc::reg::IrOutputKind;
using openatc::reg::LastSdkError;

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

// Exposes Operator's protected registration methods to reach their error paths.
struct Probe : ge::op::EveryKind {
  Probe() : ge::op::EveryKind("probe") {}
  using ge::Operator::CreateDynamicInput;
  using ge::Operator::InputRegister;
};

uint32_t InferAddShape(gert::InferShapeContext *) { return 0U; }
uint32_t InferAddDtype(gert::InferDataTypeContext *) { return 0U; }
}  // namespace

IMPL_OP(AddCustom).InferShape(InferAddShape).InferDataType(InferAddDtype).InputsDataDependency({1});

TEST_CASE("sdk_graph: AddCustom prototype", "[reg_op]") {
  const auto *p = FindOpPrototype("AddCustom");
  REQUIRE(p != nullptr);
  CHECK(p->op_type == "AddCustom");
  REQUIRE(p->inputs.size() == 2U);
  CHECK(p->inputs[0] == std::make_pair(std::string("x1"), IrInputKind::kRequired));
  CHECK(p->inputs[1] == std::make_pair(std::string("x2"), IrInputKind::kRequired));
  REQUIRE(p->outputs.size() == 1U);
  CHECK(p->outputs[0] == std::make_pair(std::string("y"), IrOutputKind::kRequired));
  CHECK(p->attrs.empty());
  CHECK(p->input_type_exprs[0] == "TensorType({DT_FLOAT, DT_FLOAT16})");
  CHECK(FindOpPrototype("NoSuchOp") == nullptr);
  const auto types = openatc::reg::RegisteredPrototypeTypes();
  CHECK(std::is_sorted(types.begin(), types.end()));
  for (const char *t : {"AddCustom", "EveryKind", "Data", "Const"}) {
    CHECK(std::find(types.begin(), types.end(), t) != types.end());
  }
}

TEST_CASE("sdk_graph: every REG_OP item kind lands in the prototype", "[reg_op]") {
  const auto *p = FindOpPrototype("EveryKind");
  REQUIRE(p != nullptr);
  const std::vector<std::pair<std::string, IrInputKind>> inputs = {
      {"a", IrInputKind::kRequired}, {"b", IrInputKind::kOptional}, {"c", IrInputKind::kDynamic}, {"d", IrInputKind::kRequired}};
  CHECK(p->inputs == inputs);
  const std::vector<std::pair<std::string, IrOutputKind>> outputs = {{"y", IrOutputKind::kRequired},
                                                                      {"z", IrOutputKind::kDynamic}};
  CHECK(p->outputs == outputs);
  CHECK(p->input_type_exprs == std::vector<std::string>{"TensorType::ALL()", "TensorType({DT_INT32})", "T", "T"});
  CHECK(p->output_type_exprs == std::vector<std::string>{"T", "TensorType::FLOAT()"});
  REQUIRE(p->datatype_syms.count("T") == 1U);
  CHECK(p->datatype_syms.at("T") == std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_INT32});
  CHECK(p->subgraphs == std::vector<std::pair<std::string, bool>>{{"then_branch", false}, {"branches", true}});

  struct Expect {
    const char *name, *type;
    bool required;
    const char *text;
  };
  const std::vector<Expect> expect = {
      {"axis", "Int", true, ""},
      {"alpha", "Float", false, "0.5"},
      {"mode", "String", false, "\"fast\""},
      {"flag", "Bool", false, "true"},
      {"dims", "ListInt", false, "[1, 2, 3]"},
      {"names", "ListString", false, "[\"p\", \"q\"]"},
      {"dtype", "Type", false, "DT_INT64"},
      {"value", "Tensor", false, "tensor(DT_FLOAT, [], 0 bytes)"},
      {"lfloat", "ListFloat", false, "[1.5]"},
      {"blob", "Bytes", false, "bytes(2)"},
      {"llint", "ListListInt", false, "[[1], [2, 3]]"},
      {"ltype", "ListType", false, "[DT_FLOAT]"},
      {"lbool", "ListBool", false, "[true, false]"},
      {"astr", "AscendString", false, "\"as\""},
  };
  REQUIRE(p->attrs.size() == expect.size());
  for (size_t i = 0; i < expect.size(); ++i) {
    INFO("attr " << i);
    CHECK(p->attrs[i].name == expect[i].name);
    CHECK(p->attrs[i].type == expect[i].type);
    CHECK(p->attrs[i].required == expect[i].required);
    CHECK(p->attrs[i].default_text == expect[i].text);
  }
  CHECK(std::holds_alternative<std::monostate>(p->attrs[0].default_value));
  CHECK(std::get<float>(p->attrs[1].default_value) == 0.5f);
  CHECK(std::get<std::vector<int64_t>>(p->attrs[4].default_value) == std::vector<int64_t>{1, 2, 3});
  CHECK(std::get<std::vector<uint8_t>>(p->attrs[9].default_value) == std::vector<uint8_t>{7, 8});
}

TEST_CASE("sdk_graph: Data and Const prototypes of ops_proto_legacy.h", "[reg_op]") {
  const auto *data = FindOpPrototype("Data");
  REQUIRE(data != nullptr);
  CHECK(data->inputs == std::vector<std::pair<std::string, IrInputKind>>{{"x", IrInputKind::kRequired}});
  CHECK(data->outputs == std::vector<std::pair<std::string, IrOutputKind>>{{"y", IrOutputKind::kRequired}});
  REQUIRE(data->attrs.size() == 1U);
  CHECK(data->attrs[0].name == "index");
  CHECK(std::get<int64_t>(data->attrs[0].default_value) == 0);
  const auto *c = FindOpPrototype("Const");
  REQUIRE(c != nullptr);
  CHECK(c->inputs.empty());
  REQUIRE(c->attrs.size() == 1U);
  CHECK(c->attrs[0].type == "Tensor");
}

TEST_CASE("sdk_graph: OperatorFactory creates registered ops by name", "[reg_op]") {
  ge::Operator op = ge::OperatorFactory::CreateOperator("add9", "AddCustom");
  REQUIRE_FALSE(op.IsEmpty());
  ge::AscendString name, type;
  CHECK(op.GetName(name) == ge::GRAPH_SUCCESS);
  CHECK(op.GetOpType(type) == ge::GRAPH_SUCCESS);
  CHECK(name == "add9");
  CHECK(type == "AddCustom");
  CHECK(op.GetInputsSize() == 2U);
  CHECK(op.GetOutputsSize() == 1U);
  CHECK(ge::OperatorFactory::IsExistOp("AddCustom"));
  CHECK_FALSE(ge::OperatorFactory::IsExistOp("NoSuchOp"));
  std::vector<ge::AscendString> all;
  CHECK(ge::OperatorFactory::GetOpsTypeList(all) == ge::GRAPH_SUCCESS);
  CHECK(std::find(all.begin(), all.end(), ge::AscendString("EveryKind")) != all.end());

  const ge::Operator missing = ge::OperatorFactory::CreateOperator("n1", "NoSuchOp");
  CHECK(missing.IsEmpty());
  CHECK(Contains(LastSdkError(), "no REG_OP prototype is registered for op type 'NoSuchOp' (node 'n1')"));
}

TEST_CASE("sdk_graph: a later registration of a type does not replace the first", "[reg_op]") {
  const ge::OperatorCreatorRegister again("AddCustom", [](const ge::AscendString &n) {
    return ge::Operator(n.GetString(), "SomethingElse");
  });
  ge::AscendString type;
  (void)ge::OperatorFactory::CreateOperator("a", "AddCustom").GetOpType(type);
  CHECK(type == "AddCustom");
  const ge::OperatorCreatorRegister empty_type("", [](const ge::AscendString &) { return ge::Operator(); });
  CHECK(Contains(LastSdkError(), "OperatorCreatorRegister: the op type is empty; registration ignored"));
  const ge::OperatorCreatorRegister null_creator("NullCreatorOp", ge::OpCreatorV2());
  CHECK(Contains(LastSdkError(), "the creator of 'NullCreatorOp' is empty"));
  CHECK(FindOpPrototype("NullCreatorOp") == nullptr);
  const ge::OperatorCreatorRegister throwing("ThrowingOp", [](const ge::AscendString &) -> ge::Operator {
    throw std::runtime_error("boom");
  });
  CHECK(Contains(LastSdkError(), "the REG_OP creator of op type 'ThrowingOp' threw: boom"));
  CHECK(FindOpPrototype("ThrowingOp") == nullptr);
}

TEST_CASE("sdk_graph: attribute accessors", "[reg_op]") {
  ge::op::EveryKind op("ek");
  CHECK(op.get_attr_alpha() == 0.5f);
  CHECK(op.get_attr_mode() == "fast");
  CHECK(op.get_attr_flag());
  CHECK(op.get_attr_dims() == std::vector<int64_t>{1, 2, 3});
  CHECK(op.get_attr_names() == std::vector<std::string>{"p", "q"});
  CHECK(op.get_attr_dtype() == ge::DT_INT64);
  CHECK(op.get_attr_astr() == "as");
  op.set_attr_mode("slow").set_attr_alpha(2.0f).set_attr_axis(-1);
  CHECK(op.get_attr_mode() == "slow");
  ge::AscendString mode;
  CHECK(op.get_attr_mode(mode) == ge::GRAPH_SUCCESS);
  CHECK(mode == "slow");
  op.set_attr_mode(std::string("std"));
  CHECK(op.get_attr_mode() == "std");
  op.set_attr_names(std::vector<ge::AscendString>{"u"});
  std::vector<ge::AscendString> names;
  CHECK(op.get_attr_names(names) == ge::GRAPH_SUCCESS);
  CHECK(names == std::vector<ge::AscendString>{"u"});
  CHECK(op.get_attr_alpha() == 2.0f);
  CHECK(op.get_attr_axis() == -1);
  ge::AscendString n;
  ge::op::EveryKind::name_attr_alpha(n);
  CHECK(n == "alpha");
  CHECK(ge::op::EveryKind::name_in_c() == "c");
  CHECK(ge::op::EveryKind::name_out_z() == "z");

  int32_t i32 = 0;
  CHECK(op.GetAttr("axis", i32) == ge::GRAPH_SUCCESS);
  CHECK(i32 == -1);
  op.SetAttr("big", int64_t{1} << 40);
  CHECK(op.GetAttr("big", i32) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "attribute 'big' = 1099511627776 does not fit the requested integer type"));
  uint32_t u32 = 0;
  CHECK(op.GetAttr("axis", u32) == ge::GRAPH_FAILED);
  float f = 0;
  CHECK(op.GetAttr("mode", f) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "attribute 'mode' of node 'ek' (op type EveryKind) holds another type (value \"std\")"));

  ge::op::EveryKind fresh("fresh");
  CHECK(fresh.get_attr_axis() == 0);  // required attr never set: value-initialised
  CHECK(Contains(LastSdkError(), "node 'fresh' (op type EveryKind) has no attribute 'axis'"));
  fresh.SetAttr("s", static_cast<const char *>(nullptr));
  CHECK(Contains(LastSdkError(), "Operator::SetAttr('s'): the string value is null"));
  CHECK_FALSE(fresh.HasAttr("s"));
  fresh.SetAttr("", int64_t{1});
  CHECK(Contains(LastSdkError(), "the attribute name is empty on node 'fresh'"));
}

TEST_CASE("sdk_graph: dynamic inputs and outputs", "[reg_op]") {
  ge::op::Data data("data");
  ge::op::Data other("other");
  ge::op::EveryKind op("ek");
  CHECK(op.GetInputsSize() == 3U);  // a, b, d
  op.create_dynamic_input_c(2).create_dynamic_output_z(3);
  CHECK(op.GetInputsSize() == 5U);
  CHECK(op.GetOutputsSize() == 4U);
  op.set_dynamic_input_c(1, data);
  const ge::TensorDesc d8(ge::Shape({8}), ge::FORMAT_ND, ge::DT_INT32);
  CHECK(op.update_dynamic_input_desc_c(1, d8) == ge::GRAPH_SUCCESS);
  CHECK(op.get_dynamic_input_desc_c(1).GetShape().GetDims() == std::vector<int64_t>{8});
  // Inserting before instance 0 renumbers: old c0 -> c1, old c1 -> c2.
  op.create_dynamic_input_byindex_c(1, 0);
  CHECK(op.GetInputsSize() == 6U);
  CHECK(op.get_dynamic_input_desc_c(2).GetDataType() == ge::DT_INT32);
  CHECK(op.get_dynamic_input_desc_c(2).GetShape().GetDims() == std::vector<int64_t>{8});
  // Flattened order keeps IR order: a, b, c0, c1, c2, d.
  CHECK(op.GetInputDesc(4).GetShape().GetDims() == std::vector<int64_t>{8});
  op.set_dynamic_input_c(0, other);
  CHECK(op.update_dynamic_output_desc_z(2, d8) == ge::GRAPH_SUCCESS);
  CHECK(op.GetOutputDesc(3).GetDataType() == ge::DT_INT32);

  op.create_dynamic_input_byindex_c(1, 99);
  CHECK(Contains(LastSdkError(), "create_dynamic_input_byindex: index 99 is past the 3 existing instances of 'c'"));
  Probe probe;
  probe.CreateDynamicInput("a", 1, true);
  CHECK(Contains(LastSdkError(), "'a' is not a dynamic input of node 'probe' (op type EveryKind)"));
  probe.InputRegister("a", "T");
  CHECK(Contains(LastSdkError(), "REG_OP(EveryKind): input 'a' is declared twice"));
  CHECK(probe.update_dynamic_input_desc_c(0, d8) == ge::GRAPH_FAILED);
  CHECK(Contains(LastSdkError(), "has no input named 'c0'"));
}

TEST_CASE("sdk_graph: subgraph builders", "[reg_op]") {
  ge::op::EveryKind op("ek");
  CHECK(op.GetSubgraphNamesCount() == 2U);
  op.set_subgraph_builder_then_branch([]() { return ge::Graph("then"); });
  ge::AscendString name;
  CHECK(op.get_subgraph_then_branch().GetName(name) == ge::GRAPH_SUCCESS);
  CHECK(name == "then");
  op.set_dynamic_subgraph_builder_branches(0, []() { return ge::Graph("b0"); });
  CHECK(Contains(LastSdkError(), "subgraph 'branches' of node 'ek' (op type EveryKind) has 0 instances"));
  op.create_dynamic_subgraph_branches(2).set_dynamic_subgraph_builder_branches(1, []() { return ge::Graph("b1"); });
  CHECK(op.get_dynamic_subgraph_branches(1).GetName(name) == ge::GRAPH_SUCCESS);
  CHECK(name == "b1");
  CHECK_FALSE(op.get_dynamic_subgraph_branches(0).IsValid());
  CHECK_FALSE(static_cast<bool>(op.GetSubgraphBuilder("nope")));
  CHECK(Contains(LastSdkError(), "declares no subgraph 'nope'"));
}

TEST_CASE("sdk_graph: IMPL_OP records its hooks", "[reg_op]") {
  openatc::reg::OpImplFuncs f;
  REQUIRE(openatc::reg::FindOpImpl("AddCustom", &f));
  CHECK(f.infer_shape == &InferAddShape);
  CHECK(f.infer_datatype == &InferAddDtype);
  CHECK(f.inputs_data_dependency == std::vector<int32_t>{1});
  CHECK_FALSE(f.output_dtype_same_as_first_input);
  CHECK_FALSE(openatc::reg::FindOpImpl("NoSuchOp", &f));
  const gert::OpImplRegisterV2 empty(static_cast<const char *>(nullptr));
  CHECK(Contains(LastSdkError(), "IMPL_OP: the op type is empty; registration ignored"));
}
