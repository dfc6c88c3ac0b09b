// Softsign (ONNX Softsign-1): output = input / (1 + |input|); float, double and float16 (computed
// in float, rounded once). +-inf give +-1 in the limit; here inf / inf gives NaN as ONNX's reference does.
#include "common/math_util.h"

namespace ge {
REG_OP(Softsign).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Softsign);
}  // namespace ge

namespace openatc_ops {

class Softsign : public UnaryElementwiseOp<Softsign> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(v / (C(1) + std::abs(v)));
    });
  }
};
REG_AUTO_MAPPING_OP(Softsign);

}  // namespace openatc_ops
