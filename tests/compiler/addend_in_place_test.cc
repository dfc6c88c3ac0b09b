// A Conv with a fused residual Add computing into its addend's bytes (include/openatc/addend_in_place.h;
// the memory plan, atc/compiler/src/memory_plan.cc; the sum primitive, ops/common/conv_blocked.cc):
//   x -> c1 (3x3) -> Relu = r1;   y -> c3 (1x1) -> Add(r1) -> Relu = ra
//   ra -> c4 (1x1) -> Add(ra) -> Relu = rb -> c6 (1x1) -> out 0
//   ra -> c5 (1x1) -> Relu = r5                         -> out 1
// ra's Conv is r1's last reader: its output takes r1's bytes. rb's Conv is not ra's last reader
// (c5 reads ra after it): its output keeps bytes of its own. With AddendInPlacePass off, or memory
// reuse off, no Conv shares. One loaded model runs finite inputs, then inputs with NaN and
// infinities, then finite ones again. A NaN in x reaches ra's Conv through its addend alone (its X
// comes from y): oneDNN's fused Relu turns it into a number, and the Conv restores ONNX's NaN by
// replaying the chain on the plain convolution and the addend after the fused run (conv_nan.h),
// so it must still have the addend it overwrote.
//
// Exact: x, y in {-1, 0, 1}, weights in {-1, 0, 1}, biases in {-1, 0, 1}: every partial sum is an
// integer of magnitude below 2^24 (at most 16 x 2755 + 1 at c6), so float32 computes the finite outputs
// exactly, and IEEE double gives the reference's NaN and infinities (Relu keeps NaN and maps -inf
// to 0, as ONNX's).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "openatc/addend_in_place.h"
#include "same_conv_ref.h"

using namespace pass_test;

namespace {

constexpr int64_t kS = 8, kC = 16;

SameConvLayer Layer(int64_t k, uint32_t seed) {
  return {kC, kC, k, Integers(size_t(kC * kC * k * k), seed, -1, 1), Integers(size_t(kC), seed + 100, -1, 1)};
}

std::vector<double> Plus(std::vector<double> a, const std::vector<double> &b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

bool InPlace(const om::Model &m, const char *node) {
  const ir::Node &n = Named(m.graph, node);
  auto it = n.attrs.find(openatc::kAddendInPlaceAttr);
  return it != n.attrs.end() && it->second.i == 1;
}

int64_t Offset(const om::Model &m, const char *node) { return Named(m.graph, node).plan.output_offsets.at(0); }

}  // namespace

TEST_CASE("AddendInPlacePass: a residual Conv computes into its addend's bytes where it is the last reader",
          "[compiler][passes]") {
  const SameConvLayer l1 = Layer(3, 11), l3 = Layer(1, 13), l4 = Layer(1, 14), l5 = Layer(1, 15), l6 = Layer(1, 16);
  Builder b;
  const std::vector<int64_t> shape = {1, kC, kS, kS};
  const int32_t x = b.Data("x", shape), y = b.Data("y", shape);
  const int32_t r1 = b.Op("r1", "Relu", {AddSameConv(b, "c1", l1, x)});
  const int32_t ra = b.Op("ra", "Relu", {b.Op("a", "Add", {AddSameConv(b, "c3", l3, y), r1})});
  const int32_t rb = b.Op("rb", "Relu", {b.Op("b", "Add", {AddSameConv(b, "c4", l4, ra), ra})});
  const int32_t r5 = b.Op("r5", "Relu", {AddSameConv(b, "c5", l5, ra)});
  b.Output({AddSameConv(b, "c6", l6, rb), r5});

  const om::Model shared = Compile(b.g, AllOn());
  const om::Model apart = Compile(b.g, TempFile("addend_in_place_off.cfg", "AddendInPlacePass:off\n"));
  compiler::CompileOptions no_reuse;
  no_reuse.target = openatc::HostTarget();
  no_reuse.model_path = "<addend in place test>";
  no_reuse.ge_options["ge.exec.disableReuseMemory"] = "1";
  const om::Model unshared = compiler::CompileGraph(b.g, no_reuse, BuiltinOpp());

  // The premises: the Adds fused into blocked Convs named after their Relus, c5 after rb's Conv.
  for (const char *n : {"ra", "rb"}) {
    INFO(n);
    const ir::Node &c = Named(shared.graph, n);
    REQUIRE(c.type == "Conv");
    REQUIRE(c.inputs.size() == 4);
    CHECK(c.attrs.at("openatc_y_blocked").i == 1);
    CHECK(c.attrs.at("openatc_addend_blocked").i == 1);
  }
  REQUIRE(shared.graph.FindNode("r5") > shared.graph.FindNode("rb"));
  CHECK(InPlace(shared, "ra"));
  CHECK(Offset(shared, "ra") == Offset(shared, "r1"));
  CHECK(!InPlace(shared, "rb"));
  CHECK(Offset(shared, "rb") != Offset(shared, "ra"));
  for (const om::Model *m : {&apart, &unshared}) {
    CHECK(!InPlace(*m, "ra"));
    CHECK(Offset(*m, "ra") != Offset(*m, "r1"));
  }

  const size_t n = size_t(kC * kS * kS);
  const float nan = std::nanf(""), inf = std::numeric_limits<float>::infinity();
  struct Step {
    std::vector<std::pair<size_t, float>> in_x, in_y;  // non-finite values put into x and y
  };
  const std::vector<Step> steps = {{{}, {}},           {{{5, nan}}, {}}, {{}, {}}, {{{100, inf}, {700, -inf}}, {}},
                                   {{}, {{9, nan}}},   {{{1000, nan}}, {{300, -inf}}}, {{}, {}}};
  for (const om::Model *m : {&shared, &apart, &unshared}) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(om::Serialize(*m));
    auto model = runtime::LoadedModel::Load(om::ReadBytes(bytes->data(), bytes->size(), bytes), "<addend in place>");
    for (size_t k = 0; k < steps.size(); ++k) {
      INFO((m == &shared ? "shared" : m == &apart ? "pass off" : "reuse off") << ", step " << k);
      std::vector<float> xv = Integers(n, uint32_t(20 + k), -1, 1), yv = Integers(n, uint32_t(40 + k), -1, 1);
      for (const auto &[i, v] : steps[k].in_x) xv[i] = v;
      for (const auto &[i, v] : steps[k].in_y) yv[i] = v;
      const std::vector<HostTensor> out = model->Run({Host(shape, xv), Host(shape, yv)});
      REQUIRE(out.size() == 2);
      const std::vector<double> r1d = Relu(RefSameConv(l1, Doubles(xv), kS, false));
      const std::vector<double> rad = Relu(Plus(RefSameConv(l3, Doubles(yv), kS, false), r1d));
      const std::vector<double> rbd = Relu(Plus(RefSameConv(l4, rad, kS, false), rad));
      CheckSame(Values(out[0]), RefSameConv(l6, rbd, kS, false), "out 0");
      CheckSame(Values(out[1]), Relu(RefSameConv(l5, rad, kS, false)), "out 1");
    }
  }
}
