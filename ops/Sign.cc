// Sign (ONNX Sign-13): output = -1, 0 or 1 by the sign of input, for float and integer types
// (unsigned: 0 or 1); NaN stays NaN (as NumPy's sign, ONNX's reference); -0.0 gives 0.
#include "common/math_util.h"

namespace ge {
REG_OP(Sign).INPUT(input, TensorType::RealNumberType()).OUTPUT(output, TensorType::RealNumberType()).OP_END_FACTORY_REG(Sign);
}  // namespace ge

namespace openatc_ops {

class Sign : public UnaryElementwiseOp<Sign> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    if (IsFloat(x.GetDataType()))
      return MapFloat(x, y, [](auto v) {
        using C = decltype(v);
        if (std::isnan(v)) return v;
        return v > C(0) ? C(1) : (v < C(0) ? C(-1) : C(0));
      });
    return MapInt(x, y, [](auto v) {
      using T = decltype(v);
      if constexpr (std::is_signed<T>::value) return static_cast<T>(v > T(0) ? 1 : (v < T(0) ? -1 : 0));
      return static_cast<T>(v > T(0) ? 1 : 0);
    });
  }
};
REG_AUTO_MAPPING_OP(Sign);

}  // namespace openatc_ops
