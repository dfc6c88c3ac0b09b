// Pre-packed B of float Gemm and MatMul nodes (ops/common/matmul_prepared.h: PackB, AddPackedB)
// on x[3, 64] -> g Gemm(transB, B [256, 64], C [256], alpha 0.5) -> mm MatMul(B [256, 64]) -> out
// (each B 64 KiB, kPackBMinBytes).
// oneDNN's matmul chooses a blocked layout for a constant B (format_tag::any), so each node gets
// a packed copy of input 1 in the OM. The packed OM's outputs are bit-identical to those of an OM
// without copies (WeightPrepackPass:off: B is packed at load by the same reorder) and within the
// float32 bound of a double reference; a copy whose tags do not match this CPU is repacked, a
// matching one is what the kernel reads (zeroed bytes change the result).
//
// Bound: two products of K <= 256 terms, each |error| <= (K + 2) u M on the network's magnitudes M
// (|x|, |B|, |C|), the second adding its input's error times |B|: 5 (256 + 8) u M covers both.
#include <catch2/catch.hpp>

#include <cmath>

#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

constexpr int64_t kM = 3, kK = 64, kN = 256, kP = 64;

struct Net {
  std::vector<float> x = Pattern(size_t(kM * kK), 41);
  std::vector<float> b1 = Pattern(size_t(kN * kK), 42), c1 = Pattern(size_t(kN), 43);
  std::vector<float> b2 = Pattern(size_t(kN * kP), 44);

  ir::Graph Graph() const {
    Builder b;
    const int32_t xi = b.Data("x", {kM, kK});
    const int32_t g = b.Op("g", "Gemm", {xi, b.Const("g_B", {kN, kK}, b1), b.Const("g_C", {kN}, c1)},
                           {{"transB", Int(1)}, {"alpha", Float(0.5f)}});
    b.Output({b.Op("mm", "MatMul", {g, b.Const("mm_B", {kN, kP}, b2)})});
    return b.g;
  }

  // The network in double; `mag`: on |x|, |B|, |C| (the bound's M).
  std::vector<double> Reference(bool mag) const {
    auto v = [mag](float f) { return mag ? std::fabs(double(f)) : double(f); };
    std::vector<double> h(size_t(kM * kN)), y(size_t(kM * kP));
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t n = 0; n < kN; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < kK; ++k) acc += v(x[size_t(i * kK + k)]) * v(b1[size_t(n * kK + k)]);
        h[size_t(i * kN + n)] = 0.5 * acc + v(c1[size_t(n)]);
      }
    for (int64_t i = 0; i < kM; ++i)
      for (int64_t p = 0; p < kP; ++p) {
        double acc = 0;
        for (int64_t n = 0; n < kN; ++n) acc += h[size_t(i * kN + n)] * v(b2[size_t(n * kP + p)]);
        y[size_t(i * kP + p)] = acc;
      }
    return y;
  }
};

const ir::Node &NodeNamed(const om::Model &m, const std::string &name) {
  const int32_t i = m.graph.FindNode(name);
  REQUIRE(i >= 0);
  return m.graph.nodes[size_t(i)];
}

std::vector<float> Run(const om::Model &m, const Net &net) {
  const auto y = RunModel(m, {Host({kM, kK}, net.x)});
  REQUIRE(y.size() == 1);
  return Values(y[0]);
}

// `m` with every packed copy's bytes zeroed, or also its ISA tag changed (`other_isa`).
om::Model Edited(const om::Model &m, bool other_isa) {
  om::Model out = m;
  for (auto &n : out.graph.nodes)
    for (auto &pw : n.packed_weights) {
      pw.data = ir::Bytes::FromVector(std::vector<uint8_t>(pw.data.size, 0));
      if (other_isa) pw.isa = "not_this_cpu";
    }
  return out;
}

}  // namespace

TEST_CASE("weight pre-packing: Gemm's and MatMul's constant B packed into the OM, same outputs as plain B",
          "[compiler][passes][prepack]") {
  const Net net;
  const ir::Graph g = net.Graph();
  const om::Model packed = Compile(g);
  const om::Model plain = Compile(g, TempFile("prepack_mm_off.txt", "WeightPrepackPass:off\n"));
  for (const char *name : {"g", "mm"}) {
    INFO(name);
    const ir::Node &n = NodeNamed(packed, name);
    REQUIRE(n.packed_weights.size() == 1);
    const ir::PackedWeight &pw = n.packed_weights[0];
    CHECK(pw.input == 1);
    CHECK(!pw.isa.empty());
    CHECK(pw.layout.find("blks=") != std::string::npos);
    CHECK(pw.layout.substr(pw.layout.rfind("size=") + 5) == std::to_string(pw.data.size));
    CHECK(pw.data.size >= size_t(kN * (std::string(name) == "g" ? kK : kP) * 4));
    CHECK(NodeNamed(plain, name).packed_weights.empty());
  }

  const std::vector<float> yp = Run(packed, net), yq = Run(plain, net);
  const std::vector<double> want = net.Reference(false), mag = net.Reference(true);
  REQUIRE(yp.size() == want.size());
  REQUIRE(yq.size() == want.size());
  const double bound = 5 * (kN + 8) * kU;
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::memcmp(&yp[i], &yq[i], sizeof(float)) == 0);
    CHECK(std::fabs(double(yp[i]) - want[i]) <= bound * mag[i]);
  }

  SECTION("a copy made for another ISA is repacked") { CHECK(Run(Edited(packed, true), net) == yp); }
  SECTION("a matching copy is what the kernel reads") { CHECK(Run(Edited(packed, false), net) != yp); }
}
