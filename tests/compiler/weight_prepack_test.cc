// WeightPrepackPass (atc/compiler/src/passes/weight_prepack.cc) and the load-time preparation of
// Conv nodes (ops/common/conv_prepared.h) on x[1, 8, 6, 6] -> c1 (16 ch, 3x3) -> r Relu -> c2
// (16 ch, 3x3) -> out: both Convs compute blocked, so both get a packed copy of W (input 1) in
// the OM. The copy survives the OM round trip; the packed OM's outputs are bit-identical to those
// of an OM without copies (WeightPrepackPass:off: the weights are packed at load by the same
// kernel's reorder) and within the float32 bound of a double reference. A copy whose ISA,
// layout or size tag does not match this CPU's primitive is not used (its bytes are zeroed here,
// so using it would change the result); one whose tags match is used (zeroed bytes change it).
//
// Bound: two 3x3 convolutions of K <= 144 terms, as tests/compiler/layout_plan_test.cc argues:
// |error| <= 5 (K + 8) u M with M the network on |x|, |W|, |B| and u = 2^-24.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "openatc/common/error.h"
#include "pass_graph_builder.h"

using namespace pass_test;

namespace {

constexpr int64_t kC = 8, kM = 16, kS = 6;

struct Net {
  std::vector<float> x = Pattern(size_t(kC * kS * kS), 31);
  std::vector<float> w1 = Pattern(size_t(kM * kC * 9), 32), b1 = Pattern(size_t(kM), 33);
  std::vector<float> w2 = Pattern(size_t(kM * kM * 9), 34), b2 = Pattern(size_t(kM), 35);

  ir::Graph Graph() const {
    Builder b;
    const int32_t xi = b.Data("x", {1, kC, kS, kS});
    auto conv = [&](const std::string &name, int32_t in, int64_t c, const std::vector<float> &w,
                    const std::vector<float> &bias) {
      return b.Op(name, "Conv", {in, b.Const(name + "_W", {kM, c, 3, 3}, w), b.Const(name + "_B", {kM}, bias)},
                  {{"pads", Ints({1, 1, 1, 1})}, {"kernel_shape", Ints({3, 3})}});
    };
    const int32_t r = b.Op("r", "Relu", {conv("c1", xi, kC, w1, b1)});
    b.Output({conv("c2", r, kM, w2, b2)});
    return b.g;
  }

  // Exact 3x3 pad-1 convolution of [c, kS, kS]; `mag`: with |x|, |W|, |B| (the bound's M).
  static std::vector<double> Conv(const std::vector<double> &x, int64_t c, const std::vector<float> &w,
                                  const std::vector<float> &b, bool mag) {
    std::vector<double> y(size_t(kM * kS * kS));
    for (int64_t m = 0; m < kM; ++m)
      for (int64_t i = 0; i < kS; ++i)
        for (int64_t j = 0; j < kS; ++j) {
          double acc = mag ? std::fabs(b[size_t(m)]) : b[size_t(m)];
          for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t a = 0; a < 3; ++a)
              for (int64_t bb = 0; bb < 3; ++bb) {
                const int64_t yi = i + a - 1, xj = j + bb - 1;
                if (yi < 0 || yi >= kS || xj < 0 || xj >= kS) continue;
                const double wv = w[size_t(((m * c + ch) * 3 + a) * 3 + bb)];
                acc += x[size_t((ch * kS + yi) * kS + xj)] * (mag ? std::fabs(wv) : wv);
              }
          y[size_t((m * kS + i) * kS + j)] = acc;
        }
    return y;
  }

  std::vector<double> Reference(bool mag) const {
    std::vector<double> xd(x.begin(), x.end());
    if (mag)
      for (auto &v : xd) v = std::fabs(v);
    std::vector<double> h = Conv(xd, kC, w1, b1, mag);
    for (auto &v : h) v = std::max(v, 0.0);
    return Conv(h, kM, w2, b2, mag);
  }
};

const ir::Node &NodeNamed(const om::Model &m, const std::string &name) {
  const int32_t i = m.graph.FindNode(name);
  REQUIRE(i >= 0);
  return m.graph.nodes[size_t(i)];
}

// `m` with `edit` applied to every packed copy.
om::Model Edited(const om::Model &m, const std::function<void(ir::PackedWeight &)> &edit) {
  om::Model out = m;
  for (auto &n : out.graph.nodes)
    for (auto &pw : n.packed_weights) edit(pw);
  return out;
}

void ZeroBytes(ir::PackedWeight &pw) {
  pw.data = ir::Bytes::FromVector(std::vector<uint8_t>(pw.data.size, 0));
}

std::vector<float> Run(const om::Model &m, const Net &net) {
  const auto y = RunModel(m, {Host({1, kC, kS, kS}, net.x)});
  REQUIRE(y.size() == 1);
  return Values(y[0]);
}

}  // namespace

TEST_CASE("weight pre-packing: a packed copy per blocked Conv, OM round trip, same outputs as plain weights",
          "[compiler][passes][prepack]") {
  const Net net;
  const ir::Graph g = net.Graph();
  const om::Model packed = Compile(g);
  const om::Model plain = Compile(g, TempFile("prepack_off.txt", "WeightPrepackPass:off\n"));
  // Fusion names the c1 + Relu Conv 'r'.
  for (const char *name : {"r", "c2"}) {
    INFO(name);
    const ir::Node &n = NodeNamed(packed, name);
    REQUIRE(n.packed_weights.size() == 1);
    const ir::PackedWeight &pw = n.packed_weights[0];
    CHECK(pw.input == 1);
    CHECK(!pw.isa.empty());
    // The layout text ends with the descriptor's byte size, which the copy has.
    CHECK(pw.layout.find("blks=") != std::string::npos);
    CHECK(pw.layout.substr(pw.layout.rfind("size=") + 5) == std::to_string(pw.data.size));
    const int64_t c = std::string(name) == "r" ? kC : kM;
    CHECK(pw.data.size >= size_t(kM * c * 9 * 4));  // at least the plain bytes (blocks may pad)
    CHECK(NodeNamed(plain, name).packed_weights.empty());
  }

  // Round trip: the copies read back as written.
  const std::vector<uint8_t> image = om::Serialize(packed);
  const om::Model back = om::ReadBytes(image.data(), image.size());
  for (const char *name : {"r", "c2"}) {
    const ir::PackedWeight &a = NodeNamed(packed, name).packed_weights.at(0);
    const ir::PackedWeight &b = NodeNamed(back, name).packed_weights.at(0);
    CHECK(b.input == a.input);
    CHECK(b.isa == a.isa);
    CHECK(b.layout == a.layout);
    REQUIRE(b.data.size == a.data.size);
    CHECK(std::memcmp(b.data.data, a.data.data, a.data.size) == 0);
  }

  // Same kernel, same weights: bit-identical outputs; both within the bound of the reference.
  const std::vector<float> yp = Run(packed, net), yq = Run(plain, net);
  const std::vector<double> want = net.Reference(false), mag = net.Reference(true);
  REQUIRE(yp.size() == want.size());
  REQUIRE(yq.size() == want.size());
  const double bound = 5 * (144 + 8) / 16777216.0;
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(std::memcmp(&yp[i], &yq[i], sizeof(float)) == 0);
    CHECK(std::fabs(double(yp[i]) - want[i]) <= bound * mag[i]);
  }
}

TEST_CASE("weight pre-packing: a copy made for another ISA, layout or size is repacked; a matching one is used",
          "[compiler][passes][prepack]") {
  const Net net;
  const om::Model packed = Compile(net.Graph());
  const std::vector<float> want = Run(packed, net);

  SECTION("another ISA") {
    const om::Model m = Edited(packed, [](ir::PackedWeight &pw) {
      pw.isa = "not_this_cpu";
      ZeroBytes(pw);
    });
    CHECK(Run(m, net) == want);
  }
  SECTION("another layout") {
    const om::Model m = Edited(packed, [](ir::PackedWeight &pw) {
      pw.layout = "dt=3;dims=16,8,3,3;blks=;size=" + std::to_string(pw.data.size);
      ZeroBytes(pw);
    });
    CHECK(Run(m, net) == want);
  }
  SECTION("a size that does not match the layout") {
    const om::Model m = Edited(packed, [](ir::PackedWeight &pw) {
      pw.data = ir::Bytes::FromVector(std::vector<uint8_t>(pw.data.size - 64, 0));
    });
    CHECK(Run(m, net) == want);
  }
  SECTION("matching tags: the copy's bytes are what the kernel reads") {
    const om::Model m = Edited(packed, ZeroBytes);
    CHECK(Run(m, net) != want);
  }
  SECTION("the writer refuses a copy of an input the node does not have") {
    const om::Model m = Edited(packed, [](ir::PackedWeight &pw) { pw.input = 7; });
    CHECK_THROWS_AS(om::Serialize(m), openatc::Error);
  }
}
