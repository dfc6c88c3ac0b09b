// Shared parts of the signal ops; see signal.h.
#include "common/signal.h"

#include <cmath>

#include "common/math_util.h"
#include "common/movement.h"

namespace openatc_ops {

ge::DataType SignalOutputType(const gert::ExtendedKernelContext *ctx, int64_t onnx_type) {
  const ge::DataType d = DtypeFromOnnx(onnx_type);
  if (!IsNumber(d)) {
    Fail(ctx, "output_datatype " + std::to_string(onnx_type) +
                  " is not a float or integer ONNX tensor type (1 float, 10 float16, 11 double, 2..7, 12, 13)");
    return ge::DT_UNDEFINED;
  }
  return d;
}

bool ReadScalarInt(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, int64_t *v) {
  std::vector<int64_t> vals;
  if (t == nullptr || !ReadInts(t, &vals) || vals.size() != 1)
    return Fail(ctx, std::string(what) + " must be a one-element int32 or int64 tensor"), false;
  *v = vals[0];
  return true;
}

bool ReadScalarNumber(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what, double *v) {
  if (t == nullptr || t->GetShapeSize() != 1 || t->GetAddr() == nullptr)
    return Fail(ctx, std::string(what) + " must be a one-element tensor"), false;
  switch (t->GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(*v = static_cast<double>(t->GetData<T>()[0]))
    OPENATC_OPS_INT_CASES(*v = static_cast<double>(t->GetData<T>()[0]))
    default:
      return Fail(ctx, std::string(what) + " must be a float or integer tensor"), false;
  }
  return true;
}

bool StoreAs(const std::vector<double> &v, ge::DataType dtype, void *out) {
  switch (dtype) {
    OPENATC_OPS_FLOAT_CASES(for (size_t i = 0; i < v.size(); ++i) static_cast<T *>(out)[i] = static_cast<T>(v[i]))
    OPENATC_OPS_INT_CASES(for (size_t i = 0; i < v.size(); ++i) static_cast<T *>(out)[i] = FromDouble<T>(v[i]))
    default:
      return false;
  }
  return true;
}

std::vector<double> CosineWindow(int64_t size, bool periodic, double a0, double a1, double a2) {
  std::vector<double> w(static_cast<size_t>(size));
  const double n_den = static_cast<double>(periodic ? size : size - 1);
  for (int64_t n = 0; n < size; ++n) {
    const double t = n_den == 0 ? 0.0 : 2.0 * M_PI * static_cast<double>(n) / n_den;
    w[static_cast<size_t>(n)] = a0 - a1 * std::cos(t) + a2 * std::cos(2.0 * t);
  }
  return w;
}

ge::graphStatus RunCosineWindow(gert::EagerOpExecutionContext *ctx, double a0, double a1, double a2) {
  int64_t size = 0;
  if (!ReadScalarInt(ctx, ctx->GetInputTensor(0), "size", &size)) return ge::GRAPH_FAILED;
  if (size < 0) return Fail(ctx, "size must be >= 0, got " + std::to_string(size));
  const ge::DataType d = SignalOutputType(ctx, AttrInt(ctx, 0, 1));
  if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
  gert::Tensor *y = AllocChecked(ctx, 0, {size}, d);
  if (y == nullptr) return ge::GRAPH_FAILED;
  StoreAs(CosineWindow(size, AttrInt(ctx, 1, 1) != 0, a0, a1, a2), d, y->GetAddr());
  return ge::GRAPH_SUCCESS;
}

bool CheckDftWork(const gert::ExtendedKernelContext *ctx, int64_t n, int64_t bins, int64_t lines) {
  const double work = static_cast<double>(n) * static_cast<double>(bins) * static_cast<double>(lines);
  if (work <= static_cast<double>(int64_t{1} << 34)) return true;
  return Fail(ctx, "a DFT of length " + std::to_string(n) + " (" + std::to_string(bins) + " bins) over " +
                       std::to_string(lines) + " lines needs more than 2^34 multiply-adds of the plain DFT. Use a "
                       "shorter dft_length or frame_length"),
         false;
}

void NaiveDft(const std::vector<std::complex<double>> &in, int64_t n, int64_t bins, bool inverse,
              std::vector<std::complex<double>> *out) {
  out->assign(static_cast<size_t>(bins), {0.0, 0.0});
  const int64_t used = std::min<int64_t>(n, static_cast<int64_t>(in.size()));
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<std::complex<double>> twiddle(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const double a = sign * 2.0 * M_PI * static_cast<double>(k) / static_cast<double>(n);
    twiddle[static_cast<size_t>(k)] = {std::cos(a), std::sin(a)};
  }
  for (int64_t k = 0; k < bins; ++k) {
    std::complex<double> acc = 0.0;
    for (int64_t t = 0; t < used; ++t) acc += in[static_cast<size_t>(t)] * twiddle[static_cast<size_t>((k * t) % n)];
    (*out)[static_cast<size_t>(k)] = acc;
  }
}

}  // namespace openatc_ops
