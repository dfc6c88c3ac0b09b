// Mish (ONNX Mish-18): Y = X * tanh(softplus(X)), softplus(X) = ln(1 + e^X) evaluated without
// overflow for large X; float, double and float16 (computed in float, rounded once). NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Mish)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Mish);
}  // namespace ge

namespace openatc_ops {

class Mish : public UnaryElementwiseOp<Mish> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      const C sp = v > C(0) ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
      return static_cast<C>(v * std::tanh(sp));
    });
  }
};
REG_AUTO_MAPPING_OP(Mish);

}  // namespace openatc_ops
