// Celu (ONNX Celu-12): Y = max(0, X) + min(0, alpha * (exp(X / alpha) - 1)) elementwise; float
// (ONNX's only type), plus double and float16 (computed in float, rounded once). alpha must not be 0.
#include <algorithm>

#include "common/math_util.h"

namespace ge {
REG_OP(Celu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 1.0f)
    .OP_END_FACTORY_REG(Celu);
}  // namespace ge

namespace openatc_ops {

class Celu : public UnaryElementwiseOp<Celu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 1.0f);
    if (alpha == 0.0f) return Fail(ctx, "alpha must not be 0");
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      const C a = static_cast<C>(alpha);
      return static_cast<C>(std::max(C(0), v) + std::min(C(0), a * std::expm1(v / a)));
    });
  }
};
REG_AUTO_MAPPING_OP(Celu);

}  // namespace openatc_ops
