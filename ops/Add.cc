// Add (ONNX Add-14): C = A + B with multidirectional broadcasting; float, float16, double and
// integer types (integer overflow wraps, as two's complement).
#include "common/elementwise.h"

namespace ge {
REG_OP(Add)
    .INPUT(A, TensorType::NumberType())
    .INPUT(B, TensorType::NumberType())
    .OUTPUT(C, TensorType::NumberType())
    .OP_END_FACTORY_REG(Add);
}  // namespace ge

namespace openatc_ops {

class Add : public BinaryElementwiseOp<Add> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcast<T, T>(a, b, c, [](T x, T y) { return T(x + y); }))
      OPENATC_OPS_INT_CASES(BinaryBroadcast<T, T>(a, b, c, [](T x, T y) {
        using U = typename std::make_unsigned<T>::type;
        return static_cast<T>(static_cast<U>(x) + static_cast<U>(y));
      }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Add);

}  // namespace openatc_ops
