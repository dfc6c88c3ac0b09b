// Log (ONNX Log-13): output = ln(input) (-inf at 0, NaN below); float, double and float16 (computed
// in float, rounded once).
#include "common/math_util.h"

namespace ge {
REG_OP(Log)
    .INPUT(input, TensorType::FloatingDataType())
    .OUTPUT(output, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Log);
}  // namespace ge

namespace openatc_ops {

class Log : public UnaryElementwiseOp<Log> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::log(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Log);

}  // namespace openatc_ops
