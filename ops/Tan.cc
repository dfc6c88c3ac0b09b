// Tan (ONNX Tan-7): output = tan(input) (radians) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN; tan near odd multiples of pi/2 is large, not inf.
#include "common/math_util.h"

namespace ge {
REG_OP(Tan).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Tan);
}  // namespace ge

namespace openatc_ops {

class Tan : public UnaryElementwiseOp<Tan> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::tan(v)); });
  }
};
REG_AUTO_MAPPING_OP(Tan);

}  // namespace openatc_ops
