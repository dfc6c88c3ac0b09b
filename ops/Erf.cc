// Erf (ONNX Erf-13): output = erf(input) via std::erf, for float types (float16 computed in float)
// and integer types (erf of an integer truncated toward zero: 0, or +-1 once |x| >= 6).
#include "common/math_util.h"

namespace ge {
REG_OP(Erf)
    .INPUT(input, TensorType::RealNumberType())
    .OUTPUT(output, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Erf);
}  // namespace ge

namespace openatc_ops {

class Erf : public UnaryElementwiseOp<Erf> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    if (IsFloat(x.GetDataType())) return MapFloat(x, y, [](auto v) { return std::erf(v); });
    return MapInt(x, y, [](auto v) { return FromDouble<decltype(v)>(std::erf(static_cast<double>(v))); });
  }
};
REG_AUTO_MAPPING_OP(Erf);

}  // namespace openatc_ops
