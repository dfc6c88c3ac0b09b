// Acos (ONNX Acos-7): output = arccos(input) in [0, pi] elementwise; float, double and float16 (computed in float,
// rounded once). Values outside the function's domain give NaN, as std::acos does.
#include "common/math_util.h"

namespace ge {
REG_OP(Acos).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Acos);
}  // namespace ge

namespace openatc_ops {

class Acos : public UnaryElementwiseOp<Acos> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::acos(v)); });
  }
};
REG_AUTO_MAPPING_OP(Acos);

}  // namespace openatc_ops
