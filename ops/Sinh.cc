// Sinh (ONNX Sinh-9): output = sinh(input) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN; results beyond the dtype's range are inf.
#include "common/math_util.h"

namespace ge {
REG_OP(Sinh).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Sinh);
}  // namespace ge

namespace openatc_ops {

class Sinh : public UnaryElementwiseOp<Sinh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::sinh(v)); });
  }
};
REG_AUTO_MAPPING_OP(Sinh);

}  // namespace openatc_ops
