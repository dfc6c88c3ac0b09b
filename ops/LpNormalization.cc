// LpNormalization (ONNX LpNormalization-1/22): y = x / ||x||_p along `axis` (default -1), p = 1
// (sum of |x|) or 2 (root of the sum of squares, the default). A zero norm divides as IEEE does
// (0 / 0 = NaN), as ONNX's reference. Float, float16 and double; sums in double, rounded once.
#include <cmath>

#include "common/elementwise.h"
#include "common/softmax.h"

namespace ge {
REG_OP(LpNormalization)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(axis, Int, -1)
    .ATTR(p, Int, 2)
    .OP_END_FACTORY_REG(LpNormalization);
}  // namespace ge

namespace openatc_ops {
namespace {

// Normalises each of the outer x inner lines of `n` elements at stride `inner`.
template <typename T>
void Normalize(const T *x, T *y, int64_t outer, int64_t n, int64_t inner, int64_t p) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      double s = 0;
      for (int64_t k = 0; k < n; ++k) {
        const double v = static_cast<double>(x[base + k * inner]);
        s += p == 1 ? std::fabs(v) : v * v;
      }
      const double norm = p == 1 ? s : std::sqrt(s);
      for (int64_t k = 0; k < n; ++k) y[base + k * inner] = static_cast<T>(static_cast<double>(x[base + k * inner]) / norm);
    }
  }
}

// An empty string when axis and p are valid for `rank`, else what is wrong.
std::string CheckAttrs(int64_t axis, int64_t p, int64_t rank, int64_t *a) {
  if (rank == 0) return "input must have rank >= 1 (got a scalar)";
  if (!NormalizeAxis(axis, rank, a))
    return "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) + " (valid: [" +
           std::to_string(-rank) + ", " + std::to_string(rank - 1) + "])";
  if (p != 1 && p != 2) return "p must be 1 or 2 (got " + std::to_string(p) + ")";
  return {};
}

}  // namespace

class LpNormalization : public UnaryElementwiseOp<LpNormalization> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    int64_t a = 0;
    const std::string err = CheckAttrs(AttrInt(ctx, 0, -1), AttrInt(ctx, 1, 2), static_cast<int64_t>(x->GetDimNum()), &a);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const Dims d = ToDims(x.GetStorageShape());
    const int64_t p = AttrInt(ctx, 1, 2);
    int64_t axis = 0;
    const std::string err = CheckAttrs(AttrInt(ctx, 0, -1), p, static_cast<int64_t>(d.size()), &axis);
    if (!err.empty()) return Fail(ctx, err);
    int64_t outer = 1, n = 1, inner = 1;
    AxisView(d, axis, /*coerce_2d=*/false, &outer, &n, &inner);
    switch (x.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Normalize<T>(x.GetData<T>(), y.GetData<T>(), outer, n, inner, p))
      default:
        return Fail(ctx, "input dtype must be float, float16 or double");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(LpNormalization);

}  // namespace openatc_ops
