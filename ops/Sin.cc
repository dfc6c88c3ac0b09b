// Sin (ONNX Sin-7): output = sin(input) (radians) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Sin).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Sin);
}  // namespace ge

namespace openatc_ops {

class Sin : public UnaryElementwiseOp<Sin> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::sin(v)); });
  }
};
REG_AUTO_MAPPING_OP(Sin);

}  // namespace openatc_ops
