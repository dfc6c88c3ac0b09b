// Cos (ONNX Cos-7): output = cos(input) (radians) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Cos).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Cos);
}  // namespace ge

namespace openatc_ops {

class Cos : public UnaryElementwiseOp<Cos> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::cos(v)); });
  }
};
REG_AUTO_MAPPING_OP(Cos);

}  // namespace openatc_ops
