// LeakyRelu (ONNX LeakyRelu-16): Y = X for X >= 0, alpha * X otherwise; float, double and float16
// (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(LeakyRelu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 0.01f)
    .OP_END_FACTORY_REG(LeakyRelu);
}  // namespace ge

namespace openatc_ops {

class LeakyRelu : public UnaryElementwiseOp<LeakyRelu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 0.01f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      return static_cast<C>(v >= C(0) ? v : C(alpha) * v);
    });
  }
};
REG_AUTO_MAPPING_OP(LeakyRelu);

}  // namespace openatc_ops
