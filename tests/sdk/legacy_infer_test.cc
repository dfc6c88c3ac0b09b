// Legacy IMPL_OP inference (openatc/gert/legacy_infer.h): the hooks an IMPL_OP registration
// leaves are found by op type, and without an InferDataType hook output dtypes follow the REG_OP
// prototype (DATATYPE symbols written as in GE's samples, INPUT(x, "T"); a single-dtype
// TensorType; InferOutDataTypeSameWithFirstInput).
#include <catch2/catch.hpp>

#include <deque>

#include "graph/operator_reg.h"
#include "openatc/gert/frame.h"
#include "openatc/gert/legacy_infer.h"
#include "openatc/gert/tensor_convert.h"
#include "register/op_impl_registry.h"

namespace ge {
REG_OP(LegacySymOp)
    .INPUT(a, TensorType({DT_INT32}))
    .INPUT(x, "T")
    .INPUT(y, "T")
    .OUTPUT(z, "T")
    .OUTPUT(w, TensorType({DT_INT64}))
    .OUTPUT(v, TensorType({DT_FLOAT, DT_FLOAT16}))
    .DATATYPE(T, TensorType({DT_FLOAT16, DT_FLOAT}))
    .OP_END_FACTORY_REG(LegacySymOp);
}  // namespace ge

namespace {
ge::graphStatus InferLegacyShape(gert::InferShapeContext *ctx) {
  *ctx->GetOutputShape(0) = *ctx->GetInputShape(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace

IMPL_OP(LegacySymOp).InferShape(InferLegacyShape);
IMPL_OP(LegacySameOp).InferOutDataTypeSameWithFirstInput();

using namespace openatc;

namespace {
ir::TensorDesc Desc(ge::DataType dt, std::vector<int64_t> shape) {
  ir::TensorDesc d;
  d.dtype = dt;
  d.shape = shape;
  d.origin_shape = shape;
  return d;
}

struct Harness {
  std::unique_ptr<gert_impl::NodeInfo> info;
  std::deque<gert::Tensor> tensors;
  gert_impl::Frame frame;
  Harness(const std::string &type, std::vector<ir::TensorDesc> ins, size_t outs) {
    ir::Node n;
    n.name = "n";
    n.type = type;
    for (size_t i = 0; i < ins.size(); ++i) n.inputs.push_back({static_cast<int32_t>(i), 0});
    n.input_descs = ins;
    n.output_descs.assign(outs, ir::TensorDesc());
    info = gert_impl::BuildNodeInfo(n);
    frame.node = info.get();
    for (const auto &d : n.input_descs) {
      tensors.emplace_back();
      gert_impl::InitTensor(tensors.back(), d, nullptr, 0);
      frame.inputs.push_back(&tensors.back());
    }
    for (const auto &d : n.output_descs) {
      tensors.emplace_back();
      gert_impl::InitTensor(tensors.back(), d, nullptr, 0);
      frame.outputs.push_back(&tensors.back());
    }
  }
};
}  // namespace

TEST_CASE("legacy infer: IMPL_OP hooks are found by op type", "[legacy_infer]") {
  gert_impl::LegacyInferHooks h;
  REQUIRE(gert_impl::FindLegacyInferHooks("LegacySymOp", &h));
  CHECK(h.infer_shape == &InferLegacyShape);
  CHECK(h.infer_datatype == nullptr);
  CHECK_FALSE(h.dtype_same_as_first_input);
  REQUIRE(gert_impl::FindLegacyInferHooks("LegacySameOp", &h));
  CHECK(h.infer_shape == nullptr);
  CHECK(h.dtype_same_as_first_input);
  CHECK_FALSE(gert_impl::FindLegacyInferHooks("NoSuchLegacyOp", &h));
}

TEST_CASE("legacy infer: output dtypes from the prototype's symbols and single-dtype types", "[legacy_infer]") {
  Harness hs("LegacySymOp", {Desc(ge::DT_INT32, {2}), Desc(ge::DT_FLOAT16, {8, 2048}), Desc(ge::DT_FLOAT16, {1, 2048})},
             3);
  gert_impl::InferDataTypesFromPrototype(hs.frame, false);
  CHECK(hs.frame.outputs[0]->GetDataType() == ge::DT_FLOAT16);  // z: "T" = dtype of x (first T input)
  CHECK(hs.frame.outputs[1]->GetDataType() == ge::DT_INT64);    // w: TensorType({DT_INT64})
  CHECK(hs.frame.outputs[2]->GetDataType() == ge::DT_UNDEFINED);  // v: two dtypes, undecidable
}

TEST_CASE("legacy infer: InferOutDataTypeSameWithFirstInput copies input 0's dtype", "[legacy_infer]") {
  Harness hs("LegacySameOp", {Desc(ge::DT_INT8, {3}), Desc(ge::DT_FLOAT, {3})}, 2);
  gert_impl::InferDataTypesFromPrototype(hs.frame, true);
  CHECK(hs.frame.outputs[0]->GetDataType() == ge::DT_INT8);
  CHECK(hs.frame.outputs[1]->GetDataType() == ge::DT_INT8);
}

TEST_CASE("legacy infer: a type without a prototype keeps its outputs", "[legacy_infer]") {
  Harness hs("NoPrototypeOp", {Desc(ge::DT_FLOAT, {3})}, 1);
  gert_impl::InferDataTypesFromPrototype(hs.frame, false);
  CHECK(hs.frame.outputs[0]->GetDataType() == ge::DT_UNDEFINED);
}
