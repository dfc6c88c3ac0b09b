// RNN, GRU and LSTM (ops/RNN.cc, ops/GRU.cc, ops/LSTM.cc, ops/common/recurrent.cc) through the one-op
// harness with hand-computed values: what Debian's ONNX cases leave out (reverse and
// bidirectional directions, sequence_lens shorter than the sequence and 0, layout 1 initial
// states, activations with alpha/beta, clip, GRU linear_before_reset 1, LSTM peepholes with
// initial_c, input_forget and Y_c) and the error messages.
#include <catch2/catch.hpp>

#include <cmath>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using Dims = std::vector<int64_t>;

HostTensor F(Dims shape, const std::vector<float> &v) { return Tensor(ge::DT_FLOAT, std::move(shape), v); }

ir::AttrValue StringsAttr(const std::vector<std::string> &v) {
  ir::AttrValue a;
  a.kind = ir::AttrKind::kListString;
  a.list_s = v;
  return a;
}

void CheckClose(const HostTensor &t, const Dims &shape, const std::vector<double> &want) {
  CHECK(t.shape == shape);
  const std::vector<float> got = Values<float>(t);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= 1e-6 + 1e-5 * std::fabs(want[i]));
  }
}

double Sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }
}  // namespace

TEST_CASE("RNN reverse with sequence_lens 3, 2 and 0 (Relu)", "[ops][recurrent]") {
  // W 1, R 0.5, Wb 1, Rb 0. Row 0 (x 1,2,3) runs t2: 3+1 = 4, t1: 2+1+2 = 5, t0: 1+1+2.5 = 4.5;
  // row 1 (x 4,5,6, length 2) t1: 5+1 = 6, t0: 4+1+3 = 8, Y at t2 is 0; row 2 (length 0) keeps
  // its initial state 2 and has Y 0.
  auto out = RunOp({"RNN",
                    {{F({3, 3, 1}, {1, 4, 7, 2, 5, 8, 3, 6, 9})},
                     {F({1, 1, 1}, {1})},
                     {F({1, 1, 1}, {0.5f})},
                     {F({1, 2}, {1, 0})},
                     {Tensor(ge::DT_INT32, {3}, std::vector<int32_t>{3, 2, 0})},
                     {F({1, 3, 1}, {0, 0, 2})}},
                    {{"direction", StringAttr("reverse")}, {"activations", StringsAttr({"Relu"})}, {"hidden_size", IntAttr(1)}},
                    2});
  REQUIRE(out.size() == 2);
  CheckClose(out[0], {3, 1, 3, 1}, {4.5, 8, 0, 5, 6, 0, 4, 0, 0});
  CheckClose(out[1], {1, 3, 1}, {4.5, 8, 2});
}

TEST_CASE("RNN bidirectional, layout 1, activations with alpha and beta", "[ops][recurrent]") {
  // Forward Affine (alpha 2, beta 1): t0 2*(1+0.5)+1 = 4, t1 2*(-2+4)+1 = 5. Reverse LeakyRelu
  // (alpha 0.5, the second alpha value): t1 -2-1 = -3 -> -1.5, t0 1-1.5 = -0.5 -> -0.25.
  // Row 1 (x 0, 1; initial_h 1 forward, 2 reverse): forward 2*1+1 = 3, 2*(1+3)+1 = 9; reverse
  // t1 1+2 = 3, t0 0+3 = 3. initial_h, Y and Y_h are batch-major.
  auto out = RunOp({"RNN",
                    {{F({2, 2, 1}, {1, -2, 0, 1})},
                     {F({2, 1, 1}, {1, 1})},
                     {F({2, 1, 1}, {1, 1})},
                     {},
                     {},
                     {F({2, 2, 1}, {0.5f, -1, 1, 2})}},
                    {{"direction", StringAttr("bidirectional")},
                     {"layout", IntAttr(1)},
                     {"activations", StringsAttr({"Affine", "LeakyRelu"})},
                     {"activation_alpha", FloatsAttr({2, 0.5f})},
                     {"activation_beta", FloatsAttr({1})}},
                    2});
  CheckClose(out[0], {2, 2, 2, 1}, {4, -0.25, 5, -1.5, 3, 3, 9, 3});
  CheckClose(out[1], {2, 2, 1}, {5, -0.25, 9, 3});
}

TEST_CASE("RNN bidirectional with one direction's activations: both use them and their alpha", "[ops][recurrent]") {
  // Affine alpha 3, beta 0 in both directions: x 1 gives 3 forward and 3 reverse (the default
  // alpha 1 would give 1).
  auto out = RunOp({"RNN",
                    {{F({1, 1, 1}, {1})}, {F({2, 1, 1}, {1, 1})}, {F({2, 1, 1}, {0, 0})}},
                    {{"direction", StringAttr("bidirectional")},
                     {"activations", StringsAttr({"Affine"})},
                     {"activation_alpha", FloatsAttr({3})},
                     {"activation_beta", FloatsAttr({0})}}});
  CheckClose(out[0], {1, 2, 1, 1}, {3, 3});
}

namespace {
// One GRU step, hidden 1: W (z, r, h) 0.5, -0.5, 1; R 1, 2, -1; Wb 0.1, 0.2, 0.3; Rb -0.1, 0.4, 0.25;
// x 2, initial_h 0.5.
std::vector<HostTensor> GruStep(int64_t lbr, float clip) {
  std::map<std::string, ir::AttrValue> attrs{{"linear_before_reset", IntAttr(lbr)}};
  if (clip > 0) attrs["clip"] = FloatAttr(clip);
  return RunOp({"GRU",
                {{F({1, 1, 1}, {2})},
                 {F({1, 3, 1}, {0.5f, -0.5f, 1})},
                 {F({1, 3, 1}, {1, 2, -1})},
                 {F({1, 6}, {0.1f, 0.2f, 0.3f, -0.1f, 0.4f, 0.25f})},
                 {},
                 {F({1, 1, 1}, {0.5f})}},
                attrs,
                2});
}
}  // namespace

TEST_CASE("GRU linear_before_reset 0 and 1, clip", "[ops][recurrent]") {
  const double z = Sig(1.5), r = Sig(0.6);
  // 0: h~ = tanh(2 + (-1)(r*0.5) + 0.25 + 0.3); 1: h~ = tanh(2 + r*((-1)*0.5 + 0.25) + 0.3).
  const double h0 = (1 - z) * std::tanh(2.55 - 0.5 * r) + z * 0.5;
  const double h1 = (1 - z) * std::tanh(2.3 - 0.25 * r) + z * 0.5;
  auto a = GruStep(0, 0);
  CheckClose(a[0], {1, 1, 1, 1}, {h0});
  CheckClose(a[1], {1, 1, 1}, {h0});
  CheckClose(GruStep(1, 0)[1], {1, 1, 1}, {h1});
  // clip 1: z's pre-activation 1.5 -> 1, r's 0.6 stays, h~'s 2.55 - 0.5r > 1 -> 1.
  const double zc = Sig(1.0);
  CheckClose(GruStep(0, 1.0f)[1], {1, 1, 1}, {(1 - zc) * std::tanh(1.0) + zc * 0.5});
}

namespace {
// One LSTM step, hidden 1: W (i, o, f, c) 1, 0.5, -1, 2; R 0.5, -0.5, 1, 0.25; Wb 0.1..0.4, Rb 0;
// P (i, o, f) 0.3, -0.2, 0.1; x 1, initial_h 0.2, initial_c -0.5.
std::vector<HostTensor> LstmStep(int64_t input_forget) {
  return RunOp({"LSTM",
                {{F({1, 1, 1}, {1})},
                 {F({1, 4, 1}, {1, 0.5f, -1, 2})},
                 {F({1, 4, 1}, {0.5f, -0.5f, 1, 0.25f})},
                 {F({1, 8}, {0.1f, 0.2f, 0.3f, 0.4f, 0, 0, 0, 0})},
                 {},
                 {F({1, 1, 1}, {0.2f})},
                 {F({1, 1, 1}, {-0.5f})},
                 {F({1, 3}, {0.3f, -0.2f, 0.1f})}},
                {{"input_forget", IntAttr(input_forget)}},
                3});
}
}  // namespace

TEST_CASE("LSTM peepholes, initial_c, Y_c and input_forget", "[ops][recurrent]") {
  const double i = Sig(1 + 0.1 + 0.5 * 0.2 + 0.3 * -0.5), cand = std::tanh(2 + 0.4 + 0.25 * 0.2);
  for (int64_t coupled : {0, 1}) {
    INFO("input_forget " << coupled);
    const double f = coupled ? 1 - i : Sig(-1 + 0.3 + 0.2 + 0.1 * -0.5);
    const double c = f * -0.5 + i * cand;
    const double h = Sig(0.5 + 0.2 - 0.5 * 0.2 - 0.2 * c) * std::tanh(c);
    auto out = LstmStep(coupled);
    REQUIRE(out.size() == 3);
    CheckClose(out[0], {1, 1, 1, 1}, {h});
    CheckClose(out[1], {1, 1, 1}, {h});
    CheckClose(out[2], {1, 1, 1}, {c});
  }
}

TEST_CASE("RNN, GRU, LSTM refuse bad attributes and inputs with a message", "[ops][recurrent]") {
  auto rnn = [](std::map<std::string, ir::AttrValue> attrs, OpInput lens = {}) {
    return RunOpExpectingFailure({"RNN",
                                  {{F({2, 1, 1}, {1, 2})}, {F({1, 1, 1}, {1})}, {F({1, 1, 1}, {1})}, {}, lens},
                                  std::move(attrs)});
  };
  CHECK_THAT(rnn({{"direction", StringAttr("sideways")}}),
             Catch::Contains("direction 'sideways' is not forward, reverse or bidirectional"));
  CHECK_THAT(rnn({{"activations", StringsAttr({"Swish"})}}), Catch::Contains("unknown activation 'Swish'"));
  CHECK_THAT(rnn({{"activations", StringsAttr({"Tanh", "Relu"})}}),
             Catch::Contains("activations lists 2 functions; this node needs 1 per direction (1)"));
  CHECK_THAT(rnn({{"activations", StringsAttr({"Tanh"})}, {"activation_alpha", FloatsAttr({0.5f})}}),
             Catch::Contains("activation_alpha / activation_beta hold 1 / 0 values but the activations take 0 / 0"));
  CHECK_THAT(rnn({{"hidden_size", IntAttr(3)}}), Catch::Contains("hidden_size 3 differs from R's last dim 1"));
  CHECK_THAT(rnn({{"direction", StringAttr("bidirectional")}}),
             Catch::Contains("expected W [2, 1, 1] and R [2, 1, 1]"));
  CHECK_THAT(rnn({}, {Tensor(ge::DT_INT32, {1}, std::vector<int32_t>{3})}),
             Catch::Contains("sequence_lens[0] = 3 is outside [0, 2]"));
  CHECK_THAT(RunOpExpectingFailure({"GRU",
                                    {{F({1, 1, 1}, {1})}, {F({1, 3, 1}, {1, 1, 1})}, {F({1, 3, 1}, {1, 1, 1})}},
                                    {{"linear_before_reset", IntAttr(2)}}}),
             Catch::Contains("linear_before_reset 2 is not 0 or 1"));
  CHECK_THAT(RunOpExpectingFailure({"LSTM",
                                    {{F({1, 1, 1}, {1})}, {F({1, 4, 1}, {1, 1, 1, 1})}, {F({1, 4, 1}, {1, 1, 1, 1})},
                                     {F({1, 4}, {0, 0, 0, 0})}}}),
             Catch::Contains("B has shape [1, 4]; expected [1, 8]"));
}

TEST_CASE("RNN in float16 and double keeps the dtype", "[ops][recurrent]") {
  // Relu(x W + h R): t0 1.5*2 = 3, t1 -0.5*2 + 3*0.25 = -0.25 -> 0.
  using half = _Float16;
  auto h = RunOp({"RNN",
                  {{Tensor(ge::DT_FLOAT16, {2, 1, 1}, std::vector<half>{half(1.5f), half(-0.5f)})},
                   {Tensor(ge::DT_FLOAT16, {1, 1, 1}, std::vector<half>{half(2.0f)})},
                   {Tensor(ge::DT_FLOAT16, {1, 1, 1}, std::vector<half>{half(0.25f)})}},
                  {{"activations", StringsAttr({"Relu"})}}});
  CHECK(h[0].dtype == ge::DT_FLOAT16);
  const std::vector<half> hv = Values<half>(h[0]);
  REQUIRE(hv.size() == 2);
  CHECK(static_cast<float>(hv[0]) == 3.0f);
  CHECK(static_cast<float>(hv[1]) == 0.0f);
  auto d = RunOp({"RNN",
                  {{Tensor(ge::DT_DOUBLE, {2, 1, 1}, std::vector<double>{1.5, -0.5})},
                   {Tensor(ge::DT_DOUBLE, {1, 1, 1}, std::vector<double>{2.0})},
                   {Tensor(ge::DT_DOUBLE, {1, 1, 1}, std::vector<double>{0.25})}},
                  {{"activations", StringsAttr({"Relu"})}}});
  CHECK(d[0].dtype == ge::DT_DOUBLE);
  CHECK(Values<double>(d[0]) == std::vector<double>{3.0, 0.0});
}
