// Exp (ONNX Exp-13): output = e^input; float, double and float16 (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Exp)
    .INPUT(input, TensorType::FloatingDataType())
    .OUTPUT(output, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Exp);
}  // namespace ge

namespace openatc_ops {

class Exp : public UnaryElementwiseOp<Exp> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::exp(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Exp);

}  // namespace openatc_ops
