// The ONNX-17/20 signal ops through the one-op harness with hand-computed values: HannWindow,
// HammingWindow, BlackmanWindow (periodic and symmetric, output_datatype), MelWeightMatrix, DFT
// (opset 17 axis attribute and opset 20 axis input, inverse, onesided, dft_length cut and pad,
// complex input) and STFT (frame step, window, frame_length, onesided), plus error messages.
#include <cmath>

#include "op_checks.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using D = std::vector<double>;
using I64 = std::vector<int64_t>;

HostTensor Scalar(int64_t v) { return In({}, {v}); }

HostTensor Window(const char *op, int64_t size, std::map<std::string, ir::AttrValue> at = {}) {
  return RunOp({op, {{Scalar(size), true}}, at})[0];
}
}  // namespace

TEST_CASE("Hann, Hamming and Blackman windows: periodic, symmetric, output_datatype", "[ops][signal]") {
  // periodic size 4: N = 4, cos(2 pi n / 4) = 1, 0, -1, 0.
  const HostTensor hann = Window("HannWindow", 4);
  CHECK(hann.dtype == ge::DT_FLOAT);
  CHECK(hann.shape == I64{4});
  CheckClose(Values<float>(hann), {0, 0.5f, 1, 0.5f});
  CheckClose(Values<float>(Window("HammingWindow", 4)), {4.0f / 46, 25.0f / 46, 1, 25.0f / 46});
  CheckClose(Values<float>(Window("BlackmanWindow", 4)), {0, 0.34f, 1, 0.34f});
  // symmetric size 5: N = 4, the same values plus the closing sample.
  CheckClose(Values<float>(Window("HannWindow", 5, {{"periodic", IntAttr(0)}})), {0, 0.5f, 1, 0.5f, 0});
  CheckClose(Values<float>(Window("BlackmanWindow", 5, {{"periodic", IntAttr(0)}})), {0, 0.34f, 1, 0.34f, 0});
  // output_datatype 11 (double) and 7 (int64, values truncated).
  const HostTensor d = Window("HammingWindow", 2, {{"output_datatype", IntAttr(11)}});
  CHECK(d.dtype == ge::DT_DOUBLE);
  const D dv = Values<double>(d);
  REQUIRE(dv.size() == 2);
  CHECK(dv[0] == Approx(4.0 / 46).epsilon(1e-12));
  CHECK(dv[1] == Approx(1.0).epsilon(1e-12));
  const HostTensor i = Window("HannWindow", 4, {{"output_datatype", IntAttr(7)}});
  CHECK(i.dtype == ge::DT_INT64);
  CHECK(Values<int64_t>(i) == I64{0, 0, 1, 0});
  CHECK(Window("HannWindow", 0).shape == I64{0});
  CHECK_FAILS_WITH(OpCase("HannWindow", {{Scalar(4), true}}, {{"output_datatype", IntAttr(8)}}),
                   "output_datatype 8 is not a float or integer ONNX tensor type");
  CHECK_FAILS_WITH(OpCase("BlackmanWindow", {{Scalar(-1)}}), "size must be >= 0, got -1");
}

TEST_CASE("MelWeightMatrix: triangular bands on the spectrum bins, errors", "[ops][signal]") {
  // 3 bands, dft_length 32 (17 bins), 16 kHz, 100..6000 Hz: the 5 band edges fall on bins
  // floor(33 hz / 16000) = 0, 1, 2, 4, 7 (mel-spaced edges 100, 535.8, 1172, 2163.4, 3679.4 Hz).
  auto run = [](double upper, int64_t out_type) {
    return RunOp({"MelWeightMatrix",
                  {{Scalar(3), true}, {Scalar(32), true}, {Scalar(16000), true}, {Fl({}, {100}), true},
                   {Fl({}, {static_cast<float>(upper)}), true}},
                  {{"output_datatype", IntAttr(out_type)}}})[0];
  };
  const HostTensor y = run(6000, 1);
  CHECK(y.shape == I64{17, 3});
  F want(17 * 3, 0.0f);
  auto at = [&](int row, int band) -> float & { return want[static_cast<size_t>(row * 3 + band)]; };
  at(1, 0) = 1;                                                       // band 0: edges 0, 1, 2
  at(2, 1) = 1, at(3, 1) = 0.5f;                                      // band 1: edges 1, 2, 4
  at(3, 2) = 0.5f, at(4, 2) = 1, at(5, 2) = 2.0f / 3, at(6, 2) = 1.0f / 3;  // band 2: edges 2, 4, 7
  CheckClose(Values<float>(y), want);
  CHECK(run(6000, 11).dtype == ge::DT_DOUBLE);
  const std::string t = RunOpExpectingFailure({"MelWeightMatrix",
                                               {{Scalar(3)}, {Scalar(32)}, {Scalar(16000)}, {Fl({}, {100})},
                                                {Fl({}, {20000})}}});
  CHECK(t.find("outside [0, 16]. Keep upper_edge_hertz at or below sample_rate / 2") != std::string::npos);
}

TEST_CASE("DFT-17: real and complex input, axis attribute, onesided, dft_length, inverse", "[ops][signal]") {
  // [1, 2, 3, 4]: X = 10, -2 + 2i, -2, -2 - 2i.
  const HostTensor real = Fl({1, 4, 1}, {1, 2, 3, 4});
  const F spectrum = {10, 0, -2, 2, -2, 0, -2, -2};
  const HostTensor y = RunOp({"DFT", {{real}}})[0];
  CHECK(y.shape == I64{1, 4, 2});
  CheckClose(Values<float>(y), spectrum);
  const HostTensor half = RunOp({"DFT", {{real}}, {{"onesided", IntAttr(1)}}})[0];
  CHECK(half.shape == I64{1, 3, 2});
  CheckClose(Values<float>(half), F(spectrum.begin(), spectrum.begin() + 6));
  // dft_length 2 cuts the signal to [1, 2]; 6 zero-pads it (X[3] = 1 - 2 + 3 - 4 + 0 - 0 = -2,
  // X[1] = 1 + 2w + 3w^2 + 4w^3 with w = e^{-i pi / 3}).
  CheckClose(Values<float>(RunOp({"DFT", {{real}, {Scalar(2), true}}})[0]), {3, 0, -1, 0});
  const F six = Values<float>(RunOp({"DFT", {{real}, {Scalar(6), true}}})[0]);
  REQUIRE(six.size() == 12);
  const double s3 = std::sqrt(3.0);
  CheckClose({six[0], six[1], six[2], six[3], six[6], six[7]},
             {10, 0, static_cast<float>(1 + 1 - 1.5 - 4), static_cast<float>(-s3 - 1.5 * s3), -2, 0}, 1e-4f);
  // The inverse of the complex spectrum gives back the signal (imaginary parts 0).
  CheckClose(Values<float>(RunOp({"DFT", {{Fl({1, 4, 2}, spectrum)}}, {{"inverse", IntAttr(1)}}})[0]),
             {1, 0, 2, 0, 3, 0, 4, 0});
  // [[1, 2], [3, 4]] as [1, 2, 2, 1]: along axis 2 (rows) and axis 1 (columns).
  const HostTensor m = Fl({1, 2, 2, 1}, {1, 2, 3, 4});
  CheckClose(Values<float>(RunOp({"DFT", {{m}}, {{"axis", IntAttr(2)}}})[0]), {3, 0, -1, 0, 7, 0, -1, 0});
  CheckClose(Values<float>(RunOp({"DFT", {{m}}, {{"axis", IntAttr(-3)}}})[0]), {4, 0, 6, 0, -2, 0, -2, 0});
  CHECK_FAILS_WITH(OpCase("DFT", {{m}}, {{"axis", IntAttr(3)}}), "axis 3 is outside [-4, -2] and [0, 2]");
  CHECK_FAILS_WITH(OpCase("DFT", {{Fl({1, 2, 3}, F(6, 1))}}), "input must be [..., 1] (real) or [..., 2] (complex)");
  CHECK_FAILS_WITH(OpCase("DFT", {{real}, {Scalar(0)}}), "dft_length must be > 0, got 0");
  CHECK_FAILS_WITH(OpCase("DFT", {{real}, {Scalar(int64_t{1} << 18)}}), "needs more than 2^34 multiply-adds");
}

TEST_CASE("DFT-20: axis as an optional input (default -2)", "[ops][signal]") {
  const HostTensor m = Fl({1, 2, 2, 1}, {1, 2, 3, 4});
  const auto v20 = std::map<std::string, ir::AttrValue>{{"onnx_opset", IntAttr(20)}};
  const F rows = {3, 0, -1, 0, 7, 0, -1, 0}, cols = {4, 0, 6, 0, -2, 0, -2, 0};
  CheckClose(Values<float>(RunOp({"DFT", {{m}}, v20})[0]), rows);  // no axis: -2 = the last signal dim
  CheckClose(Values<float>(RunOp({"DFT", {{m}, {}, {Scalar(1), true}}, v20})[0]), cols);
  CheckClose(Values<float>(RunOp({"DFT", {{m}, {}, {Scalar(-2)}}, v20})[0]), rows);  // axis known at run time
  CheckClose(Values<float>(RunOp({"DFT", {{m}, {Scalar(1), true}, {Scalar(-3), true}}, v20})[0]), {1, 0, 2, 0});
  CHECK_FAILS_WITH(OpCase("DFT", {{m}, {}, {Scalar(-1)}}, v20), "axis -1 is outside [-4, -2] and [0, 2]");
}

TEST_CASE("STFT: frames, window, frame_length, onesided, errors", "[ops][signal]") {
  const HostTensor sig = Fl({1, 4, 1}, {1, 2, 3, 4});
  // frames [1, 2] and [3, 4] (step 2, length 2): [3, -1] and [7, -1]; onesided keeps 2 bins.
  const HostTensor y = RunOp({"STFT", {{sig}, {Scalar(2), true}, {}, {Scalar(2), true}}})[0];
  CHECK(y.shape == I64{1, 2, 2, 2});
  CheckClose(Values<float>(y), {3, 0, -1, 0, 7, 0, -1, 0});
  // window [1, 0] (frame_length from it): frames [1, 0] and [3, 0].
  CheckClose(Values<float>(RunOp({"STFT", {{sig}, {Scalar(2), true}, {Fl({2}, {1, 0})}}})[0]), {1, 0, 1, 0, 3, 0, 3, 0});
  // one frame of the whole signal, all bins; complex input [i, 0, 0, 0] -> i in every bin.
  const HostTensor full = RunOp({"STFT", {{sig}, {Scalar(1)}}, {{"onesided", IntAttr(0)}}})[0];
  CHECK(full.shape == I64{1, 1, 4, 2});
  CheckClose(Values<float>(full), {10, 0, -2, 2, -2, 0, -2, -2});
  CheckClose(Values<float>(RunOp({"STFT", {{Fl({1, 4, 2}, {0, 1, 0, 0, 0, 0, 0, 0})}, {Scalar(4)}},
                                  {{"onesided", IntAttr(0)}}})[0]),
             {0, 1, 0, 1, 0, 1, 0, 1});
  // three frames of length 2 at step 1 on a 4-sample signal: frame 1 is [2, 3].
  const F three = Values<float>(RunOp({"STFT", {{sig}, {Scalar(1), true}, {}, {Scalar(2), true}}})[0]);
  REQUIRE(three.size() == 12);
  CheckClose({three[4], three[6]}, {5, -1});
  CHECK_FAILS_WITH(OpCase("STFT", {{sig}, {Scalar(2)}, {Fl({2}, {1, 0})}, {Scalar(3)}}),
                   "frame_length 3 differs from the window's length 2");
  CHECK_FAILS_WITH(OpCase("STFT", {{sig}, {Scalar(0)}}), "frame_step must be > 0");
  CHECK_FAILS_WITH(OpCase("STFT", {{Fl({4, 1}, {1, 2, 3, 4})}, {Scalar(1)}}), "signal must be [batch, signal_length, 1 | 2]");
}
