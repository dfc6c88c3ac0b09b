// Sub (ONNX Sub-14): C = A - B with multidirectional broadcasting; float, float16 (computed in
// float, rounded once), double and integer types (integer overflow wraps, two's complement).
#include "common/math_util.h"

namespace ge {
REG_OP(Sub)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Sub);
}  // namespace ge

namespace openatc_ops {

class Sub : public BinaryElementwiseOp<Sub> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) {
        return static_cast<T>(static_cast<ComputeType<T>>(x) - static_cast<ComputeType<T>>(y));
      }))
      OPENATC_OPS_INT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) { return WrapSub(x, y); }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Sub);

}  // namespace openatc_ops
