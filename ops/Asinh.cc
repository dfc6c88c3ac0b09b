// Asinh (ONNX Asinh-9): output = arcsinh(input) elementwise; float, double and float16 (computed in float,
// rounded once). NaN stays NaN.
#include "common/math_util.h"

namespace ge {
REG_OP(Asinh).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Asinh);
}  // namespace ge

namespace openatc_ops {

class Asinh : public UnaryElementwiseOp<Asinh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::asinh(v)); });
  }
};
REG_AUTO_MAPPING_OP(Asinh);

}  // namespace openatc_ops
