// Acosh (ONNX Acosh-9): output = arccosh(input) elementwise; float, double and float16 (computed in float,
// rounded once). Values outside the function's domain give NaN, as std::acosh does.
#include "common/math_util.h"

namespace ge {
REG_OP(Acosh).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Acosh);
}  // namespace ge

namespace openatc_ops {

class Acosh : public UnaryElementwiseOp<Acosh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::acosh(v)); });
  }
};
REG_AUTO_MAPPING_OP(Acosh);

}  // namespace openatc_ops
