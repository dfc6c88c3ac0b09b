// Error paths of the part-A built-ins: each bad case must fail to compile or run (an
// openatc::Error naming the node and op type) and print the op's own message on stderr, which is
// captured and checked here.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <functional>
#include <limits>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
HostTensor F(std::vector<int64_t> shape, const std::vector<float> &v) {
  return Tensor<float>(ge::DT_FLOAT, std::move(shape), v);
}
HostTensor I32(std::vector<int64_t> shape, const std::vector<int32_t> &v) {
  return Tensor<int32_t>(ge::DT_INT32, std::move(shape), v);
}

// Runs `c`, requires an openatc::Error mentioning `callback`, and returns what the op printed.
std::string FailureText(const OpCase &c, const std::string &callback) {
  const std::string text = RunOpExpectingFailure(c);
  INFO(text);
  CHECK(text.find("node 'op' (" + c.op_type + "): " + callback + " returned GRAPH_FAILED") != std::string::npos);
  return text;
}

void ExpectFailure(const OpCase &c, const std::string &callback, const std::string &message) {
  const std::string printed = FailureText(c, callback);
  INFO("stderr: " << printed);
  CHECK(printed.find(c.op_type + " 'op': " + message) != std::string::npos);
}
}  // namespace

TEST_CASE("Binary and variadic ops refuse mixed dtypes", "[ops]") {
  ExpectFailure({"Sub", {{F({1}, {1})}, {I32({1}, {1})}}}, "InferDataType", "input dtypes differ");
  ExpectFailure({"Equal", {{F({1}, {1})}, {I32({1}, {1})}}}, "InferDataType", "input dtypes differ");
  ExpectFailure({"Sum", {{F({1}, {1})}, {F({1}, {1})}, {I32({1}, {1})}}}, "InferDataType",
                "input dtypes differ (input 0 has 0, input 2 has 3)");
  ExpectFailure({"Where", {{F({1}, {1})}, {F({1}, {1})}, {F({1}, {1})}}}, "InferDataType", "condition must be bool");
  ExpectFailure({"Where", {{Tensor<uint8_t>(ge::DT_BOOL, {1}, {1})}, {F({1}, {1})}, {I32({1}, {1})}}}, "InferDataType",
                "X and Y dtypes differ");
  ExpectFailure({"Clip", {{F({1}, {1})}, {I32({}, {0})}}}, "InferDataType", "min has dtype 3 but input has 0");
}

TEST_CASE("Ops refuse dtypes ONNX does not allow for them", "[ops]") {
  ExpectFailure({"Neg", {{Tensor<uint8_t>(ge::DT_UINT8, {1}, {1})}}}, "InferDataType", "unsupported dtype 4");
  ExpectFailure({"Sqrt", {{I32({1}, {4})}}}, "InferDataType", "unsupported dtype 3");
  ExpectFailure({"And", {{F({1}, {1})}, {F({1}, {1})}}}, "InferDataType", "unsupported dtype 0");
  ExpectFailure({"Pow", {{Tensor<int8_t>(ge::DT_INT8, {1}, {2})}, {I32({1}, {2})}}}, "InferDataType",
                "unsupported base dtype 2");
}

TEST_CASE("Shapes that do not broadcast are refused", "[ops]") {
  ExpectFailure({"Mul", {{F({2}, {1, 2})}, {F({3}, {1, 2, 3})}}}, "InferShape", "shapes [2] and [3] do not broadcast");
  ExpectFailure({"Max", {{F({2}, {1, 2})}, {F({3}, {1, 2, 3})}}}, "InferShape",
                "input 1 shape [3] does not broadcast with [2]");
  ExpectFailure({"PRelu", {{F({2, 3}, {1, 2, 3, 4, 5, 6})}, {F({2}, {1, 2})}}}, "InferShape",
                "slope shape [2] does not broadcast to X shape [2, 3]");
  ExpectFailure({"Clip", {{F({2}, {1, 2})}, {F({2}, {0, 0})}}}, "InferShape", "min must be a scalar, got shape [2]");
}

TEST_CASE("Bad axes are refused with the valid range", "[ops]") {
  const HostTensor x = F({2, 3}, {1, 2, 3, 4, 5, 6});
  ExpectFailure({"ReduceMean", {{x}}, {{"axes", IntsAttr({2})}}}, "InferShape",
                "axis 2 is out of range for rank 2 (valid: [-2, 1])");
  ExpectFailure({"ReduceMax", {{x}}, {{"axes", IntsAttr({1, -1})}}}, "InferShape", "axis -1 is given more than once");
  // axes fed as a model input: unknown at compile time, so the model has run-time shapes; the
  // built-in ops size their outputs in Execute (ops/common/deliverable_traits.cc), which checks them
  ExpectFailure({"ReduceSum", {{x}, {Tensor<int64_t>(ge::DT_INT64, {1}, {-3})}}}, "Execute",
                "axis -3 is out of range for rank 2 (valid: [-2, 1])");
  ExpectFailure({"ArgMax", {{x}}, {{"axis", IntAttr(5)}}}, "InferShape", "axis 5 is out of range for rank 2");
  ExpectFailure({"Softmax", {{x}}, {{"axis", IntAttr(-3)}}}, "InferShape",
                "axis -3 is out of range for rank 2 (valid: [-2, 1])");
}

TEST_CASE("Run-time value errors: integer division by zero, 0 to a negative power, empty ArgMax axis", "[ops]") {
  ExpectFailure({"Div", {{I32({2}, {1, 2})}, {I32({2}, {1, 0})}}}, "Execute", "integer division by zero");
  ExpectFailure({"Pow", {{I32({2}, {0, 2})}, {I32({1}, {-1})}}}, "Execute",
                "integer 0 raised to a negative integer power");
  ExpectFailure({"ArgMin", {{F({0, 2}, {})}}}, "Execute", "axis 0 has size 0: no element to select");
}
