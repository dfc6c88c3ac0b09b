// Round (ONNX Round-11): rounds each element to the nearest integer, halves to the nearest even
// integer (0.5 -> 0, 1.5 -> 2, -2.5 -> -2); float, double and float16. NaN and +-inf are kept.
// std::nearbyint under the default rounding mode (FE_TONEAREST) is exactly this rule.
#include "common/math_util.h"

namespace ge {
REG_OP(Round).INPUT(X, TensorType::FloatingDataType()).OUTPUT(Y, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Round);
}  // namespace ge

namespace openatc_ops {

class Round : public UnaryElementwiseOp<Round> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::nearbyint(v)); });
  }
};
REG_AUTO_MAPPING_OP(Round);

}  // namespace openatc_ops
