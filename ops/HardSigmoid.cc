// HardSigmoid (ONNX HardSigmoid-6): Y = max(0, min(1, alpha * X + beta)); float, double and float16
// (computed in float, rounded once).
#include <algorithm>

#include "common/math_util.h"

namespace ge {
REG_OP(HardSigmoid)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(alpha, Float, 0.2f)
    .ATTR(beta, Float, 0.5f)
    .OP_END_FACTORY_REG(HardSigmoid);
}  // namespace ge

namespace openatc_ops {

class HardSigmoid : public UnaryElementwiseOp<HardSigmoid> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const float alpha = AttrFloat(ctx, 0, 0.2f);
    const float beta = AttrFloat(ctx, 1, 0.5f);
    return MapFloat(x, y, [=](auto v) {
      using C = decltype(v);
      const C lin = C(alpha) * v + C(beta);
      return std::isnan(lin) ? lin : static_cast<C>(std::max(C(0), std::min(C(1), lin)));  // NaN stays NaN
    });
  }
};
REG_AUTO_MAPPING_OP(HardSigmoid);

}  // namespace openatc_ops
