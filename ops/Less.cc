// Less (ONNX Less-13): C = (A < B) elementwise with multidirectional broadcasting; inputs of
// one dtype among float and integer types; output bool (float16 compared in float).
#include "common/math_util.h"

namespace ge {
REG_OP(Less)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType({DT_BOOL}))
    .OP_END_FACTORY_REG(Less);
}  // namespace ge

namespace openatc_ops {

class Less : public BinaryElementwiseOp<Less> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType) { return ge::DT_BOOL; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    return CompareBroadcast(a, b, c, [](auto x, auto y) { return x < y; });
  }
};
REG_AUTO_MAPPING_OP(Less);

}  // namespace openatc_ops
