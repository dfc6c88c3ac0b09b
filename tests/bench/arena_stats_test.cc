// ComputeArenaStats (arena_bench's independent figures) on a hand-built graph with hand-computed
// lifetimes, peaks and overlaps.
#include <catch2/catch.hpp>

#include "arena_stats.h"

using namespace openatc;

namespace {

ir::Node Op(const std::string &name, const std::string &type, std::vector<ir::Endpoint> inputs, int64_t elems,
            int64_t offset) {
  ir::Node n;
  n.name = name;
  n.type = type;
  n.inputs = std::move(inputs);
  ir::TensorDesc d;
  d.dtype = ge::DT_FLOAT;
  d.shape = {elems};
  n.input_descs.assign(n.inputs.size(), d);
  n.output_descs = {d};
  if (type != ir::kData && type != ir::kNetOutput) n.plan.output_offsets = {offset};
  return n;
}

// x -> A[1024 f32] -> B[1024] ; C[100] = f(A, B) ; D[10] = g(C) is the graph output.
// Lifetimes (steps): A 1..3, B 2..3, C 3..4. Live bytes: step1 4096, step2 8192, step3 8592,
// step4 400. Rounded to 512: A 4096, B 4096, C 512 -> step3 8704.
ir::Graph Chain(int64_t c_offset) {
  ir::Graph g;
  g.nodes.push_back(Op("x", ir::kData, {}, 1024, -1));
  g.nodes.push_back(Op("A", "Relu", {{0, 0}}, 1024, 0));
  g.nodes.push_back(Op("B", "Relu", {{1, 0}}, 1024, 4096));
  g.nodes.push_back(Op("C", "Add", {{1, 0}, {2, 0}}, 100, c_offset));
  g.nodes.push_back(Op("D", "Relu", {{3, 0}}, 10, -1));
  g.nodes.push_back(Op("out", ir::kNetOutput, {{4, 0}}, 10, -1));
  g.inputs = {0};
  g.outputs = {{4, 0}};
  return g;
}

}  // namespace

TEST_CASE("arena stats: a valid plan gives the hand-computed sum, peak and arena") {
  const auto s = bench::ComputeArenaStats(Chain(8192));
  CHECK(s.error.empty());
  CHECK(s.has_plan);
  CHECK(s.planned == 3);
  CHECK(s.candidates == 3);
  CHECK(s.unknown == 0);
  CHECK(s.sum_bytes == 4096 + 4096 + 400);
  CHECK(s.arena_end == 8192 + 400);
  CHECK(s.arena_end_aligned == 8192 + 512);
  CHECK(s.peak_live == 8592);
  CHECK(s.peak_live_aligned == 8704);
}

TEST_CASE("arena stats: two live tensors sharing bytes are reported") {
  const auto s = bench::ComputeArenaStats(Chain(0));  // C over A while C's producer still reads A
  CHECK(s.error == "outputs of 'A' and 'C' are alive at the same time but overlap in the arena");
  CHECK(s.arena_end == 4096 + 4096);
}

TEST_CASE("arena stats: reuse after the last reader is accepted") {
  ir::Graph g = Chain(8192);
  // E reads C after A's last reader (C, step 3): E may take A's offset 0. C now lives 3..5.
  g.nodes.insert(g.nodes.begin() + 5, Op("E", "Relu", {{3, 0}}, 1024, 0));
  g.nodes[6].inputs = {{4, 0}};
  const auto s = bench::ComputeArenaStats(g);
  CHECK(s.error.empty());
  CHECK(s.planned == 4);
  CHECK(s.sum_bytes == 4096 + 4096 + 400 + 4096);
  CHECK(s.peak_live == 8592);
  CHECK(s.arena_end == 8592);
}

TEST_CASE("arena stats: a stored order that is not topological is reported") {
  ir::Graph g = Chain(8192);
  g.nodes[2].inputs = {{3, 0}};  // B reads C, which comes later
  CHECK(bench::ComputeArenaStats(g).error == "node 'B' comes before its producer in the stored order");
}

TEST_CASE("arena stats: a graph without a plan says so") {
  ir::Graph g = Chain(8192);
  g.nodes[2].plan.output_offsets.clear();
  const auto s = bench::ComputeArenaStats(g);
  CHECK_FALSE(s.has_plan);
  CHECK(s.planned == 2);
  CHECK(s.candidates == 3);
}

TEST_CASE("arena stats: outputs of run-time size are counted and the first is named") {
  ir::Graph g = Chain(8192);
  g.nodes[2].output_descs[0].shape = {-1};
  g.nodes[2].plan.output_offsets = {-1};
  g.nodes[3].output_descs[0].shape = {-1, 4};
  const auto s = bench::ComputeArenaStats(g);
  CHECK(s.unknown == 2);
  CHECK(s.first_unknown == "B (Relu)");
  CHECK(s.error == "node 'C' has an offset for an output of unknown size");
}
