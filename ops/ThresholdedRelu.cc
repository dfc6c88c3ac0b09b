// ThresholdedRelu (ONNX ThresholdedRelu-10): Y = X where X > alpha, else 0 (alpha default 1.0);
// float, double and float16 (compared in float).
#include "common/math_util.h"

namespace ge {
REG_OP(ThresholdedRelu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 1.0f)
    .OP_END_FACTORY_REG(ThresholdedRelu);
}  // namespace ge

namespace openatc_ops {

class ThresholdedRelu : public UnaryElementwiseOp<ThresholdedRelu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 1.0f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      return v > C(alpha) ? v : C(0);
    });
  }
};
REG_AUTO_MAPPING_OP(ThresholdedRelu);

}  // namespace openatc_ops
