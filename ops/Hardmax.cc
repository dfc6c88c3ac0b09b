// Hardmax (ONNX Hardmax-1/11/13): 1 at the first maximum along `axis` and 0 elsewhere. Opset >= 13
// works on the single axis `axis` (default -1); opset < 13 coerces the input to 2-D [prod(d0..
// d(axis-1)), prod(d(axis)..)] and marks the first maximum of each row (the front end writes the
// old default axis = 1 explicitly). Float, float16 and double.
#include "common/elementwise.h"
#include "common/softmax.h"

namespace ge {
REG_OP(Hardmax)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(axis, Int, -1)
    .ATTR(onnx_opset, Int, 17)
    .OP_END_FACTORY_REG(Hardmax);
}  // namespace ge

namespace openatc_ops {
namespace {

// Rows of `n` elements at stride `inner`, `outer` x `inner` of them.
template <typename T>
void OneHotMax(const T *x, T *y, int64_t outer, int64_t n, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * n * inner + i;
      int64_t best = 0;
      for (int64_t k = 0; k < n; ++k) {
        y[base + k * inner] = T(0);
        if (x[base + k * inner] > x[base + best * inner]) best = k;
      }
      if (n > 0) y[base + best * inner] = T(1);
    }
  }
}

std::string AxisError(int64_t axis, int64_t rank) {
  return "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) + " (valid: [" +
         std::to_string(-rank) + ", " + std::to_string(rank - 1) + "])";
}

}  // namespace

class Hardmax : public UnaryElementwiseOp<Hardmax> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const auto rank = static_cast<int64_t>(x->GetDimNum());
    const int64_t axis = AttrInt(ctx, 0, -1);
    int64_t a = 0;
    if (rank == 0) return Fail(ctx, "input must have rank >= 1 (got a scalar)");
    if (!NormalizeAxis(axis, rank, &a)) return Fail(ctx, AxisError(axis, rank));
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const Dims d = ToDims(x.GetStorageShape());
    const auto rank = static_cast<int64_t>(d.size());
    const int64_t axis_attr = AttrInt(ctx, 0, -1);
    const bool coerce_2d = AttrInt(ctx, 1, 17) < 13;
    int64_t axis = 0;
    if (rank == 0) return Fail(ctx, "input must have rank >= 1 (got a scalar)");
    if (!NormalizeAxis(axis_attr, rank, &axis)) return Fail(ctx, AxisError(axis_attr, rank));
    int64_t outer = 1, n = 1, inner = 1;
    AxisView(d, axis, coerce_2d, &outer, &n, &inner);
    switch (x.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(OneHotMax<T>(x.GetData<T>(), y.GetData<T>(), outer, n, inner))
      default:
        return Fail(ctx, "input dtype must be float, float16 or double");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Hardmax);

}  // namespace openatc_ops
