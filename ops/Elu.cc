// Elu (ONNX Elu-6): Y = X for X >= 0, alpha * (e^X - 1) otherwise; float, double and float16
// (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Elu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 1.0f)
    .OP_END_FACTORY_REG(Elu);
}  // namespace ge

namespace openatc_ops {

class Elu : public UnaryElementwiseOp<Elu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 1.0f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      return static_cast<C>(v >= C(0) ? v : C(alpha) * std::expm1(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Elu);

}  // namespace openatc_ops
