// Neg (ONNX Neg-13): Y = -X for float types and signed integers (float16 computed in float; the
// most negative signed integer maps to itself, as two's complement wraps).
#include "common/math_util.h"

namespace ge {
REG_OP(Neg)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64}))
    .OP_END_FACTORY_REG(Neg);
}  // namespace ge

namespace openatc_ops {

class Neg : public UnaryElementwiseOp<Neg> {
 public:
  static bool Accepts(ge::DataType d) {
    return IsFloat(d) || d == ge::DT_INT8 || d == ge::DT_INT16 || d == ge::DT_INT32 || d == ge::DT_INT64;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    if (IsFloat(x.GetDataType())) return MapFloat(x, y, [](auto v) { return -v; });
    return MapInt(x, y, [](auto v) { return WrapSub(decltype(v)(0), v); });
  }
};
REG_AUTO_MAPPING_OP(Neg);

}  // namespace openatc_ops
