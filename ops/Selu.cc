// Selu (ONNX Selu-6): Y = gamma * X for X > 0, gamma * (alpha * e^X - alpha) otherwise; float,
// double and float16 (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Selu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 1.67326319217681884765625f)
    .ATTR(gamma, Float, 1.05070102214813232421875f)
    .OP_END_FACTORY_REG(Selu);
}  // namespace ge

namespace openatc_ops {

class Selu : public UnaryElementwiseOp<Selu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 1.67326319217681884765625f);
    const float gamma = AttrFloat(ctx, 1, 1.05070102214813232421875f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      return static_cast<C>(v > C(0) ? C(gamma) * v : C(gamma) * (C(alpha) * std::exp(v) - C(alpha)));
    });
  }
};
REG_AUTO_MAPPING_OP(Selu);

}  // namespace openatc_ops
