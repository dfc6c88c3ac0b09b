// HardSwish (ONNX HardSwish-14): Y = X * max(0, min(1, X / 6 + 1/2)); float, double and float16
// (computed in float, rounded once).
#include <algorithm>

#include "common/math_util.h"

namespace ge {
REG_OP(HardSwish)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(HardSwish);
}  // namespace ge

namespace openatc_ops {

class HardSwish : public UnaryElementwiseOp<HardSwish> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(v * std::max(C(0), std::min(C(1), v / C(6) + C(0.5))));
    });
  }
};
REG_AUTO_MAPPING_OP(HardSwish);

}  // namespace openatc_ops
