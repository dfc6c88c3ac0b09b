// ge::Session on the host target: AddGraph -> CompileGraph -> LoadGraph ->
// ExecuteGraphWithStreamAsync with a built-in op and with test deliverables, RunGraph's eager and
// sink paths, and a CompilableOp without PortableOp that atc refuses but the session runs.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "acl/acl_rt.h"
#include "e2e_util.h"
#include "graph/operator_factory.h"
#include "graph/operator_reg.h"
#include "ops_proto_legacy.h"
#include "session_util.h"

// Prototypes of test-deliverable ops that ship none (the graph API needs one to name inputs).
namespace ge {
REG_OP(ExecuteCountOp).INPUT(x, TensorType({DT_FLOAT})).OUTPUT(y, TensorType({DT_FLOAT})).OP_END_FACTORY_REG(ExecuteCountOp);
}  // namespace ge

using namespace openatc::testing;

TEST_CASE("a built-in op graph compiles, loads and runs on caller buffers that change between runs", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "1"}});
  // Both Data nodes keep index 0: GE numbers them in SetInputs order (x is input 0).
  auto x = FloatData("x", {2, 3});
  auto y = FloatData("y", {2, 3});
  auto add = ge::OperatorFactory::CreateOperator("add", "Add");
  add.SetInput("A", x).SetInput("B", y);
  auto graph = MakeGraph("add_graph", {x, y}, {add});
  REQUIRE(session.AddGraph(1, graph) == ge::SUCCESS);
  REQUIRE(session.CompileGraph(1) == ge::SUCCESS);
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  REQUIRE(session.LoadGraph(1, {}, stream) == ge::SUCCESS);

  std::vector<float> xs[2] = {{1, 2, 3, 4, 5, 6}, {10, 20, 30, 40, 50, 60}};
  std::vector<float> ys[2] = {{0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}, {-1, -2, -3, -4, -5, -6}};
  std::vector<float> zs[2] = {std::vector<float>(6, -1.0f), std::vector<float>(6, -1.0f)};
  for (int run = 0; run < 4; ++run) {
    const int s = run % 2;
    std::vector<gert::Tensor> in;
    in.push_back(DeviceTensor({2, 3}, ge::DT_FLOAT, xs[s].data()));
    in.push_back(DeviceTensor({2, 3}, ge::DT_FLOAT, ys[s].data()));
    std::vector<gert::Tensor> out;
    out.push_back(DeviceTensor({2, 3}, ge::DT_FLOAT, zs[s].data()));
    REQUIRE(session.ExecuteGraphWithStreamAsync(1, stream, in, out) == ge::SUCCESS);
    REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  }
  CHECK(zs[0] == std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f});
  CHECK(zs[1] == std::vector<float>{9, 18, 27, 36, 45, 54});

  // No output tensors: GE allocates them (owned by the returned tensors).
  std::vector<gert::Tensor> in;
  in.push_back(DeviceTensor({2, 3}, ge::DT_FLOAT, xs[0].data()));
  in.push_back(DeviceTensor({2, 3}, ge::DT_FLOAT, xs[1].data()));
  std::vector<gert::Tensor> out;
  REQUIRE(session.ExecuteGraphWithStreamAsync(1, stream, in, out) == ge::SUCCESS);
  REQUIRE(out.size() == 1);
  CHECK(out[0].GetDataType() == ge::DT_FLOAT);
  CHECK(out[0].GetShapeSize() == 6);
  const float *z = out[0].GetData<float>();
  CHECK(std::vector<float>(z, z + 6) == std::vector<float>{11, 22, 33, 44, 55, 66});
  CHECK(session.RemoveGraph(1) == ge::SUCCESS);
  REQUIRE(aclrtDestroyStream(stream) == ACL_SUCCESS);
}

TEST_CASE("RunGraph compiles on first use and runs a test deliverable with an attr", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{{"ge.exec.deviceId", "0"}});
  auto x1 = FloatData("x1", {4});
  auto x2 = FloatData("x2", {4});
  auto axpy = ge::OperatorFactory::CreateOperator("axpy", "AxpyCustom");
  axpy.SetInput("x1", x1).SetInput("x2", x2);
  axpy.SetAttr("alpha", 2.5f);
  REQUIRE(session.AddGraph(7, MakeGraph("axpy_graph", {x1, x2}, {axpy})) == ge::SUCCESS);
  std::vector<ge::Tensor> out;
  REQUIRE(session.RunGraph(7, {FloatTensor({4}, {1, 2, 3, 4}), FloatTensor({4}, {1, 1, 1, 1})}, out) == ge::SUCCESS);
  REQUIRE(out.size() == 1);
  CHECK(out[0].GetTensorDesc().GetShape().GetDims() == std::vector<int64_t>{4});
  CHECK(out[0].GetTensorDesc().GetDataType() == ge::DT_FLOAT);
  CHECK(Floats(out[0]) == std::vector<float>{3.5f, 6, 8.5f, 11});
  CHECK(ge::GEGetErrorMsg().empty());
}

TEST_CASE("ge.graphRunMode 0 calls Execute on every run; the default replays the first run's launches", "[session]") {
  GeScope ge_scope;
  // ExecuteCountOp adds the number of Execute calls its (process-wide) object has seen.
  auto run_twice = [](const char *mode) {
    ge::Session session(GeOptions{{"ge.graphRunMode", mode}});
    REQUIRE(session.AddGraph(0, UnaryGraph("ExecuteCountOp", {3})) == ge::SUCCESS);
    std::vector<float> got;
    for (int i = 0; i < 2; ++i) {
      std::vector<ge::Tensor> out;
      REQUIRE(session.RunGraph(0, {FloatTensor({3}, {0, 10, 20})}, out) == ge::SUCCESS);
      got.push_back(Floats(out[0])[1] - 10.0f);  // = k of that run
    }
    return got;
  };
  const auto eager = run_twice("0");
  CHECK(eager[1] == eager[0] + 1.0f);
  const auto sink = run_twice("1");
  CHECK(sink[1] == sink[0]);
  CHECK(sink[0] == eager[1] + 1.0f);
}

TEST_CASE("a CompilableOp without PortableOp: atc refuses it, the session runs it on the compiling object",
          "[session]") {
  const std::string dir = MakeTempDir();
  WriteBytes(dir + "/g.json", UnaryGraphJson("OnlineScaleOp", {4}));
  auto atc = RunAtc({"--model", dir + "/g.json", "--soc_version", "host", "--output", dir + "/m"},
                    BuildPath("tests/opp/session"));
  CHECK(atc.exit_code == 255);
  CHECK(atc.err.find("OA1107") != std::string::npos);
  CHECK(atc.err.find("node 'op' (OnlineScaleOp): the op is a CompilableOp but not a PortableOp") != std::string::npos);
  RemoveTree(dir);

  GeScope ge_scope;
  ge::Session session(GeOptions{{"ge.jit_compile", "1"}});  // Compile reads it: scale 4 (else 2)
  REQUIRE(session.AddGraph(3, UnaryGraph("OnlineScaleOp", {4})) == ge::SUCCESS);
  REQUIRE(session.CompileGraph(3) == ge::SUCCESS);
  REQUIRE(session.LoadGraph(3, {}, nullptr) == ge::SUCCESS);
  std::vector<float> x = {1, -2, 0.5f, 3}, y(4, 0.0f);
  std::vector<gert::Tensor> in, out;
  in.push_back(DeviceTensor({4}, ge::DT_FLOAT, x.data()));
  out.push_back(DeviceTensor({4}, ge::DT_FLOAT, y.data()));
  REQUIRE(session.ExecuteGraphWithStreamAsync(3, nullptr, in, out) == ge::SUCCESS);
  CHECK(y == std::vector<float>{4, -8, 2, 12});
}

TEST_CASE("RunGraph on the eager path gives a data-dependent output its run-time shape (GE's where-like sample)",
          "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "0"}});
  ge::TensorDesc desc(ge::Shape({8}), ge::FORMAT_ND, ge::DT_BOOL);
  auto data = ge::op::Data("data");
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  auto where = ge::OperatorFactory::CreateOperator("where_like", "WhereLikeCustom");
  where.SetInput("x", data);
  REQUIRE(session.AddGraph(0, MakeGraph("ThirdClassWhereGraph", {data}, {where})) == ge::SUCCESS);
  const uint8_t mask[8] = {1, 0, 1, 0, 1, 0, 0, 1};
  std::vector<ge::Tensor> out;
  REQUIRE(session.RunGraph(0, {ge::Tensor(desc, mask, sizeof(mask))}, out) == ge::SUCCESS);
  REQUIRE(out.size() == 1);
  CHECK(out[0].GetTensorDesc().GetShape().GetDims() == std::vector<int64_t>{4, 1});
  CHECK(out[0].GetTensorDesc().GetDataType() == ge::DT_INT64);
  REQUIRE(out[0].GetSize() == 4 * sizeof(int64_t));
  std::vector<int64_t> values(4);
  std::memcpy(values.data(), out[0].GetData(), out[0].GetSize());
  CHECK(values == std::vector<int64_t>{0, 2, 4, 7});
  CHECK(session.RemoveGraph(0) == ge::SUCCESS);
}

TEST_CASE("a Const node's tensor attr reaches the compiled graph", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{});
  auto x = FloatData("x", {3});
  const std::vector<float> values = {100, 200, 300};
  ge::TensorDesc desc(ge::Shape({3}), ge::FORMAT_ND, ge::DT_FLOAT);
  auto c = ge::op::Const("c");
  c.set_attr_value(ge::Tensor(desc, reinterpret_cast<const uint8_t *>(values.data()), sizeof(float) * 3));
  c.update_output_desc_y(desc);
  auto add = ge::OperatorFactory::CreateOperator("add", "Add");
  add.SetInput("A", x).SetInput("B", c);
  REQUIRE(session.AddGraph(1, MakeGraph("const_graph", {x}, {add})) == ge::SUCCESS);
  std::vector<ge::Tensor> out;
  REQUIRE(session.RunGraph(1, {FloatTensor({3}, {1, 2, 3})}, out) == ge::SUCCESS);
  CHECK(Floats(out[0]) == std::vector<float>{101, 202, 303});
}
