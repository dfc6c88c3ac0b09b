// Swish (ONNX Swish-24): Y = X * sigmoid(alpha * X), alpha default 1. Float types (float16
// computed in float); NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Swish)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 1.0f)
    .OP_END_FACTORY_REG(Swish);
}  // namespace ge

namespace openatc_ops {

class Swish : public UnaryElementwiseOp<Swish> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 1.0f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      return static_cast<C>(v / (C(1) + std::exp(-C(alpha) * v)));
    });
  }
};
REG_AUTO_MAPPING_OP(Swish);

}  // namespace openatc_ops
