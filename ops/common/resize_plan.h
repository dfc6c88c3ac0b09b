/**
 * @file ops/common/resize_plan.h
 * The per-axis sampling plan of Resize (ONNX Resize-13, docs/Operators.md of ONNX 1.12; also
 * what the front end turns Upsample-7/9 and Resize-10 into). Resize is separable: every output
 * coordinate x of an axis maps to a source coordinate x_original by
 * `coordinate_transformation_mode`, then reads 1 (nearest), 2 (linear) or 4 (cubic) input
 * elements of that axis with weights. A plan holds those taps for one axis; Resize applies one
 * pass per axis whose plan is not the identity.
 *
 * Coordinate modes (scale = output/input, "length_resized" = scale * input as in ONNX's
 * reference implementation, so a given `scales` value is used as is even when the output size
 * was floored):
 *   half_pixel          (x + 0.5) / scale - 0.5
 *   pytorch_half_pixel  length_resized > 1 ? (x + 0.5) / scale - 0.5 : 0
 *   align_corners       length_resized == 1 ? 0 : x * (input - 1) / (length_resized - 1)
 *   asymmetric          x / scale
 *   tf_half_pixel_for_nn (x + 0.5) / scale
 *   tf_crop_and_resize  length_resized > 1 ? start * (input - 1) + x * (end - start) * (input - 1) /
 *                       (length_resized - 1) : 0.5 * (start + end) * (input - 1); a result outside
 *                       [0, input - 1] yields `extrapolation_value` (start/end from roi).
 *   half_pixel_symmetric (Resize-19) offset + (x + 0.5) / scale - 0.5, offset = input / 2 *
 *                       (1 - output / length_resized), output = the integer output length
 * Sampling: nearest rounds x_original by `nearest_mode` (round_prefer_floor, round_prefer_ceil,
 * floor, ceil; an integral value is kept); linear and cubic (Keys kernel with `cubic_coeff_a`)
 * read the neighbours of floor(x_original); indices outside the axis are clamped to its edge
 * (with exclude_outside=1, taps outside get weight 0 and the rest are renormalised).
 * Antialias (Resize-18, linear and cubic only): when an axis shrinks (scale < 1) the kernel is
 * stretched by 1 / scale: tap j weighs kernel(scale * (j - x_original)) (linear: max(0, 1 - |d|);
 * cubic: the Keys kernel, 0 from |d| = 2), over the 2 * ceil(support / scale) taps around
 * x_original (support 1 linear, 2 cubic), and the weights are divided by their sum. An axis that
 * grows or keeps its size samples as without antialias.
 */
#ifndef OPENATC_OPS_COMMON_RESIZE_PLAN_H_
#define OPENATC_OPS_COMMON_RESIZE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops {

enum class ResizeMode { kNearest, kLinear, kCubic };
enum class CoordMode {
  kHalfPixel, kPytorchHalfPixel, kAlignCorners, kAsymmetric, kTfHalfPixelForNn, kTfCropAndResize, kHalfPixelSymmetric
};
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

struct ResizeAttrs {
  ResizeMode mode = ResizeMode::kNearest;
  CoordMode coord = CoordMode::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  double extrapolation = 0.0;
  bool antialias = false;
};

/// Parses the attribute strings (ONNX names); false with `*error` naming the bad value.
bool ParseResizeAttrs(const std::string &mode, const std::string &coord, const std::string &nearest, ResizeAttrs *a,
                      std::string *error);

/// Taps of one axis: output position p reads index[p * taps + t] with weight[p * taps + t]
/// (t < taps), unless outside[p] (tf_crop_and_resize out of range: extrapolation_value).
struct AxisPlan {
  int taps = 1;
  std::vector<int64_t> index;
  std::vector<double> weight;
  std::vector<uint8_t> outside;
  bool identity = false;  ///< output == input on this axis (the pass can be skipped)
};

/// The taps per output element of an axis resized with `scale` (see the file comment: 1 nearest, 2 linear, 4 cubic; more with antialias on a shrinking axis), as a double so
/// that a tiny scale can be refused before it is planned.
double ResizeTaps(const ResizeAttrs &a, double scale);

/// The source coordinate of output coordinate `x` (see the file comment). `in` >= 1.
double SourceCoordinate(CoordMode m, double x, double scale, int64_t in, double roi_start, double roi_end);

/// The plan of an axis of `in` (>= 1) elements resized to `out` with `scale`; roi_start/end are
/// used by tf_crop_and_resize only.
AxisPlan PlanAxis(const ResizeAttrs &a, int64_t in, int64_t out, double scale, double roi_start, double roi_end);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_RESIZE_PLAN_H_
