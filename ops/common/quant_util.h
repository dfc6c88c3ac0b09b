/**
 * @file ops/common/quant_util.h
 * Helpers of the quantized ONNX ops (QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
 * MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv): reading scales and zero points
 * (a scalar or a 1-D tensor), the quantized ranges, round-half-to-even with saturation, and the
 * int32-accumulating matmul and convolution over zero-point-shifted operands.
 *
 * ONNX facts (Operators.md, ONNX 1.12): quantization is y = saturate(round(x / scale) + zp) with
 * round half to even; uint8 saturates to [0, 255], int8 to [-128, 127]; an absent zero point is 0
 * (and then QuantizeLinear's output is uint8).
 */
#ifndef OPENATC_OPS_COMMON_QUANT_UTIL_H_
#define OPENATC_OPS_COMMON_QUANT_UTIL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/dnnl_window.h"
#include "common/index_util.h"

namespace openatc_ops {

/// Reads a float32 or float16 scale tensor as float; fails naming `what` when absent, of another dtype or empty.
bool ReadScale(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
               std::vector<float> *out);
/// Reads a uint8/int8/uint16/int16/int32 zero point (nullptr: {0}); fails naming `what` for other dtypes.
bool ReadZeroPoint(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                   std::vector<int32_t> *out);
/// How a scale or zero point maps onto the elements of x: one value (per tensor), one per element
/// of x's `axis` dim (per axis), or blocks of `block` elements along `axis` (blocked, opset 21:
/// the parameter has x's shape except ceil(d_axis / block) on the axis).
struct QuantParamMap {
  int64_t inner = 1, ch = 1, block = 0, blocks = 1;
  bool per_tensor = true;
  size_t Index(int64_t i) const {
    if (per_tensor) return 0;
    const int64_t c = (i / inner) % ch;
    if (block == 0) return static_cast<size_t>(c);
    return static_cast<size_t>(((i / (inner * ch)) * blocks + c / block) * inner + i % inner);
  }
};
/// Resolves the map of parameter `t` (nullptr: per tensor) for x of dims `x` under the `axis`
/// and `block_size` attributes; fails naming `what` when its shape fits no mode.
bool ResolveParamMap(const gert::ExtendedKernelContext *ctx, const Dims &x, const gert::Tensor *t, const char *what,
                     int64_t axis, int64_t block, QuantParamMap *m);
/// What every path of QuantizeLinear and DequantizeLinear resolves: x's dims, the maps of the
/// scale and of the zero point (nullptr: per tensor) under `axis` and `block_size`, and output y
/// (x's dims, dtype `y_dtype`) allocated.
struct QuantMaps {
  Dims dims;
  QuantParamMap scale, zero_point;
  gert::Tensor *y = nullptr;
};
/// Fails (message through Fail) naming `scale_name` / `zp_name` when a map fits no mode, or when
/// y cannot be allocated.
bool ResolveQuantMaps(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, const gert::Tensor *scale,
                      const char *scale_name, const gert::Tensor *zero_point, const char *zp_name, int64_t axis,
                      int64_t block, ge::DataType y_dtype, QuantMaps *m);
/// Checks that a per-axis parameter holds 1 value or `n` values (a scalar or 1-D tensor).
bool CheckParamCount(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, int64_t n,
                     const char *of);
/// Range of a quantized dtype: uint8 [0, 255], int8 [-128, 127], uint16, int16, int32 their full ranges.
bool QuantRange(ge::DataType d, int64_t *lo, int64_t *hi);
/// round-half-to-even(v) clamped to [lo, hi] (NaN gives lo's side of 0: 0 clamped).
inline int64_t RoundSaturate(double v, int64_t lo, int64_t hi) {
  if (std::isnan(v)) v = 0;
  const double r = std::nearbyint(v);  // default rounding mode: to nearest, ties to even
  return r < static_cast<double>(lo) ? lo : (r > static_cast<double>(hi) ? hi : static_cast<int64_t>(r));
}
/// Element i of a uint8/int8/uint16/int16/int32 tensor as int32; the tensor's dtype must be one of those.
std::vector<int32_t> ReadInt8Like(const gert::Tensor &t);
/// Writes `v` (already in range) into a uint8/int8/uint16/int16/int32 tensor.
void WriteQuantized(const std::vector<int64_t> &v, gert::Tensor *t);

/// Output dims of numpy.matmul of A and B (rank >= 1 each); "" or the reason.
std::string IntMatMulDims(const Dims &ad, const Dims &bd, Dims *yd);
/// Reads uint8/int8 operand `x` of a matmul (A when is_a, else B) and subtracts zero point `zt`
/// (nullptr: 0; A's per row, B's per column); fails with a message on a bad dtype or count.
bool ShiftedMatMulOperand(const gert::ExtendedKernelContext *ctx, const gert::Tensor *x, const gert::Tensor *zt,
                          bool is_a, std::vector<int32_t> *v, Dims *d);
/// numpy.matmul of int32 operands (rank >= 1 each; batch dims broadcast). "" or the reason.
std::string IntMatMul(const std::vector<int32_t> &a, const Dims &ad, const std::vector<int32_t> &b, const Dims &bd,
                      std::vector<int32_t> *y, Dims *yd);
/// A [.., M, K] operand shifted by a zero point of 1 or M values (per row) in place.
void SubtractRowZeroPoint(std::vector<int32_t> *a, const Dims &ad, const std::vector<int32_t> &zp);
/// A [.., K, N] operand shifted by a zero point of 1 or N values (per column) in place.
void SubtractColZeroPoint(std::vector<int32_t> *b, const Dims &bd, const std::vector<int32_t> &zp);

/// Output dims and window of an integer convolution of X [N, C, spatial...] with W [M, C/group,
/// k...] under the Conv attributes at `attr_base` (auto_pad, dilations, group, kernel_shape,
/// pads, strides in that order). "" or the reason.
std::string IntConvShape(const gert::ExtendedKernelContext *ctx, size_t attr_base, const Dims &x, const Dims &w,
                         Window *win, int64_t *group, Dims *y);
/// Direct convolution of zero-point-shifted int32 operands, int32 accumulation.
void IntConv(const std::vector<int32_t> &x, const Dims &xd, const std::vector<int32_t> &w, const Dims &wd,
             const Window &win, int64_t group, const Dims &yd, std::vector<int32_t> *y);

/// Reads conv operands x and w (uint8/int8), subtracts x_zero_point (scalar) and w_zero_point
/// (scalar or per output channel; nullptr: 0) and convolves them under the Conv attributes at
/// index 0 (IntConvShape) into int32 `acc` of dims `yd`; fails with a message otherwise.
bool ShiftedConv(const gert::ExtendedKernelContext *ctx, const gert::Tensor *x, const gert::Tensor *xzt,
                 const gert::Tensor *w, const gert::Tensor *wzt, std::vector<int32_t> *acc, Dims *yd);
/// InferShape of an integer convolution (Conv attributes at index 0; -1 dims where unknown).
ge::graphStatus IntConvInferShape(gert::InferShapeContext *ctx, size_t x_index, size_t w_index);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_QUANT_UTIL_H_
