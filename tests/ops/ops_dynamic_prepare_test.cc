// Run-time shapes and per-shape preparing (loader/runtime/src/prepare_nodes.h, PrepareForShapes):
// a model whose Data input has a -1 dim prepares its Conv / MatMul / Gemm nodes on the first run
// of each input shape and reuses that state while the shapes repeat. One compiled model is run on
// shapes that change and come back, and on non-constant weights that change between runs of the
// same shape; every output is checked against values computed by hand.
#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

HostTensor F32(Dims shape, const std::vector<float> &v) { return Tensor(ge::DT_FLOAT, std::move(shape), v); }

OpInput Declared(HostTensor t, Dims declared) {
  OpInput in(std::move(t));
  in.declared_shape = std::move(declared);
  return in;
}
}  // namespace

TEST_CASE("Conv with a run-time batch: shapes that change and come back", "[ops][heavy]") {
  // W = [[1, 0], [0, 1]]: y[i][j] = x[i][j] + x[i+1][j+1], plus the bias 0.5.
  const std::vector<float> x1{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> x2{1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 4, 6, 8, 10, 12, 14, 16, 18};
  const std::vector<float> x3{9, 8, 7, 6, 5, 4, 3, 2, 1};
  OpCase c{"Conv",
           {Declared(F32({1, 1, 3, 3}, x1), {-1, 1, 3, 3}), {F32({1, 1, 2, 2}, {1, 0, 0, 1}), true},
            {F32({1}, {0.5f}), true}}};
  auto runs = RunOpRuns(c, {{F32({1, 1, 3, 3}, x1)}, {F32({2, 1, 3, 3}, x2)}, {F32({1, 1, 3, 3}, x3)},
                            {F32({1, 1, 3, 3}, x1)}});
  REQUIRE(runs.size() == 4);
  CHECK(runs[0][0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(runs[0][0]) == std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f});
  CHECK(runs[1][0].shape == Dims{2, 1, 2, 2});
  CHECK(Values<float>(runs[1][0]) == std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f, 12.5f, 16.5f, 24.5f, 28.5f});
  CHECK(runs[2][0].shape == Dims{1, 1, 2, 2});
  CHECK(Values<float>(runs[2][0]) == std::vector<float>{14.5f, 12.5f, 8.5f, 6.5f});
  CHECK(Values<float>(runs[3][0]) == std::vector<float>{6.5f, 8.5f, 12.5f, 14.5f});
}

TEST_CASE("Conv with run-time shapes and a non-constant W: each run reads its own W", "[ops][heavy]") {
  // Preparing sees constant inputs only: W fed per run must not be taken for the first run's.
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9};
  OpCase c{"Conv", {Declared(F32({1, 1, 3, 3}, x), {-1, 1, 3, 3}), {F32({1, 1, 2, 2}, {1, 0, 0, 1})}}};
  auto runs = RunOpRuns(c, {{F32({1, 1, 3, 3}, x), F32({1, 1, 2, 2}, {1, 0, 0, 1})},
                            {F32({1, 1, 3, 3}, x), F32({1, 1, 2, 2}, {0, 1, 1, 0})},
                            {F32({1, 1, 3, 3}, x), F32({1, 1, 2, 2}, {1, 1, 1, 1})}});
  REQUIRE(runs.size() == 3);
  CHECK(Values<float>(runs[0][0]) == std::vector<float>{6, 8, 12, 14});    // x[i][j] + x[i+1][j+1]
  CHECK(Values<float>(runs[1][0]) == std::vector<float>{6, 8, 12, 14});    // x[i][j+1] + x[i+1][j]
  CHECK(Values<float>(runs[2][0]) == std::vector<float>{12, 16, 24, 28});  // the four of each window
}

TEST_CASE("MatMul and Gemm with a run-time row count", "[ops][heavy]") {
  // B = [[1, 2], [3, 4]].
  const HostTensor b = F32({2, 2}, {1, 2, 3, 4});
  OpCase mm{"MatMul", {Declared(F32({1, 2}, {1, 1}), {-1, 2}), {b, true}}};
  auto m = RunOpRuns(mm, {{F32({1, 2}, {1, 1})}, {F32({3, 2}, {1, 0, 0, 1, 2, 2})}, {F32({1, 2}, {2, -1})}});
  REQUIRE(m.size() == 3);
  CHECK(m[0][0].shape == Dims{1, 2});
  CHECK(Values<float>(m[0][0]) == std::vector<float>{4, 6});
  CHECK(m[1][0].shape == Dims{3, 2});
  CHECK(Values<float>(m[1][0]) == std::vector<float>{1, 2, 3, 4, 8, 12});
  CHECK(Values<float>(m[2][0]) == std::vector<float>{-1, 0});
  // Gemm with transB and C = [10, 20]: A * B^T + C, B^T = [[1, 3], [2, 4]].
  OpCase gm{"Gemm", {Declared(F32({1, 2}, {1, 1}), {-1, 2}), {b, true}, {F32({2}, {10, 20}), true}},
            {{"transB", IntAttr(1)}}};
  auto g = RunOpRuns(gm, {{F32({2, 2}, {1, 0, 0, 1})}, {F32({1, 2}, {1, 1})}, {F32({2, 2}, {1, 0, 0, 1})}});
  REQUIRE(g.size() == 3);
  CHECK(Values<float>(g[0][0]) == std::vector<float>{11, 23, 12, 24});
  CHECK(Values<float>(g[1][0]) == std::vector<float>{13, 27});
  CHECK(Values<float>(g[2][0]) == std::vector<float>{11, 23, 12, 24});
}

TEST_CASE("Conv with a run-time batch: more distinct shapes than a node keeps, then the first again", "[ops][heavy]") {
  // Batches 1..6 of image k * x (k = 1..n), then batch 1: each image gives k * (x[i][j] + x[i+1][j+1]) + 0.5.
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> y{6, 8, 12, 14};
  OpCase c{"Conv",
           {Declared(F32({1, 1, 3, 3}, x), {-1, 1, 3, 3}), {F32({1, 1, 2, 2}, {1, 0, 0, 1}), true},
            {F32({1}, {0.5f}), true}}};
  std::vector<std::vector<HostTensor>> feeds;
  std::vector<std::vector<float>> want;
  for (int64_t n : {1, 2, 3, 4, 5, 6, 1, 6}) {
    std::vector<float> in, out;
    for (int64_t k = 1; k <= n; ++k) {
      for (float v : x) in.push_back(static_cast<float>(k) * v);
      for (float v : y) out.push_back(static_cast<float>(k) * v + 0.5f);
    }
    feeds.push_back({F32({n, 1, 3, 3}, in)});
    want.push_back(out);
  }
  auto runs = RunOpRuns(c, feeds);
  REQUIRE(runs.size() == want.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    INFO("run " << r);
    CHECK(runs[r][0].shape == Dims{static_cast<int64_t>(want[r].size() / 4), 1, 2, 2});
    CHECK(Values<float>(runs[r][0]) == want[r]);
  }
}
