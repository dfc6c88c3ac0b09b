// Greater (ONNX Greater-13): C = (A > B) elementwise with multidirectional broadcasting; inputs of
// one dtype among float and integer types; output bool (float16 compared in float).
#include "common/math_util.h"

namespace ge {
REG_OP(Greater)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType({DT_BOOL}))
    .OP_END_FACTORY_REG(Greater);
}  // namespace ge

namespace openatc_ops {

class Greater : public BinaryElementwiseOp<Greater> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType) { return ge::DT_BOOL; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    return CompareBroadcast(a, b, c, [](auto x, auto y) { return x > y; });
  }
};
REG_AUTO_MAPPING_OP(Greater);

}  // namespace openatc_ops
