// DFT (ONNX DFT-17 and DFT-20): the discrete Fourier transform of `input` [..., L, ..., 1 | 2] (last
// dim: real, or real and imaginary) along one signal axis, as ONNX's reference computes it. The axis
// is attribute `axis` (default 1) at opset 17 and optional input 2 (default -2) at opset 20; either
// may be negative (counted from the back, the trailing complex dim included): accepted range
// [-r, -2] and [0, r - 2]. Optional input `dft_length` (default L) zero-pads or cuts the signal.
// inverse = 1: x[t] = (1/n) sum X[k] e^{+2 pi i k t / n}. onesided = 1 keeps bins 0..n/2 of the
// result (for inverse too, as the reference does). Output [..., n or n/2 + 1, ..., 2], X's dtype;
// math in double.
#include <complex>

#include "common/index_util.h"
#include "common/signal.h"

namespace ge {
REG_OP(DFT)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(dft_length, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(axis, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(axis, Int, 1)
    .ATTR(inverse, Int, 0)
    .ATTR(onesided, Int, 0)
    .ATTR(onnx_opset, Int, 17)
    .OP_END_FACTORY_REG(DFT);
}  // namespace ge

namespace openatc_ops {
namespace {
// The signal axis in [0, rank - 2]; false (after Fail) when out of range or not readable.
bool SignalAxis(const gert::ExtendedKernelContext *ctx, const gert::Tensor *axis_in, int64_t rank, int64_t *axis) {
  int64_t a = AttrInt(ctx, 0, 1);
  if (AttrInt(ctx, 3, 17) >= 20) {
    a = -2;
    if (axis_in != nullptr && !ReadScalarInt(ctx, axis_in, "axis", &a)) return false;
  }
  const int64_t n = a < 0 ? a + rank : a;
  if (n < 0 || n > rank - 2)
    return Fail(ctx, "axis " + std::to_string(a) + " is outside [-" + std::to_string(rank) + ", -2] and [0, " +
                         std::to_string(rank - 2) + "] for an input of rank " + std::to_string(rank)),
           false;
  *axis = n;
  return true;
}

// dft_length: the input when given (must be > 0), else `def`.
bool DftLength(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, int64_t def, int64_t *n) {
  *n = def;
  if (t != nullptr && !ReadScalarInt(ctx, t, "dft_length", n)) return false;
  if (*n <= 0) return Fail(ctx, "dft_length must be > 0, got " + std::to_string(*n)), false;
  return true;
}
}  // namespace

class DFT : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    Dims d = ToDims(*x);
    if (d.size() < 2 || (d.back() != 1 && d.back() != 2 && d.back() >= 0))
      return Fail(ctx, "input must be [..., 1] (real) or [..., 2] (complex) of rank >= 2, got " + DimsToString(d));
    const bool opset20 = AttrInt(ctx, 3, 17) >= 20;
    const gert::Tensor *axis_in = ctx->GetOptionalInputTensor(2);
    std::vector<int64_t> known;
    if (opset20 && axis_in != nullptr && !ReadInts(axis_in, &known)) {  // axis known only at run time
      *ctx->GetOutputShape(0) = ToShape(Dims(d.size(), -1));
      return ge::GRAPH_SUCCESS;
    }
    int64_t axis = 0, n = -1;
    if (!SignalAxis(ctx, axis_in, static_cast<int64_t>(d.size()), &axis)) return ge::GRAPH_FAILED;
    const gert::Tensor *len = ctx->GetOptionalInputTensor(1);
    if (len == nullptr || ReadInts(len, &known)) {
      if (!DftLength(ctx, len, d[static_cast<size_t>(axis)], &n)) return ge::GRAPH_FAILED;
    }
    d[static_cast<size_t>(axis)] = n < 0 ? -1 : (AttrInt(ctx, 2, 0) != 0 ? n / 2 + 1 : n);
    d.back() = 2;
    *ctx->GetOutputShape(0) = ToShape(d);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    const Dims d = TensorDims(*x);
    const int64_t rank = static_cast<int64_t>(d.size());
    if (rank < 2 || (d.back() != 1 && d.back() != 2))
      return Fail(ctx, "input must be [..., 1] (real) or [..., 2] (complex) of rank >= 2, got " + DimsToString(d));
    int64_t axis = 0, n = 0;
    if (!SignalAxis(ctx, ctx->GetOptionalInputTensor(2), rank, &axis) ||
        !DftLength(ctx, ctx->GetOptionalInputTensor(1), d[static_cast<size_t>(axis)], &n))
      return ge::GRAPH_FAILED;
    const bool inverse = AttrInt(ctx, 1, 0) != 0;
    const int64_t bins = AttrInt(ctx, 2, 0) != 0 ? n / 2 + 1 : n;
    Dims od = d;
    od[static_cast<size_t>(axis)] = bins;
    od.back() = 2;
    gert::Tensor *y = AllocChecked(ctx, 0, od, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t lines = Prod(d, 0, static_cast<size_t>(axis)) * Prod(d, static_cast<size_t>(axis) + 1, d.size() - 1);
    if (!CheckDftWork(ctx, n, bins, lines)) return ge::GRAPH_FAILED;
    std::vector<double> in;
    if (!ReadAsDouble(x, &in)) return Fail(ctx, "unsupported input dtype " + DtypeName(x->GetDataType()));
    const int64_t c = d.back(), len = d[static_cast<size_t>(axis)];
    const int64_t outer = Prod(d, 0, static_cast<size_t>(axis)), inner = Prod(d, static_cast<size_t>(axis) + 1, d.size() - 1);
    std::vector<double> out(static_cast<size_t>(NumElements(od)));
    std::vector<std::complex<double>> line(static_cast<size_t>(len)), spectrum;
    const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        for (int64_t t = 0; t < len; ++t) {
          const size_t p = static_cast<size_t>(((o * len + t) * inner + i) * c);
          line[static_cast<size_t>(t)] = {in[p], c == 2 ? in[p + 1] : 0.0};
        }
        NaiveDft(line, n, bins, inverse, &spectrum);
        for (int64_t k = 0; k < bins; ++k) {
          const size_t q = static_cast<size_t>(((o * bins + k) * inner + i) * 2);
          out[q] = spectrum[static_cast<size_t>(k)].real() * scale;
          out[q + 1] = spectrum[static_cast<size_t>(k)].imag() * scale;
        }
      }
    StoreAs(out, x->GetDataType(), y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(DFT);

}  // namespace openatc_ops
