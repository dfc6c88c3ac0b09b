// Det (ONNX Det-11): the determinant of each square matrix in X [*, M, M]; Y has shape [*] and
// X's dtype (float16, float, double). LU factorisation with partial pivoting, in double.
#include <cmath>
#include <utility>

#include "common/math_util.h"
#include "common/movement.h"

namespace ge {
REG_OP(Det)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Det);
}  // namespace ge

namespace openatc_ops {
namespace {
// Determinant of the m x m row-major matrix `a` (destroyed).
double Determinant(std::vector<double> &a, int64_t m) {
  double det = 1.0;
  for (int64_t k = 0; k < m; ++k) {
    int64_t p = k;
    for (int64_t r = k + 1; r < m; ++r)
      if (std::fabs(a[r * m + k]) > std::fabs(a[p * m + k])) p = r;
    if (a[p * m + k] == 0.0) return 0.0;
    if (p != k) {
      for (int64_t c = 0; c < m; ++c) std::swap(a[k * m + c], a[p * m + c]);
      det = -det;
    }
    const double pivot = a[k * m + k];
    det *= pivot;
    for (int64_t r = k + 1; r < m; ++r) {
      const double f = a[r * m + k] / pivot;
      for (int64_t c = k + 1; c < m; ++c) a[r * m + c] -= f * a[k * m + c];
    }
  }
  return det;
}

template <typename T>
void DetAll(const T *x, T *y, int64_t batch, int64_t m) {
  std::vector<double> a(static_cast<size_t>(m * m));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < m * m; ++i) a[static_cast<size_t>(i)] = static_cast<double>(x[b * m * m + i]);
    y[b] = static_cast<T>(Determinant(a, m));
  }
}

bool SquareTail(const Dims &d) { return d.size() >= 2 && d[d.size() - 1] == d[d.size() - 2]; }
}  // namespace

class Det : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsFloat(d)) return Fail(ctx, "X must be float16, float or double, got " + DtypeName(d));
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input X expected");
    const Dims d = ToDims(*x);
    if (d.size() < 2) return Fail(ctx, "X must be [*, M, M], got " + DimsToString(d));
    const int64_t a = d[d.size() - 2], b = d[d.size() - 1];
    if (a >= 0 && b >= 0 && a != b) return Fail(ctx, "X must be [*, M, M] (square matrices), got " + DimsToString(d));
    *ctx->GetOutputShape(0) = ToShape(Dims(d.begin(), d.end() - 2));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input X is missing");
    const Dims d = TensorDims(*x);
    if (!SquareTail(d)) return Fail(ctx, "X must be [*, M, M] (square matrices), got " + DimsToString(d));
    const Dims out(d.begin(), d.end() - 2);
    gert::Tensor *y = AllocChecked(ctx, 0, out, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t m = d.back(), batch = NumElements(out);
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(DetAll<T>(x->GetData<T>(), y->GetData<T>(), batch, m))
      default:
        return Fail(ctx, "unsupported X dtype " + DtypeName(x->GetDataType()));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Det);

}  // namespace openatc_ops
