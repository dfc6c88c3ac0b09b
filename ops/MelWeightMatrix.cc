// MelWeightMatrix (ONNX MelWeightMatrix-17): the [dft_length / 2 + 1, num_mel_bins] matrix that maps
// a onesided magnitude spectrum to num_mel_bins triangular mel bands between lower_edge_hertz and
// upper_edge_hertz (mel = 2595 log10(1 + hz / 700)). As ONNX's reference: num_mel_bins + 2 band
// edges spaced (high_mel - low_mel) / (num_mel_bins + 2) apart from low_mel, each mapped back to
// hertz and to the spectrum bin floor((dft_length + 1) * hz / sample_rate); band i rises from edge
// i to edge i + 1 and falls to edge i + 2 (a band whose rise is empty is 1 at its centre). Output
// dtype from output_datatype (default float). An edge outside the spectrum fails.
#include <cmath>

#include "common/movement.h"
#include "common/signal.h"

namespace ge {
REG_OP(MelWeightMatrix)
    .INPUT(num_mel_bins, TensorType({DT_INT32, DT_INT64}))
    .INPUT(dft_length, TensorType({DT_INT32, DT_INT64}))
    .INPUT(sample_rate, TensorType({DT_INT32, DT_INT64}))
    .INPUT(lower_edge_hertz, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(upper_edge_hertz, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType::RealNumberType())
    .ATTR(output_datatype, Int, 1)
    .OP_END_FACTORY_REG(MelWeightMatrix);
}  // namespace ge

namespace openatc_ops {
namespace {
struct MelArgs {
  int64_t bands = 0, dft_length = 0, sample_rate = 0;
  double low = 0, high = 0;
};

bool ReadArgs(gert::EagerOpExecutionContext *ctx, MelArgs *a) {
  if (!ReadScalarInt(ctx, ctx->GetInputTensor(0), "num_mel_bins", &a->bands) ||
      !ReadScalarInt(ctx, ctx->GetInputTensor(1), "dft_length", &a->dft_length) ||
      !ReadScalarInt(ctx, ctx->GetInputTensor(2), "sample_rate", &a->sample_rate) ||
      !ReadScalarNumber(ctx, ctx->GetInputTensor(3), "lower_edge_hertz", &a->low) ||
      !ReadScalarNumber(ctx, ctx->GetInputTensor(4), "upper_edge_hertz", &a->high))
    return false;
  if (a->bands <= 0 || a->dft_length <= 0 || a->sample_rate <= 0)
    return Fail(ctx, "num_mel_bins, dft_length and sample_rate must be > 0, got " + std::to_string(a->bands) + ", " +
                         std::to_string(a->dft_length) + ", " + std::to_string(a->sample_rate)),
           false;
  if (!std::isfinite(a->low) || !std::isfinite(a->high) || a->low < 0 || a->high < a->low)
    return Fail(ctx, "lower_edge_hertz and upper_edge_hertz must be finite with 0 <= lower <= upper"), false;
  return true;
}

double HzToMel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }
double MelToHz(double mel) { return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0); }
}  // namespace

class MelWeightMatrix : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = SignalOutputType(ctx, AttrInt(ctx, 0, 1));
    return d == ge::DT_UNDEFINED ? ge::GRAPH_FAILED : ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    std::vector<int64_t> bands, length;
    const int64_t rows = KnownInts(ctx, 1, &length) && length.size() == 1 ? length[0] / 2 + 1 : -1;
    const int64_t cols = KnownInts(ctx, 0, &bands) && bands.size() == 1 ? bands[0] : -1;
    *ctx->GetOutputShape(0) = ToShape({rows, cols});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    MelArgs a;
    if (!ReadArgs(ctx, &a)) return ge::GRAPH_FAILED;
    const ge::DataType d = SignalOutputType(ctx, AttrInt(ctx, 0, 1));
    if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    const int64_t rows = a.dft_length / 2 + 1;
    gert::Tensor *y = AllocChecked(ctx, 0, {rows, a.bands}, d);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const double low = HzToMel(a.low), step = (HzToMel(a.high) - low) / static_cast<double>(a.bands + 2);
    std::vector<int64_t> edge(static_cast<size_t>(a.bands + 2));
    for (int64_t i = 0; i < a.bands + 2; ++i) {
      const double hz = MelToHz(static_cast<double>(i) * step + low);
      edge[static_cast<size_t>(i)] =
          static_cast<int64_t>(std::floor(static_cast<double>(a.dft_length + 1) * hz / static_cast<double>(a.sample_rate)));
      if (edge[static_cast<size_t>(i)] < 0 || edge[static_cast<size_t>(i)] >= rows)
        return Fail(ctx, "band edge " + std::to_string(i) + " falls on spectrum bin " +
                             std::to_string(edge[static_cast<size_t>(i)]) + ", outside [0, " + std::to_string(rows - 1) +
                             "]. Keep upper_edge_hertz at or below sample_rate / 2");
    }
    std::vector<double> w(static_cast<size_t>(rows * a.bands), 0.0);
    for (int64_t i = 0; i < a.bands; ++i) {
      const int64_t lo = edge[static_cast<size_t>(i)], mid = edge[static_cast<size_t>(i + 1)],
                    hi = edge[static_cast<size_t>(i + 2)];
      if (mid == lo) w[static_cast<size_t>(mid * a.bands + i)] = 1.0;
      for (int64_t j = lo; mid > lo && j <= mid; ++j)
        w[static_cast<size_t>(j * a.bands + i)] = static_cast<double>(j - lo) / static_cast<double>(mid - lo);
      for (int64_t j = mid; j < hi; ++j)
        w[static_cast<size_t>(j * a.bands + i)] = static_cast<double>(hi - j) / static_cast<double>(hi - mid);
    }
    StoreAs(w, d, y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(MelWeightMatrix);

}  // namespace openatc_ops
