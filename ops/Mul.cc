// Mul (ONNX Mul-14): C = A * B with multidirectional broadcasting; float, float16 (computed in
// float, rounded once), double and integer types (integer overflow wraps, two's complement).
#include "common/math_util.h"

namespace ge {
REG_OP(Mul)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Mul);
}  // namespace ge

namespace openatc_ops {

class Mul : public BinaryElementwiseOp<Mul> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) {
        return static_cast<T>(static_cast<ComputeType<T>>(x) * static_cast<ComputeType<T>>(y));
      }))
      OPENATC_OPS_INT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) { return WrapMul(x, y); }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Mul);

}  // namespace openatc_ops
