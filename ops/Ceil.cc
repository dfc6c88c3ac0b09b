// Ceil (ONNX Ceil-13): Y = ceil(X); float, double and float16 (computed in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Ceil)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Ceil);
}  // namespace ge

namespace openatc_ops {

class Ceil : public UnaryElementwiseOp<Ceil> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::ceil(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Ceil);

}  // namespace openatc_ops
