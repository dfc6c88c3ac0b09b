// ge::Session misuse and failures: each returns ge::FAILED (never crashes) with a GEGetErrorMsg()
// naming the code, the graph, the node where there is one, and what to do.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

#include "graph/operator_factory.h"
#include "graph/operator_reg.h"
#include "ops_proto_legacy.h"
#include "run_command.h"
#include "session_util.h"

namespace ge {
REG_OP(FailingInferOp).INPUT(x, TensorType({DT_FLOAT})).OUTPUT(y, TensorType({DT_FLOAT})).OP_END_FACTORY_REG(FailingInferOp);
}  // namespace ge

using namespace openatc::testing;

namespace {
bool Has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("every Session call fails cleanly without GEInitialize", "[session]") {
  ge::Session session(GeOptions{});
  CHECK(Has(LastGeError(), "OA2401: creating a ge::Session needs GE to be initialized, and it is not. "
                           "Call ge::GEInitialize(options) first"));
  CHECK(session.AddGraph(1, UnaryGraph("Relu", {2})) == ge::FAILED);
  CHECK(LastGeError() ==
        "OA2401: AddGraph needs GE to be initialized, and it is not. Call ge::GEInitialize(options) first (and not "
        "after ge::GEFinalize).");
  std::vector<ge::Tensor> out;
  CHECK(session.RunGraph(1, {}, out) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA2401: RunGraph needs GE"));
}

TEST_CASE("unknown and duplicate graph ids", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{});
  CHECK(session.CompileGraph(99) == ge::FAILED);
  CHECK(LastGeError() ==
        "OA2402: CompileGraph: graph id 99 was never added to this session (graph ids: none). Call "
        "Session::AddGraph(99, graph) first.");
  REQUIRE(session.AddGraph(5, UnaryGraph("Relu", {2})) == ge::SUCCESS);
  CHECK(LastGeError().empty());
  CHECK(session.AddGraph(5, UnaryGraph("Relu", {2})) == ge::FAILED);
  CHECK(LastGeError() ==
        "OA2403: AddGraph: graph id 5 is already in this session. Use another graph id, or RemoveGraph(5) first.");
  CHECK(session.RemoveGraph(6) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA2402: RemoveGraph: graph id 6 was never added to this session (graph ids: 5)"));
  std::vector<gert::Tensor> in, out;
  CHECK(session.ExecuteGraphWithStreamAsync(8, nullptr, in, out) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA2402: ExecuteGraphWithStreamAsync: graph id 8"));
}

TEST_CASE("calls out of order name the missing step", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{});
  REQUIRE(session.AddGraph(2, UnaryGraph("Relu", {2})) == ge::SUCCESS);
  std::vector<float> x = {1, -1}, y(2);
  std::vector<gert::Tensor> in, out;
  in.push_back(DeviceTensor({2}, ge::DT_FLOAT, x.data()));
  out.push_back(DeviceTensor({2}, ge::DT_FLOAT, y.data()));
  CHECK(session.ExecuteGraphWithStreamAsync(2, nullptr, in, out) == ge::FAILED);
  CHECK(LastGeError() ==
        "OA2405: 'graph 2 (unary)': ExecuteGraphWithStreamAsync was called before CompileGraph and LoadGraph. Call "
        "Session::CompileGraph(2), then Session::LoadGraph(2, options, stream).");
  CHECK(session.LoadGraph(2, {}, nullptr) == ge::FAILED);
  CHECK(LastGeError() == "OA2405: 'graph 2 (unary)': LoadGraph was called before CompileGraph. Call "
                         "Session::CompileGraph(2) first.");
  REQUIRE(session.CompileGraph(2) == ge::SUCCESS);
  CHECK(session.ExecuteGraphWithStreamAsync(2, nullptr, in, out) == ge::FAILED);
  CHECK(Has(LastGeError(), "ExecuteGraphWithStreamAsync was called before LoadGraph."));
  REQUIRE(session.LoadGraph(2, {}, nullptr) == ge::SUCCESS);
  CHECK(session.LoadGraph(2, {}, nullptr) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA2405: 'graph 2 (unary)': LoadGraph was already called for this graph. Load a graph "
                           "once; to load it again, RemoveGraph(2) and AddGraph it again"));
  REQUIRE(session.ExecuteGraphWithStreamAsync(2, nullptr, in, out) == ge::SUCCESS);
  CHECK(y == std::vector<float>{1, 0});
}

TEST_CASE("bad tensors are refused with the input named", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{});
  REQUIRE(session.AddGraph(4, UnaryGraph("Relu", {2})) == ge::SUCCESS);
  REQUIRE(session.CompileGraph(4) == ge::SUCCESS);
  REQUIRE(session.LoadGraph(4, {}, nullptr) == ge::SUCCESS);
  std::vector<float> x = {1, -1, 2}, y(3);
  auto run = [&](std::vector<gert::Tensor> &in) {
    std::vector<gert::Tensor> out;
    out.push_back(DeviceTensor({2}, ge::DT_FLOAT, y.data()));
    return session.ExecuteGraphWithStreamAsync(4, nullptr, in, out);
  };
  std::vector<gert::Tensor> none;
  CHECK(run(none) == ge::FAILED);
  CHECK(LastGeError() == "OA2406: 'graph 4 (unary)': the graph has 1 inputs but 0 tensors were given. Pass one "
                         "gert::Tensor per Data node, in input order.");
  std::vector<gert::Tensor> wrong_shape;
  wrong_shape.push_back(DeviceTensor({3}, ge::DT_FLOAT, x.data()));
  CHECK(run(wrong_shape) == ge::FAILED);
  CHECK(LastGeError() == "OA2406: 'graph 4 (unary)': input 0 ('x') has shape [3] but the graph's is [2]. Pass a "
                         "tensor of the shape the graph was compiled for.");
  std::vector<gert::Tensor> wrong_type;
  wrong_type.push_back(DeviceTensor({2}, ge::DT_INT32, x.data()));
  CHECK(run(wrong_type) == ge::FAILED);
  CHECK(Has(LastGeError(), "input 0 ('x') is DT_INT32 but the graph's is DT_FLOAT"));
  std::vector<gert::Tensor> null_addr;
  null_addr.push_back(DeviceTensor({2}, ge::DT_FLOAT, nullptr));
  CHECK(run(null_addr) == ge::FAILED);
  CHECK(Has(LastGeError(), "input 0 ('x') has a null address. Allocate the tensor's memory"));
  std::vector<ge::Tensor> out;
  CHECK(session.RunGraph(4, {FloatTensor({3}, {1, 2, 3})}, out) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA22"));
  CHECK(Has(LastGeError(), "graph 4 (unary)"));
}

TEST_CASE("graph and compile failures name the graph, the node and the fix", "[session]") {
  GeScope ge_scope;
  ge::Session session(GeOptions{{"ge.someOptionNobodyReads", "x"}});  // accepted, as GE does
  CHECK(session.AddGraph(1, ge::Graph("empty")) == ge::FAILED);
  CHECK(LastGeError() == "OA2404: 'graph 1 (empty)': the graph has no nodes. Build the graph and call "
                         "Graph::SetInputs / SetOutputs first.");

  REQUIRE(session.AddGraph(2, UnaryGraph("FailingInferOp", {2})) == ge::SUCCESS);
  CHECK(session.CompileGraph(2) == ge::FAILED);
  CHECK(Has(LastGeError(), "OA1401: 'graph 2 (unary)': node 'op' (FailingInferOp): "));
  CHECK(Has(LastGeError(), "InferShape"));

  auto x = FloatData("x", {2});
  auto bad = ge::Operator("op", "NoSuchCustomOp");
  bad.SetInput(0U, x, 0U);
  (void)bad;
  ge::Session s2(GeOptions{{"ge.socVersion", "Ascend910B1"}});
  REQUIRE(s2.AddGraph(3, UnaryGraph("Relu", {2})) == ge::SUCCESS);
  CHECK(s2.CompileGraph(3) == ge::FAILED);
  CHECK(LastGeError() == "OA2407: 'graph 3 (unary)': option ge.socVersion is 'Ascend910B1', but the online flow "
                         "compiles only for the host target. Drop ge.socVersion or set it to \"host\"; to emulate an "
                         "Ascend chip set OPENATC_EMULATION=1; for an Ascend target through CANN compile offline "
                         "with atc.");
}

TEST_CASE("GEInitialize reports an OPP root at the wrong level through GEGetWarningMsg", "[session]") {
  const std::string inner = BuildPath("tests/opp/session/op_graph");
  ::setenv("ASCEND_CUSTOM_OPP_PATH", inner.c_str(), 1);
  REQUIRE(ge::GEInitialize(GeOptions{}) == ge::SUCCESS);
  CHECK(ge::GEGetWarningMsg() == "ASCEND_CUSTOM_OPP_PATH: '" + inner +
                                     "' is inside an OPP root; set ASCEND_CUSTOM_OPP_PATH to '" +
                                     BuildPath("tests/opp/session") + "' instead");
  CHECK(ge::GEGetWarningMsg().empty());  // taken by the first call
  CHECK(ge::GEFinalize() == ge::SUCCESS);
}
