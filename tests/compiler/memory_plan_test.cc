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

namespace {
// Appends node `type` reading `ins` (output 0 of each) with one float32 output of `shape`.
int Add(ir::Graph &g, const std::string &name, const std::string &type, std::vector<int> ins,
        std::vector<int64_t> shape, int64_t axis = 1) {
  ir::Node n;
  n.name = name;
  n.type = type;
  for (int i : ins) {
    n.inputs.push_back({i, 0});
    n.input_descs.push_back(g.nodes[static_cast<size_t>(i)].output_descs.at(0));
  }
  n.output_descs = {F32(shape)};
  if (type == "Concat") {
    ir::AttrValue a;
    a.kind = ir::AttrKind::kInt;
    a.i = axis;
    n.attrs["axis"] = a;
  }
  g.nodes.push_back(n);
  return static_cast<int>(g.nodes.size()) - 1;
}

// data [n,16,4,4] -> a, b [n,16,4,4] (1 KiB each at n = 1); c = Concat(a, b) [n,32,4,4];
// e [n,16,4,4]; d = Concat(c, e) [n,48,4,4]; r = Relu(d) -> output. A DenseNet block in small.
constexpr int kA = 1, kB = 2, kC = 3, kE = 4, kD = 5, kR = 6;  // node indices
ir::Graph DenseBlock(int64_t n, int64_t axis = 1) {
  ir::Graph g = Chain(0, {n, 16, 4, 4});
  g.nodes.pop_back();  // the NetOutput, added again at the end
  g.outputs.clear();
  const int a = Add(g, "a", "SomeCustomOp", {0}, {n, 16, 4, 4});
  const int b = Add(g, "b", "SomeCustomOp", {a}, {n, 16, 4, 4});
  const int c = Add(g, "c", "Concat", {a, b}, {n, 32, 4, 4}, axis);
  const int e = Add(g, "e", "SomeCustomOp", {c}, {n, 16, 4, 4});
  const int d = Add(g, "d", "Concat", {c, e}, {n, 48, 4, 4}, axis);
  const int r = Add(g, "r", "Relu", {d}, {n, 48, 4, 4});
  Add(g, "out", ir::kNetOutput, {r}, {n, 48, 4, 4});
  g.outputs = {{r, 0}};
  return g;
}
}  // namespace

TEST_CASE("a channel Concat of N = 1 holds its inputs in place, also a Concat of a Concat", "[compiler]") {
  ir::Graph g = DenseBlock(1);
  // d (3 KiB) holds c at 0 and e at 2 KiB; c holds a at 0 and b at 1 KiB. Nothing else is alive
  // while d's block is, from a's producer to r: the arena is d's 3 KiB.
  CHECK(compiler::PlanMemory(g) == 3072);
  const int64_t d = OffsetOf(g, kD);
  CHECK(d == 0);
  CHECK(OffsetOf(g, kC) == d);
  CHECK(OffsetOf(g, kA) == d);
  CHECK(OffsetOf(g, kB) == d + 1024);
  CHECK(OffsetOf(g, kE) == d + 2048);
  CHECK(OffsetOf(g, kR) == -1);  // the graph output

  // Axis -3 is the same axis.
  ir::Graph neg = DenseBlock(1, -3);
  CHECK(compiler::PlanMemory(neg) == 3072);
  CHECK(OffsetOf(neg, kB) == OffsetOf(neg, kD) + 1024);
}

TEST_CASE("Concat inputs stay apart where in place cannot hold them", "[compiler]") {
  SECTION("N = 2: an input is not one byte range of the output") {
    ir::Graph g = DenseBlock(2);
    compiler::PlanMemory(g);
    CHECK(OffsetOf(g, kB) != OffsetOf(g, kC) + 2048);
    CHECK(OffsetOf(g, kA) != OffsetOf(g, kC));
  }
  SECTION("reuse disabled: every tensor keeps its own bytes") {
    ir::Graph g = DenseBlock(1);
    CHECK(compiler::PlanMemory(g, /*reuse=*/false) == 2 * 1024 + 2048 + 1024 + 3072);
  }
  SECTION("an input that is a graph output is the caller's; the others stay in place") {
    ir::Graph g = DenseBlock(1);
    g.outputs.push_back({kB, 0});
    g.nodes.back().inputs.push_back({kB, 0});
    g.nodes.back().input_descs.push_back(F32({1, 16, 4, 4}));
    compiler::PlanMemory(g);
    CHECK(OffsetOf(g, kB) == -1);
    CHECK(OffsetOf(g, kA) == OffsetOf(g, kD));
    CHECK(OffsetOf(g, kE) == OffsetOf(g, kD) + 2048);
  }
  SECTION("sub-byte elements (int4): an input's last byte may be shared with the next one") {
    ir::Graph g = DenseBlock(1);
    for (auto &n : g.nodes) {
      for (auto &d : n.input_descs) d.dtype = ge::DT_INT4;
      for (auto &d : n.output_descs) d.dtype = ge::DT_INT4;
    }
    compiler::PlanMemory(g);
    CHECK(OffsetOf(g, kA) != OffsetOf(g, kC));
    CHECK(OffsetOf(g, kC) != OffsetOf(g, kD));
  }
  SECTION("an offset off a 64-byte boundary is copied") {
    ir::Graph g = Chain(0, {1, 3});
    g.nodes.pop_back();
    g.outputs.clear();
    const int a = Add(g, "a", "SomeCustomOp", {0}, {1, 3});  // 12 bytes: b would start at 12
    const int b = Add(g, "b", "SomeCustomOp", {0}, {1, 3});
    const int c = Add(g, "c", "Concat", {a, b}, {1, 6});
    const int r = Add(g, "r", "Relu", {c}, {1, 6});
    Add(g, "out", ir::kNetOutput, {r}, {1, 6});
    g.outputs = {{r, 0}};
    compiler::PlanMemory(g);
    CHECK(OffsetOf(g, a) == OffsetOf(g, c));
    CHECK(OffsetOf(g, b) != OffsetOf(g, c) + 12);
    CHECK(OffsetOf(g, b) >= 0);
  }
}

namespace {
// data [1,16,4,4] -> a, b; c = Concat(a, b) [1,32,4,4]; x [1,32,4,4]; y = Conv(x, addend c) with a
// fused binary_add in the chain layout (what InPlaceConv in memory_plan.cc asks of a Conv);
// then, with `late_reader`, z reads a after y; r = Relu(y) -> output.
struct ResidualConcat {
  ir::Graph g;
  int a = 0, c = 0, y = 0;
};
ResidualConcat ConcatAddend(bool late_reader) {
  ResidualConcat r;
  ir::Graph &g = r.g;
  g = Chain(0, {1, 16, 4, 4});
  g.nodes.pop_back();
  g.outputs.clear();
  r.a = Add(g, "a", "SomeCustomOp", {0}, {1, 16, 4, 4});
  const int b = Add(g, "b", "SomeCustomOp", {0}, {1, 16, 4, 4});
  r.c = Add(g, "c", "Concat", {r.a, b}, {1, 32, 4, 4});
  const int x = Add(g, "x", "SomeCustomOp", {0}, {1, 32, 4, 4});
  r.y = Add(g, "y", "Conv", {x, x, x, r.c}, {1, 32, 4, 4});  // W and B stand-ins: only input 3 matters
  ir::Node &conv = g.nodes[static_cast<size_t>(r.y)];
  conv.inputs[1] = conv.inputs[2] = {-1, 0};
  ir::AttrValue ops, blocked, one;
  ops.kind = ir::AttrKind::kListString;
  ops.list_s = {"binary_add", "eltwise_relu"};
  blocked.kind = ir::AttrKind::kString;
  blocked.s = "blocked";
  one.kind = ir::AttrKind::kInt;
  one.i = 1;
  conv.attrs = {{"openatc_post_ops", ops}, {"openatc_layout", blocked}, {"openatc_y_blocked", one},
                {"openatc_addend_blocked", one}};
  int last = r.y;
  if (late_reader) last = Add(g, "z", "Concat", {r.y, r.a}, {1, 48, 4, 4});
  const int out = Add(g, "r", "Relu", {last}, g.nodes[static_cast<size_t>(last)].output_descs[0].shape);
  Add(g, "out", ir::kNetOutput, {out}, g.nodes[static_cast<size_t>(out)].output_descs[0].shape);
  g.outputs = {{out, 0}};
  return r;
}
}  // namespace

TEST_CASE("a residual Conv takes its addend's bytes only where nothing inside them is read later", "[compiler]") {
  ResidualConcat r = ConcatAddend(false);
  compiler::PlanMemory(r.g, true, /*addend_in_place=*/true);
  CHECK(OffsetOf(r.g, r.y) == OffsetOf(r.g, r.c));
  CHECK(OffsetOf(r.g, r.a) == OffsetOf(r.g, r.c));  // a, b still in place inside c
  CHECK(r.g.nodes[static_cast<size_t>(r.y)].attrs.at("openatc_addend_in_place").i == 1);

  // z reads a (inside c) after the Conv: writing Y over c would overwrite it.
  ResidualConcat late = ConcatAddend(true);
  compiler::PlanMemory(late.g, true, true);
  CHECK(OffsetOf(late.g, late.y) != OffsetOf(late.g, late.c));
  CHECK(late.g.nodes[static_cast<size_t>(late.y)].attrs.count("openatc_addend_in_place") == 0);

  // Not asked for (atc's AddendInPlacePass off), or without reuse: apart, and a mark left by an
  // earlier plan is removed.
  for (bool reuse : {true, false}) {
    ResidualConcat off = ConcatAddend(false);
    compiler::PlanMemory(off.g, true, true);
    compiler::PlanMemory(off.g, reuse, !reuse);
    CHECK(OffsetOf(off.g, off.y) != OffsetOf(off.g, off.c));
    CHECK(off.g.nodes[static_cast<size_t>(off.y)].attrs.count("openatc_addend_in_place") == 0);
  }
}
