// Softplus (ONNX Softplus-1): Y = ln(1 + e^X), evaluated without overflow for large X; float,
// double and float16 (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Softplus)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Softplus);
}  // namespace ge

namespace openatc_ops {

class Softplus : public UnaryElementwiseOp<Softplus> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(v > C(0) ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v)));
    });
  }
};
REG_AUTO_MAPPING_OP(Softplus);

}  // namespace openatc_ops
