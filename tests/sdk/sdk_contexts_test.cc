// The SDK surface an operator author writes against: an op with every capability compiles, its
// node maps onto its REG_OP prototype (IR vs flattened indices, defaults), and the contexts hand
// each callback the right values.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>

#include "all_capabilities_op.h"
#include "graph/utils/args_format_desc_utils.h"
#include "openatc/common/error.h"
#include "openatc/gert/frame.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/opp/capabilities.h"

using namespace openatc;

namespace {
ir::TensorDesc Desc(const std::string &name, std::vector<int64_t> shape) {
  ir::TensorDesc d;
  d.name = name;
  d.dtype = ge::DT_FLOAT;
  d.shape = shape;
  d.origin_shape = shape;
  return d;
}

// x, (absent) bias, xs0, xs1 -> y; axes = [1, 2]
ir::Node MakeNode() {
  ir::Node n;
  n.name = "all";
  n.type = "AllCapsOp";
  n.inputs = {{0, 0}, {-1, 0}, {1, 0}, {2, 0}};
  n.input_descs = {Desc("x", {2, 3}), Desc("bias", {}), Desc("xs0", {4}), Desc("xs1", {5, 6, 7})};
  n.output_descs = {Desc("y", {})};
  ir::AttrValue axes;
  axes.kind = ir::AttrKind::kListInt;
  axes.list_i = {1, 2};
  n.attrs["axes"] = axes;
  return n;
}

struct Harness {
  std::unique_ptr<gert_impl::NodeInfo> info;
  std::deque<gert::Tensor> tensors;
  gert_impl::Frame frame;
  explicit Harness(const ir::Node &node, gert_impl::Services *services) {
    info = gert_impl::BuildNodeInfo(node);
    frame.node = info.get();
    frame.services = services;
    for (size_t a : info->input_anchor) {
      tensors.emplace_back();
      gert_impl::InitTensor(tensors.back(), node.input_descs[a], nullptr, 0);
      frame.inputs.push_back(&tensors.back());
    }
    for (const auto &d : node.output_descs) {
      tensors.emplace_back();
      gert_impl::InitTensor(tensors.back(), d, nullptr, 0);
      frame.outputs.push_back(&tensors.back());
    }
  }
};

class OptionServices : public gert_impl::Services {
 public:
  bool GetOption(const std::string &key, std::string *value) override {
    if (key != "ge.socVersion") return false;
    *value = "host";
    return true;
  }
};
}  // namespace

TEST_CASE("an op with every capability is detected as all six", "[sdk]") {
  AllCapsOp op;
  CHECK(opp::DetectCapabilities(&op) == 63u);
  CHECK(opp::CapabilitiesToString(63u) ==
        "PortableOp+CompilableOp+EagerExecuteOp+AnnotatedArgsOp+ArgsUpdater+ShapeInferOp");
}

TEST_CASE("node anchors map onto the REG_OP prototype in IR order", "[sdk]") {
  auto info = gert_impl::BuildNodeInfo(MakeNode());
  REQUIRE(info->has_prototype);
  REQUIRE(info->ir_inputs.size() == 3);
  CHECK(info->ir_inputs[0].GetInstanceStart() == 0);
  CHECK(info->ir_inputs[0].GetInstanceNum() == 1);
  CHECK(info->ir_inputs[1].GetInstanceNum() == 0);  // absent optional bias
  CHECK(info->ir_inputs[2].GetInstanceStart() == 1);
  CHECK(info->ir_inputs[2].GetInstanceNum() == 2);  // xs0, xs1
  CHECK(info->input_anchor == std::vector<size_t>{0, 2, 3});
  CHECK(info->attr_names == std::vector<std::string>{"scale", "axes", "mode"});
  const gert::RuntimeAttrs *attrs = info->attrs.view();
  REQUIRE(attrs->GetAttrNum() == 3);
  CHECK(*attrs->GetFloat(0) == 2.0f);
  CHECK(attrs->GetListInt(1)->GetSize() == 2);
  CHECK(attrs->GetListInt(1)->GetData()[1] == 2);
  CHECK(std::string(attrs->GetStr(2)) == "fast");
  CHECK(attrs->GetInt(3) == nullptr);
}

TEST_CASE("InferShape and InferDataType see IR-indexed inputs", "[sdk]") {
  AllCapsOp op;
  gert_impl::Services none;
  ir::Node node = MakeNode();
  Harness h(node, &none);
  auto dt = gert_impl::ContextAccess::Make<gert::InferDataTypeContext>(&h.frame);
  REQUIRE(op.InferDataType(dt.get()) == ge::GRAPH_SUCCESS);
  CHECK(h.frame.outputs[0]->GetDataType() == ge::DT_FLOAT);
  auto sc = gert_impl::ContextAccess::Make<gert::InferShapeContext>(&h.frame);
  REQUIRE(op.InferShape(sc.get()) == ge::GRAPH_SUCCESS);
  CHECK_FALSE(op.saw_bias);
  CHECK(op.xs1_dims == 3);
  CHECK(gert_impl::FromGertShape(h.frame.outputs[0]->GetOriginShape()) == std::vector<int64_t>{2, 3, 3});
  CHECK(std::string(sc->GetNodeName()) == "all");
  CHECK(std::string(sc->GetNodeType()) == "AllCapsOp");
  CHECK(sc->GetInputShape(3) == nullptr);
  CHECK(sc->GetDynamicInputShape(2, 2) == nullptr);
  CHECK(sc->GetRequiredInputShape(1) == nullptr);  // bias is optional, not required
}

TEST_CASE("Compile sees options and attributes; Serialize/Deserialize round trip", "[sdk]") {
  AllCapsOp op;
  OptionServices services;
  ir::Node node = MakeNode();
  node.attrs["mode"].kind = ir::AttrKind::kString;
  node.attrs["mode"].s = "precise";
  Harness h(node, &services);
  auto ctx = gert_impl::ContextAccess::Make<gert::OpCompileContext>(&h.frame);
  REQUIRE(op.Compile(ctx.get()) == ge::GRAPH_SUCCESS);
  CHECK(op.soc == "host");
  CHECK(op.scale == 2.0f);
  CHECK(op.axes_seen == std::vector<int64_t>{1, 2});
  CHECK(op.mode == "precise");
  ge::AscendString missing;
  CHECK(ctx->GetOption("ge.nobody.set.this", missing) == ge::GRAPH_FAILED);
  std::vector<uint8_t> buf;
  REQUIRE(op.Serialize(buf) == ge::GRAPH_SUCCESS);
  AllCapsOp other;
  REQUIRE(other.Deserialize(buf) == ge::GRAPH_SUCCESS);
  std::vector<uint8_t> again;
  REQUIRE(other.Serialize(again) == ge::GRAPH_SUCCESS);
  CHECK(again == buf);
}

TEST_CASE("services absent in a phase fail cleanly", "[sdk]") {
  AllCapsOp op;
  gert_impl::Services none;
  ir::Node node = MakeNode();
  Harness h(node, &none);
  auto upd = gert_impl::ContextAccess::Make<gert::UpdateArgsContext>(&h.frame);
  CHECK(op.UpdateHostArgs(upd.get()) == ge::GRAPH_FAILED);
  auto ann = gert_impl::ContextAccess::Make<gert::AnnotatedArgsContext>(&h.frame);
  CHECK(op.DeclareLaunchArgs(*ann) == ge::GRAPH_FAILED);
  auto ex = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&h.frame);
  CHECK(ex->MallocOutputTensor(0, {}, {}, ge::DT_FLOAT) == nullptr);
  CHECK(ex->GetStream() == nullptr);
  gert::OpCompileContext orphan_check_compiles_only;  // contexts without a frame answer safely
  CHECK(orphan_check_compiles_only.GetInputTensor(0) == nullptr);
  CHECK(std::string(orphan_check_compiles_only.GetNodeName()).empty());
}

TEST_CASE("prototype violations are errors naming the node", "[sdk]") {
  ir::Node node = MakeNode();
  node.attrs.erase("axes");
  try {
    gert_impl::BuildNodeInfo(node);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(e.Format("t") ==
          "t: error: OA1103: node 'all' (AllCapsOp): required attribute 'axes' (ListInt) is not set. Set it in the "
          "node's attr map.");
  }
  ir::Node empty = MakeNode();
  empty.inputs.clear();
  empty.input_descs.clear();
  try {
    gert_impl::BuildNodeInfo(empty);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()).find("required input 'x' (IR index 0) of the prototype is missing") !=
          std::string::npos);
  }
}

TEST_CASE("AnnotatedKernelArgs records 8-byte slots with roles", "[sdk]") {
  int a = 0, b = 0;
  gert::AnnotatedKernelArgs args(gert::InputAddr{0U, &a}, gert::OutputAddr{1U, &b}, uint64_t{42});
  REQUIRE(args.AppendArg(gert::WorkspaceAddr{0U, nullptr}) == ge::GRAPH_SUCCESS);
  std::vector<uint8_t> data;
  std::vector<ge::ArgDesc> descs;
  REQUIRE(args.ExtractArgsData(data, descs) == ge::GRAPH_SUCCESS);
  REQUIRE(data.size() == 32);
  uint64_t slot[4];
  std::memcpy(slot, data.data(), 32);
  CHECK(slot[0] == reinterpret_cast<uintptr_t>(&a));
  CHECK(slot[1] == reinterpret_cast<uintptr_t>(&b));
  CHECK(slot[2] == 42);
  CHECK(slot[3] == 0);
  REQUIRE(descs.size() == 4);
  CHECK(descs[0].addr_type == ge::AddrType::INPUT_INSTANCE);
  CHECK(descs[1].addr_type == ge::AddrType::OUTPUT_INSTANCE);
  CHECK(descs[1].ir_idx == 1);
  CHECK(descs[2].addr_type == ge::AddrType::CUSTOM_VALUE);
  CHECK(descs[3].addr_type == ge::AddrType::WORKSPACE);
  gert::AnnotatedKernelArgs copy = args;
  std::vector<uint8_t> data2;
  REQUIRE(copy.ExtractArgsData(data2, descs) == ge::GRAPH_SUCCESS);
  CHECK(data2 == data);
  // Errors are sticky.
  gert::AnnotatedKernelArgs bad;
  CHECK(bad.AppendArg(gert::InputAddr{0x80000000U, nullptr}) != ge::GRAPH_SUCCESS);
  CHECK(bad.AppendArg(uint64_t{1}) != ge::GRAPH_SUCCESS);
  CHECK(bad.ExtractArgsData(data, descs) != ge::GRAPH_SUCCESS);
}

TEST_CASE("gert value types behave as GE documents", "[sdk]") {
  gert::Shape s{2, 3, 4};
  CHECK(s.GetShapeSize() == 24);
  CHECK(gert::Shape{}.GetShapeSize() == 1);
  CHECK(gert::Shape{}.IsScalar());
  gert::Shape big{INT64_MAX, 2};
  CHECK(big.GetShapeSize() == gert::Shape::kInvalidDimValue);
  CHECK(s.GetDim(30) == gert::Shape::kInvalidDimValue);
  gert::Shape t;
  t.SetDim(1, 5);  // GE quirk: only raises the count to idx
  CHECK(t.GetDimNum() == 1);
  gert::StorageShape ss({1, 2}, {3});
  CHECK(ss.GetShape().GetDimNum() == 2);
  CHECK(ss.GetStorageShape().GetDimNum() == 1);
  gert::Tensor tensor({{4, 4}, {4, 4}}, {ge::FORMAT_ND, ge::FORMAT_ND, {}}, gert::kOnHost, ge::DT_FLOAT16, nullptr);
  CHECK(tensor.GetSize() == 32);
  CHECK(tensor.GetShapeSize() == 16);
  size_t total = 0;
  auto holder = gert::Tensor::CreateFollowing(3, ge::DT_INT32, total);
  REQUIRE(holder != nullptr);
  CHECK(total == sizeof(gert::Tensor) + 12);
  auto *ft = reinterpret_cast<gert::Tensor *>(holder.get());
  CHECK(ft->GetAddr() == holder.get() + sizeof(gert::Tensor));
  CHECK(gert::ExpandDimsType("1010").IsExpandIndex(2));
}
