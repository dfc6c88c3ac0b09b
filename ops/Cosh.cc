// Cosh (ONNX Cosh-9): output = cosh(input) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN; results beyond the dtype's range are inf.
#include "common/math_util.h"

namespace ge {
REG_OP(Cosh).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Cosh);
}  // namespace ge

namespace openatc_ops {

class Cosh : public UnaryElementwiseOp<Cosh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::cosh(v)); });
  }
};
REG_AUTO_MAPPING_OP(Cosh);

}  // namespace openatc_ops
