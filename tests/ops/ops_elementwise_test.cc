// Built-in elementwise ops through the one-op harness, with hand-computed values.
#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

TEST_CASE("Add broadcasts multidirectionally (ONNX Add-14)", "[ops]") {
  OpCase c{"Add", {{Tensor<float>(ge::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6})}, {Tensor<float>(ge::DT_FLOAT, {3}, {10, 20, 30})}}};
  auto out = RunOp(c);
  REQUIRE(out.size() == 1);
  CHECK(out[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<float>(out[0]) == std::vector<float>{11, 22, 33, 14, 25, 36});

  OpCase col{"Add", {{Tensor<int64_t>(ge::DT_INT64, {2, 1}, {100, 200})}, {Tensor<int64_t>(ge::DT_INT64, {1, 3}, {1, 2, 3}), true}}};
  auto o2 = RunOp(col);
  CHECK(o2[0].shape == std::vector<int64_t>{2, 3});
  CHECK(Values<int64_t>(o2[0]) == std::vector<int64_t>{101, 102, 103, 201, 202, 203});

  OpCase scalar{"Add", {{Tensor<int32_t>(ge::DT_INT32, {}, {2147483647})}, {Tensor<int32_t>(ge::DT_INT32, {}, {1})}}};
  auto o3 = RunOp(scalar);
  CHECK(o3[0].shape.empty());
  CHECK(Values<int32_t>(o3[0]) == std::vector<int32_t>{-2147483647 - 1});  // wraps
}

TEST_CASE("Add refuses shapes that do not broadcast, naming the node", "[ops]") {
  OpCase c{"Add", {{Tensor<float>(ge::DT_FLOAT, {2}, {1, 2})}, {Tensor<float>(ge::DT_FLOAT, {3}, {1, 2, 3})}}};
  try {
    RunOp(c);
    FAIL("expected an error");
  } catch (const Error &e) {
    CHECK(std::string(e.what()).find("node 'op' (Add): InferShape returned GRAPH_FAILED") != std::string::npos);
  }
}

TEST_CASE("Relu on float32 and int32", "[ops]") {
  auto f = RunOp({"Relu", {{Tensor<float>(ge::DT_FLOAT, {4}, {-1.5f, 0.0f, 2.25f, -0.0f})}}});
  CHECK(Values<float>(f[0]) == std::vector<float>{0, 0, 2.25f, 0});
  auto i = RunOp({"Relu", {{Tensor<int32_t>(ge::DT_INT32, {2, 2}, {-3, 3, 0, -1})}}});
  CHECK(i[0].shape == std::vector<int64_t>{2, 2});
  CHECK(Values<int32_t>(i[0]) == std::vector<int32_t>{0, 3, 0, 0});
}
