// STFT (ONNX STFT-17): the short-time Fourier transform of signal [batch, signal_length, 1 | 2]
// (real, or real and imaginary). Frames of frame_length samples start every frame_step samples
// (frames = 1 + (signal_length - frame_length) / frame_step); each is multiplied by `window` (a
// [frame_length] tensor, default all ones) and transformed with a DFT of length frame_length.
// frame_length defaults to the window's length, else to signal_length. onesided (default 1) keeps
// bins 0..frame_length/2. Output [batch, frames, bins, 2] in signal's dtype; math in double.
#include <complex>

#include "common/index_util.h"
#include "common/signal.h"

namespace ge {
REG_OP(STFT)
    .INPUT(signal, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(frame_step, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(window, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(frame_length, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(onesided, Int, 1)
    .OP_END_FACTORY_REG(STFT);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Framing {
  int64_t step = 0, length = 0, frames = 0, bins = 0;
};

// Frame count and bins from signal dims `d`, the frame step, the window's length (-1: no window)
// and frame_length (-1: not given); false after Fail.
bool MakeFraming(const gert::ExtendedKernelContext *ctx, const Dims &d, int64_t step, int64_t window_length,
                 int64_t frame_length, Framing *f) {
  if (d.size() != 3 || (d[2] != 1 && d[2] != 2))
    return Fail(ctx, "signal must be [batch, signal_length, 1 | 2], got " + DimsToString(d)), false;
  f->step = step;
  f->length = frame_length >= 0 ? frame_length : (window_length >= 0 ? window_length : d[1]);
  if (window_length >= 0 && f->length != window_length)
    return Fail(ctx, "frame_length " + std::to_string(f->length) + " differs from the window's length " +
                         std::to_string(window_length)),
           false;
  if (f->step <= 0 || f->length <= 0 || f->length > d[1])
    return Fail(ctx, "frame_step must be > 0 and frame_length in [1, signal_length = " + std::to_string(d[1]) +
                         "], got " + std::to_string(f->step) + " and " + std::to_string(f->length)),
           false;
  f->frames = 1 + (d[1] - f->length) / f->step;
  f->bins = AttrInt(ctx, 0, 1) != 0 ? f->length / 2 + 1 : f->length;
  return true;
}

// The window's length from its dims (-1 when absent); false after Fail when it is not 1-D.
bool WindowLength(const gert::ExtendedKernelContext *ctx, const Dims *wd, int64_t *n) {
  *n = -1;
  if (wd == nullptr) return true;
  if (wd->size() != 1) return Fail(ctx, "window must be 1-D, got " + DimsToString(*wd)), false;
  *n = (*wd)[0];
  return true;
}
}  // namespace

class STFT : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *w = ctx->GetOptionalInputShape(2);
    if (x == nullptr) return Fail(ctx, "signal expected");
    const Dims d = ToDims(*x), wd = w != nullptr ? ToDims(*w) : Dims{};
    int64_t wlen = -1;
    if (!WindowLength(ctx, w != nullptr ? &wd : nullptr, &wlen)) return ge::GRAPH_FAILED;
    std::vector<int64_t> step, len;
    const gert::Tensor *len_in = ctx->GetOptionalInputTensor(3);
    const bool known = ReadInts(ctx->GetInputTensor(1), &step) && step.size() == 1 &&
                       (len_in == nullptr || (ReadInts(len_in, &len) && len.size() == 1)) && d.size() == 3 &&
                       d[1] >= 0 && d[2] >= 0 && (w == nullptr || wlen >= 0);
    Framing f;
    if (!known) {  // checked at run time; the bins follow from a known frame length alone
      const int64_t fl = len.size() == 1 ? len[0] : wlen;
      f.frames = -1;
      f.bins = fl < 0 ? -1 : (AttrInt(ctx, 0, 1) != 0 ? fl / 2 + 1 : fl);
    } else if (!MakeFraming(ctx, d, step[0], wlen, len.empty() ? -1 : len[0], &f)) {
      return ge::GRAPH_FAILED;
    }
    *ctx->GetOutputShape(0) = ToShape({d.empty() ? -1 : d[0], f.frames, f.bins, 2});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *window = ctx->GetOptionalInputTensor(2);
    const gert::Tensor *len_in = ctx->GetOptionalInputTensor(3);
    if (x == nullptr) return Fail(ctx, "signal is missing");
    const Dims d = TensorDims(*x), wd = window != nullptr ? TensorDims(*window) : Dims{};
    int64_t step = 0, len = -1, wlen = -1;
    Framing f;
    if (!ReadScalarInt(ctx, ctx->GetInputTensor(1), "frame_step", &step) ||
        (len_in != nullptr && !ReadScalarInt(ctx, len_in, "frame_length", &len)) ||
        !WindowLength(ctx, window != nullptr ? &wd : nullptr, &wlen) || !MakeFraming(ctx, d, step, wlen, len, &f))
      return ge::GRAPH_FAILED;
    if (!CheckDftWork(ctx, f.length, f.bins, d[0] * f.frames)) return ge::GRAPH_FAILED;
    std::vector<double> in, w(static_cast<size_t>(f.length), 1.0);
    if (!ReadAsDouble(x, &in) || (window != nullptr && !ReadAsDouble(window, &w)))
      return Fail(ctx, "signal and window must be float tensors");
    gert::Tensor *y = AllocChecked(ctx, 0, {d[0], f.frames, f.bins, 2}, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t c = d[2];
    std::vector<double> out(static_cast<size_t>(d[0] * f.frames * f.bins * 2));
    std::vector<std::complex<double>> frame(static_cast<size_t>(f.length)), spectrum;
    for (int64_t b = 0; b < d[0]; ++b)
      for (int64_t fr = 0; fr < f.frames; ++fr) {
        for (int64_t t = 0; t < f.length; ++t) {
          const size_t p = static_cast<size_t>((b * d[1] + fr * f.step + t) * c);
          frame[static_cast<size_t>(t)] = std::complex<double>(in[p], c == 2 ? in[p + 1] : 0.0) * w[static_cast<size_t>(t)];
        }
        NaiveDft(frame, f.length, f.bins, false, &spectrum);
        for (int64_t k = 0; k < f.bins; ++k) {
          const size_t q = static_cast<size_t>(((b * f.frames + fr) * f.bins + k) * 2);
          out[q] = spectrum[static_cast<size_t>(k)].real();
          out[q + 1] = spectrum[static_cast<size_t>(k)].imag();
        }
      }
    StoreAs(out, x->GetDataType(), y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(STFT);

}  // namespace openatc_ops
