// Reciprocal (ONNX Reciprocal-13): Y = 1 / X; float, double and float16 (computed in float, rounded
// once).
#include "common/math_util.h"

namespace ge {
REG_OP(Reciprocal)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Reciprocal);
}  // namespace ge

namespace openatc_ops {

class Reciprocal : public UnaryElementwiseOp<Reciprocal> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(C(1) / v);
    });
  }
};
REG_AUTO_MAPPING_OP(Reciprocal);

}  // namespace openatc_ops
