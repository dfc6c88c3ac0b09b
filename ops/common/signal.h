/**
 * @file ops/common/signal.h
 * Shared parts of the ONNX-17 signal ops (ops/{Hann,Hamming,Blackman}Window.cc,
 * ops/MelWeightMatrix.cc, ops/DFT.cc, ops/STFT.cc): the `output_datatype` attribute, scalar
 * inputs, the generalized cosine windows, and a complex DFT of one strided line (in double).
 */
#ifndef OPENATC_OPS_COMMON_SIGNAL_H_
#define OPENATC_OPS_COMMON_SIGNAL_H_

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops {

/// ge::DataType of ONNX `output_datatype` (an ONNX TensorProto type number) for the signal ops
/// that create float data: float, float16, double, int8..int64, uint8..uint64. Fails (Fail on
/// ctx, DT_UNDEFINED) for other numbers, naming the attribute.
ge::DataType SignalOutputType(const gert::ExtendedKernelContext *ctx, int64_t onnx_type);

/// The value of one-element integer input `t` (`what` names it); fails when absent, not an
/// integer dtype or not one element.
bool ReadScalarInt(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, int64_t *v);
/// The value of a one-element float or integer input as double.
bool ReadScalarNumber(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, double *v);

/// Writes `v` (row-major) converted to `dtype` into `out` (float types round, integer types
/// truncate toward zero, saturating).
bool StoreAs(const std::vector<double> &v, ge::DataType dtype, void *out);

/// The generalized cosine window a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), n = 0..size-1,
/// N = size when `periodic`, size - 1 otherwise (a one-sample symmetric window is [a0 - a1 + a2]).
std::vector<double> CosineWindow(int64_t size, bool periodic, double a0, double a1, double a2);

/// Base of HannWindow, HammingWindow and BlackmanWindow: input `size` (a scalar int32/int64),
/// attributes output_datatype (index 0, default 1 = float) and periodic (index 1, default 1);
/// output [size]. Derived provides `static void Coefficients(double *a0, double *a1, double *a2)`.
template <typename Derived>
class CosineWindowOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = SignalOutputType(ctx, AttrInt(ctx, 0, 1));
    return d == ge::DT_UNDEFINED ? ge::GRAPH_FAILED : ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    std::vector<int64_t> size;
    int64_t n = -1;
    if (ReadInts(ctx->GetInputTensor(0), &size) && size.size() == 1) n = size[0];
    if (n < -1) return Fail(ctx, "size must be >= 0, got " + std::to_string(n));
    *ctx->GetOutputShape(0) = ToShape({n});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override;
};

/// The shared Execute of CosineWindowOp (defined in signal.cc for the three windows).
ge::graphStatus RunCosineWindow(gert::EagerOpExecutionContext *ctx, double a0, double a1, double a2);

template <typename Derived>
ge::graphStatus CosineWindowOp<Derived>::Execute(gert::EagerOpExecutionContext *ctx) {
  double a0 = 0, a1 = 0, a2 = 0;
  Derived::Coefficients(&a0, &a1, &a2);
  return RunCosineWindow(ctx, a0, a1, a2);
}

/// The plain DFT costs n * bins complex multiply-adds per line; more than 2^34 in one op (about
/// half a minute) fails naming the sizes, instead of running for hours.
bool CheckDftWork(const gert::ExtendedKernelContext *ctx, int64_t n, int64_t bins, int64_t lines);

/// Forward (sign -1) or inverse (sign +1, unscaled) DFT of length `n` of the complex line `in`
/// (`in.size()` samples; fewer than n are zero-padded, more are cut), written to out[0..bins).
void NaiveDft(const std::vector<std::complex<double>> &in, int64_t n, int64_t bins, bool inverse,
              std::vector<std::complex<double>> *out);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_SIGNAL_H_
