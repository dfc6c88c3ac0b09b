// Floor (ONNX Floor-13): Y = floor(X); float, double and float16 (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Floor)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Floor);
}  // namespace ge

namespace openatc_ops {

class Floor : public UnaryElementwiseOp<Floor> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::floor(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Floor);

}  // namespace openatc_ops
