// NonMaxSuppression, Unique, Einsum and RoiAlign through the one-op harness with hand-computed
// values: the edge cases Debian's ONNX node cases leave out (ties, thresholds that equal the
// IoU/score, zero-area boxes, absent optional inputs; Unique along an axis unsorted and with
// NaN; Einsum implicit output, trace, broadcast ellipsis, three operands, integers; RoiAlign
// opset-10 and -16 defaults, max mode, border clamp, samples outside the image) and the error
// messages of bad inputs.
#include <cmath>

#include <catch2/catch.hpp>

#include "op_harness.h"

using namespace openatc;
using namespace openatc::testing;

namespace {
using F = std::vector<float>;
using I64 = std::vector<int64_t>;

HostTensor Fl(std::vector<int64_t> shape, const F &v) { return Tensor<float>(ge::DT_FLOAT, std::move(shape), v); }
HostTensor In(std::vector<int64_t> shape, const I64 &v) { return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v); }

#define CHECK_FAILS_WITH(c, fragment)                  \
  do {                                                 \
    const std::string _t = RunOpExpectingFailure(c);   \
    INFO(_t);                                          \
    CHECK(_t.find("<no error>") == std::string::npos); \
    CHECK(_t.find(fragment) != std::string::npos);     \
  } while (0)

// Boxes (y1, x1, y2, x2): b0 unit square, b1 = b0 widened to x2 = 2 (IoU(b0, b1) = 1/2), b2 a
// point (no area) given with flipped corners; scores tie b0/b1.
const HostTensor kBoxes = Fl({1, 3, 4}, {0, 0, 1, 1, 0, 0, 1, 2, 1, 1, 1, 1});
const HostTensor kScores = Fl({1, 1, 3}, {0.9f, 0.9f, 0.5f});

OpCase Nms(float iou, std::vector<OpInput> extra) {
  std::vector<OpInput> in = {{kBoxes}, {kScores}, {In({1}, {3})}, {Fl({1}, {iou})}};
  for (auto &e : extra) in.push_back(e);
  return OpCase("NonMaxSuppression", in);
}
}  // namespace

TEST_CASE("NonMaxSuppression: strict IoU and score thresholds, ties, zero-area boxes, absent inputs", "[ops][nms]") {
  auto o = RunOp(Nms(0.5f, {}));  // IoU 0.5 is not > 0.5: b1 stays; equal scores: b0 first
  CHECK(o[0].shape == I64{3, 3});
  CHECK(Values<int64_t>(o[0]) == I64{0, 0, 0, 0, 0, 1, 0, 0, 2});
  o = RunOp(Nms(0.4f, {}));
  CHECK(Values<int64_t>(o[0]) == I64{0, 0, 0, 0, 0, 2});
  o = RunOp(Nms(0.4f, {{Fl({1}, {0.5f})}}));  // score 0.5 is not > 0.5
  CHECK(o[0].shape == I64{1, 3});
  CHECK(Values<int64_t>(o[0]) == I64{0, 0, 0});
  // No max_output_boxes_per_class (or a negative one): nothing is selected.
  o = RunOp({"NonMaxSuppression", {{kBoxes}, {kScores}}});
  CHECK(o[0].shape == I64{0, 3});
  o = RunOp({"NonMaxSuppression", {{kBoxes}, {kScores}, {In({1}, {-1})}}});
  CHECK(o[0].shape == I64{0, 3});
  // center_point_box 1: (xc, yc, w, h); box 1 is box 0 moved by 0.5 in x: IoU 0.5/1.5 = 1/3.
  OpCase c("NonMaxSuppression", {{Fl({1, 2, 4}, {1, 1, 1, 1, 1.5f, 1, 1, 1})},
                                 {Fl({1, 2, 2}, {0.1f, 0.2f, 0.3f, 0.3f})},
                                 {In({1}, {2})},
                                 {Fl({1}, {0.3f})}},
           {{"center_point_box", IntAttr(1)}});
  o = RunOp(c);  // class 0: box 1 first, box 0 suppressed; class 1: tie, box 0 then box 1 suppressed
  CHECK(Values<int64_t>(o[0]) == I64{0, 0, 1, 0, 1, 0});
  c.inputs[3] = OpInput(Fl({1}, {0.34f}));
  CHECK(Values<int64_t>(RunOp(c)[0]) == I64{0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1});
  // Boxes x 0..5 and x 0..6 (y 0..1): IoU 5/6, whose float value 0.83333331 is below 5/6. A
  // threshold equal to that float keeps both (a double comparison would suppress box 1).
  OpCase edge("NonMaxSuppression", {{Fl({1, 2, 4}, {0, 0, 1, 5, 0, 0, 1, 6})},
                                    {Fl({1, 1, 2}, {0.9f, 0.8f})},
                                    {In({1}, {3})},
                                    {Fl({1}, {5.0f / 6.0f})},
                                    {Fl({1}, {0})}});
  CHECK(Values<int64_t>(RunOp(edge)[0]) == I64{0, 0, 0, 0, 0, 1});
  edge.inputs[3] = OpInput(Fl({1}, {0.8333f}));
  CHECK(Values<int64_t>(RunOp(edge)[0]) == I64{0, 0, 0});
  // Disjoint boxes: a NaN score goes last.
  o = RunOp({"NonMaxSuppression", {{Fl({1, 3, 4}, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5})},
                                   {Fl({1, 1, 3}, {NAN, 0.5f, 0.7f})},
                                   {In({1}, {INT64_MAX})}}});
  CHECK(Values<int64_t>(o[0]) == I64{0, 0, 2, 0, 0, 1, 0, 0, 0});
  CHECK_FAILS_WITH(OpCase("NonMaxSuppression", {{Fl({1, 3, 3}, F(9, 0))}, {kScores}, {In({1}, {3})}}),
                   "boxes must be [batches, boxes, 4], got [1, 3, 3]");
  CHECK_FAILS_WITH(OpCase("NonMaxSuppression", {{kBoxes}, {Fl({1, 1, 2}, {1, 2})}, {In({1}, {3})}}),
                   "scores must be [batches, classes, boxes]");
  CHECK_FAILS_WITH(OpCase("NonMaxSuppression", {{kBoxes}, {kScores}, {In({1}, {3})}}, {{"center_point_box", IntAttr(2)}}),
                   "center_point_box must be 0 or 1, got 2");
}

TEST_CASE("Unique: flattened and along an axis, sorted and unsorted, NaN, int64, bad axis", "[ops][unique]") {
  const HostTensor x = Fl({6}, {2, 1, 1, 3, 4, 3});
  auto o = RunOp({"Unique", {{x}}, {}, 4});
  CHECK(Values<float>(o[0]) == F{1, 2, 3, 4});
  CHECK(Values<int64_t>(o[1]) == I64{1, 0, 3, 4});
  CHECK(Values<int64_t>(o[2]) == I64{1, 0, 0, 2, 3, 2});
  CHECK(Values<int64_t>(o[3]) == I64{2, 1, 2, 1});
  o = RunOp({"Unique", {{x}}, {}, 1});  // a node that names only Y
  REQUIRE(o.size() == 1);
  CHECK(Values<float>(o[0]) == F{1, 2, 3, 4});
  o = RunOp({"Unique", {{x}}, {{"sorted", IntAttr(0)}}, 4});
  CHECK(Values<float>(o[0]) == F{2, 1, 3, 4});
  CHECK(Values<int64_t>(o[1]) == I64{0, 1, 3, 4});
  CHECK(Values<int64_t>(o[2]) == I64{0, 1, 1, 2, 3, 2});
  CHECK(Values<int64_t>(o[3]) == I64{1, 2, 2, 1});
  // Columns (1, 2), (0, 5), (1, 2) of a [2, 3] matrix.
  const HostTensor m = Fl({2, 3}, {1, 0, 1, 2, 5, 2});
  o = RunOp({"Unique", {{m}}, {{"axis", IntAttr(-1)}}, 4});
  CHECK(o[0].shape == I64{2, 2});
  CHECK(Values<float>(o[0]) == F{0, 1, 5, 2});
  CHECK(Values<int64_t>(o[1]) == I64{1, 0});
  CHECK(Values<int64_t>(o[2]) == I64{1, 0, 1});
  CHECK(Values<int64_t>(o[3]) == I64{1, 2});
  o = RunOp({"Unique", {{m}}, {{"axis", IntAttr(1)}, {"sorted", IntAttr(0)}}, 4});
  CHECK(Values<float>(o[0]) == F{1, 0, 2, 5});
  CHECK(Values<int64_t>(o[1]) == I64{0, 1});
  CHECK(Values<int64_t>(o[2]) == I64{0, 1, 0});
  CHECK(Values<int64_t>(o[3]) == I64{2, 1});
  o = RunOp({"Unique", {{Fl({3}, {NAN, 1, NAN})}}, {}, 4});  // NaN after numbers, NaNs equal
  const F y = Values<float>(o[0]);
  REQUIRE(y.size() == 2);
  CHECK(y[0] == 1);
  CHECK(std::isnan(y[1]));
  CHECK(Values<int64_t>(o[2]) == I64{1, 0, 1});
  CHECK(Values<int64_t>(o[3]) == I64{1, 2});
  o = RunOp({"Unique", {{In({4}, {int64_t{1} << 60, 5, (int64_t{1} << 60) + 1, 5})}}, {}, 4});
  CHECK(Values<int64_t>(o[0]) == I64{5, int64_t{1} << 60, (int64_t{1} << 60) + 1});
  CHECK_FAILS_WITH(OpCase("Unique", {{m}}, {{"axis", IntAttr(2)}}, 4), "axis 2 is out of range for X [2, 3]");
}

TEST_CASE("Einsum: implicit output, transpose, trace, diagonal, ellipsis broadcast, three operands", "[ops][einsum]") {
  auto eq = [](const std::string &e) { return std::map<std::string, ir::AttrValue>{{"equation", StringAttr(e)}}; };
  const HostTensor a = Fl({2, 2}, {1, 2, 3, 4});
  auto o = RunOp({"Einsum", {{a}, {Fl({2, 2}, {5, 6, 7, 8})}}, eq("ij,jk")});
  CHECK(o[0].shape == I64{2, 2});
  CHECK(Values<float>(o[0]) == F{19, 22, 43, 50});
  o = RunOp({"Einsum", {{Fl({2, 3}, {1, 2, 3, 4, 5, 6})}}, eq("ba")});  // implicit output "ab"
  CHECK(o[0].shape == I64{3, 2});
  CHECK(Values<float>(o[0]) == F{1, 4, 2, 5, 3, 6});
  o = RunOp({"Einsum", {{a}}, eq("ii")});  // i twice: summed, the trace
  CHECK(o[0].shape.empty());
  CHECK(Values<float>(o[0]) == F{5});
  CHECK(Values<float>(RunOp({"Einsum", {{a}}, eq("i i -> i")})[0]) == F{1, 4});
  o = RunOp({"Einsum", {{Fl({}, {5})}}, eq("->")});  // a scalar through
  CHECK(o[0].shape.empty());
  CHECK(Values<float>(o[0]) == F{5});
  o = RunOp({"Einsum", {{a}, {Fl({1, 2}, {10, 100})}}, eq("...i,...i->...")});  // batch 1 broadcasts
  CHECK(o[0].shape == I64{2});
  CHECK(Values<float>(o[0]) == F{210, 430});
  o = RunOp({"Einsum", {{Fl({2}, {1, 2})}, {Fl({2}, {3, 4})}, {Fl({2}, {5, 6})}}, eq("i,i,i->")});
  CHECK(Values<float>(o[0]) == F{63});
  o = RunOp({"Einsum", {{Tensor<int32_t>(ge::DT_INT32, {3}, {1, 2, 3})}, {Tensor<int32_t>(ge::DT_INT32, {3}, {4, 5, 6})}},
             eq("i,i")});
  CHECK(Values<int32_t>(o[0]) == std::vector<int32_t>{32});
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("ij,jk")), "has 2 input terms for 1 inputs");
  CHECK_FAILS_WITH(OpCase("Einsum", {{Fl({2, 3}, F(6, 1))}, {a}}, eq("ij,jk")), "where its label has size 3");
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("ij->k")), "output label 'k' does not occur");
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("ij->ii")), "output label 'i' occurs more than once");
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("ij->i->j")), "unexpected character '-'");
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("i1")), "unexpected character '1'");
  CHECK_FAILS_WITH(OpCase("Einsum", {{a}}, eq("ijk")), "does not fit input 0 of shape [2, 2]");
}

TEST_CASE("RoiAlign: opset defaults, avg and max, scale, border clamp, outside samples, errors", "[ops][roialign]") {
  const HostTensor x = Fl({1, 1, 2, 2}, {1, 2, 3, 4});  // f(y, x) = 1 + x + 2y
  const HostTensor roi = Fl({1, 4}, {0, 0, 1, 1});
  const HostTensor b0 = In({1}, {0});
  auto run = [&](const HostTensor &r, std::map<std::string, ir::AttrValue> at) {
    at.emplace("sampling_ratio", IntAttr(1));
    return RunOp({"RoiAlign", {{x}, {r}, {b0}}, at})[0];
  };
  // output_half_pixel: one sample at (0.5, 0.5) = 2.5; half_pixel: at (0, 0) = 1.
  CHECK(Values<float>(run(roi, {{"onnx_opset", IntAttr(10)}})) == F{2.5f});
  CHECK(Values<float>(run(roi, {{"onnx_opset", IntAttr(16)}})) == F{1});
  CHECK(Values<float>(run(roi, {{"coordinate_transformation_mode", StringAttr("output_half_pixel")},
                               {"onnx_opset", IntAttr(16)}})) == F{2.5f});
  // max: the largest weighted corner term, 0.25 * 4.
  CHECK(Values<float>(run(roi, {{"onnx_opset", IntAttr(10)}, {"mode", StringAttr("max")}})) == F{1});
  // Scale 0.5 maps (0, 0, 4, 2) to x 0..2, y 0..1: samples (0.5, 0.5) and (0.5, 1.5 -> 1).
  const HostTensor y = run(Fl({1, 4}, {0, 0, 4, 2}), {{"onnx_opset", IntAttr(10)}, {"spatial_scale", FloatAttr(0.5f)},
                                                      {"output_width", IntAttr(2)}});
  CHECK(y.shape == I64{1, 1, 1, 2});
  CHECK(Values<float>(y) == F{2.5f, 3});
  CHECK(Values<float>(run(Fl({1, 4}, {3, 3, 5, 5}), {{"onnx_opset", IntAttr(10)}})) == F{0});  // (4, 4) is outside
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{x}, {roi}, {In({1}, {1})}}), "batch_indices[0] = 1 is outside [0, 0]");
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{x}, {roi}, {b0}}, {{"mode", StringAttr("sum")}}), "mode must be avg or max");
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{x}, {Fl({1, 4}, {0, NAN, 1, 1})}, {b0}}), "rois[0] is not finite");
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{x}, {Fl({1, 4}, {0, 0, 1e30f, 1e30f})}, {b0}}),
                   "rois[0] needs more than 2^20 samples per bin");
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{Fl({1, 1, 0, 2}, {})}, {roi}, {b0}}), "non-empty height and width");
  CHECK_FAILS_WITH(OpCase("RoiAlign", {{x}, {Fl({1, 3}, {0, 0, 1})}, {b0}}), "rois must be [num_rois, 4]");
}
