// Atan (ONNX Atan-7): output = arctan(input) in (-pi/2, pi/2) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Atan).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Atan);
}  // namespace ge

namespace openatc_ops {

class Atan : public UnaryElementwiseOp<Atan> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::atan(v)); });
  }
};
REG_AUTO_MAPPING_OP(Atan);

}  // namespace openatc_ops
