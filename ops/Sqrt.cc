// Sqrt (ONNX Sqrt-13): Y = sqrt(X) (NaN for negative X); float, double and float16 (computed in
// float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Sqrt)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Sqrt);
}  // namespace ge

namespace openatc_ops {

class Sqrt : public UnaryElementwiseOp<Sqrt> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::sqrt(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Sqrt);

}  // namespace openatc_ops
