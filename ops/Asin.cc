// Asin (ONNX Asin-7): output = arcsin(input) in [-pi/2, pi/2] elementwise; float, double and float16 (computed in float,
// rounded once). Values outside the function's domain give NaN, as std::asin does.
#include "common/math_util.h"

namespace ge {
REG_OP(Asin).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Asin);
}  // namespace ge

namespace openatc_ops {

class Asin : public UnaryElementwiseOp<Asin> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::asin(v)); });
  }
};
REG_AUTO_MAPPING_OP(Asin);

}  // namespace openatc_ops
