// Abs (ONNX Abs-13): Y = |X| for float and integer types (float16 computed in float; the most
// negative signed integer maps to itself, as two's complement wraps).
#include "common/math_util.h"

namespace ge {
REG_OP(Abs).INPUT(X, TensorType::RealNumberType()).OUTPUT(Y, TensorType::RealNumberType()).OP_END_FACTORY_REG(Abs);
}  // namespace ge

namespace openatc_ops {

class Abs : public UnaryElementwiseOp<Abs> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    if (IsFloat(x.GetDataType())) return MapFloat(x, y, [](auto v) { return std::abs(v); });
    return MapInt(x, y, [](auto v) {
      using T = decltype(v);
      if constexpr (std::is_signed<T>::value) return v < T(0) ? WrapSub(T(0), v) : v;
      return v;
    });
  }
};
REG_AUTO_MAPPING_OP(Abs);

}  // namespace openatc_ops
