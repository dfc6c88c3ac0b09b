// The static memory plan: lifetimes, reuse of freed memory, graph outputs left to the caller,
// and no plan for graphs with run-time shapes.
#include <catch2/catch.hpp>

#include "openatc/compiler/compiler.h"

using namespace openatc;

namespace {
ir::TensorDesc F32(std::vector<int64_t> shape) {
  ir::TensorDesc d;
  d.dtype = ge::DT_FLOAT;
  d.shape = shape;
  d.origin_shape = shape;
  return d;
}

// data -> n1 -> n2 -> ... -> nK -> NetOutput, every tensor float32 `shape`.
ir::Graph Chain(int k, std::vector<int64_t> shape) {
  ir::Graph g;
  ir::Node data;
  data.name = "data";
  data.type = ir::kData;
  data.inputs = {{-1, 0}};
  data.input_descs = {F32(shape)};
  data.output_descs = {F32(shape)};
  g.nodes.push_back(data);
  g.inputs = {0};
  for (int i = 1; i <= k; ++i) {
    ir::Node n;
    n.name = "n" + std::to_string(i);
    n.type = "SomeCustomOp";
    n.inputs = {{i - 1, 0}};
    n.input_descs = {F32(shape)};
    n.output_descs = {F32(shape)};
    g.nodes.push_back(n);
  }
  ir::Node out;
  out.name = "Node_Output";
  out.type = ir::kNetOutput;
  out.inputs = {{k, 0}};
  out.input_descs = {F32(shape)};
  g.nodes.push_back(out);
  g.outputs = {{k, 0}};
  return g;
}

int64_t OffsetOf(const ir::Graph &g, int node) {
  return g.nodes[static_cast<size_t>(node)].plan.output_offsets.at(0);
}
}  // namespace

TEST_CASE("a chain reuses the memory of tensors whose last consumer has run", "[compiler]") {
  ir::Graph g = Chain(4, {256});  // 1 KiB tensors
  CHECK(compiler::PlanMemory(g) == 2048);
  CHECK(OffsetOf(g, 1) == 0);
  CHECK(OffsetOf(g, 2) == 1024);  // n1 is still read by n2
  CHECK(OffsetOf(g, 3) == 0);     // n1 is dead once n2 ran
  CHECK(OffsetOf(g, 4) == -1);    // the graph output is the caller's buffer
  CHECK(g.nodes[0].plan.output_offsets.empty());  // Data is never planned
  CHECK(g.arena_bytes == 2048);
}

TEST_CASE("small tensors round up to 512 bytes and a fan-out keeps its producer alive", "[compiler]") {
  ir::Graph g = Chain(2, {3});  // 12 bytes -> 512
  // n1 also feeds the output node directly: it lives until the end.
  g.nodes[3].inputs.push_back({1, 0});
  g.nodes[3].input_descs.push_back(F32({3}));
  g.outputs.push_back({1, 0});
  CHECK(compiler::PlanMemory(g) == 0);  // both tensors are graph outputs
  CHECK(OffsetOf(g, 1) == -1);
  ir::Graph h = Chain(3, {3});
  CHECK(compiler::PlanMemory(h) == 1024);
}

TEST_CASE("a graph with run-time shapes gets no plan", "[compiler]") {
  ir::Graph g = Chain(3, {-1, 4});
  CHECK(compiler::PlanMemory(g) == -1);
  CHECK(g.nodes[1].plan.output_offsets.empty());
  CHECK(g.arena_bytes == -1);
}

TEST_CASE("with reuse disabled no two tensors share bytes (--disable_reuse_memory=1)", "[compiler]") {
  ir::Graph g = Chain(4, {256});  // n1..n3 planned, 1 KiB each; n4 is the graph output
  CHECK(compiler::PlanMemory(g, /*reuse=*/false) == 3072);
  // Largest first, ties in node order, each at the end of the ones placed before.
  CHECK(OffsetOf(g, 1) == 0);
  CHECK(OffsetOf(g, 2) == 1024);
  CHECK(OffsetOf(g, 3) == 2048);
  CHECK(OffsetOf(g, 4) == -1);
  CHECK(g.arena_bytes == 3072);
}
