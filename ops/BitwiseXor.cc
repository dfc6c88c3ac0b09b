// BitwiseXor (ONNX BitwiseXor-18): C = A ^ B bit by bit on integer tensors of one dtype, with
// multidirectional broadcasting (ops/common/bitwise.h).
#include "common/bitwise.h"

namespace ge {
REG_OP(BitwiseXor)
    .INPUT(A, TensorType::IntegerDataType())
    .INPUT(B, TensorType::IntegerDataType())
    .OUTPUT(C, TensorType::IntegerDataType())
    .OP_END_FACTORY_REG(BitwiseXor);
}  // namespace ge

namespace openatc_ops {

class BitwiseXor : public BitwiseBinaryOp<BitwiseXor> {
 public:
  template <typename T>
  static T Apply(T a, T b) {
    return static_cast<T>(a ^ b);
  }
};
REG_AUTO_MAPPING_OP(BitwiseXor);

}  // namespace openatc_ops
