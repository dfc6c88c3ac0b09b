// Atanh (ONNX Atanh-9): output = arctanh(input) elementwise; float, double and float16 (computed in float,
// rounded once). Values outside the function's domain give NaN, as std::atanh does.
#include "common/math_util.h"

namespace ge {
REG_OP(Atanh).INPUT(input, TensorType::FloatingDataType()).OUTPUT(output, TensorType::FloatingDataType()).OP_END_FACTORY_REG(Atanh);
}  // namespace ge

namespace openatc_ops {

class Atanh : public UnaryElementwiseOp<Atanh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    return MapFloat(x, y, [](auto v) { return static_cast<decltype(v)>(std::atanh(v)); });
  }
};
REG_AUTO_MAPPING_OP(Atanh);

}  // namespace openatc_ops
