// BitwiseOr (ONNX BitwiseOr-18): C = A | B bit by bit on integer tensors of one dtype, with
// multidirectional broadcasting (ops/common/bitwise.h).
#include "common/bitwise.h"

namespace ge {
REG_OP(BitwiseOr)
    .INPUT(A, TensorType::IntegerDataType())
    .INPUT(B, TensorType::IntegerDataType())
    .OUTPUT(C, TensorType::IntegerDataType())
    .OP_END_FACTORY_REG(BitwiseOr);
}  // namespace ge

namespace openatc_ops {

class BitwiseOr : public BitwiseBinaryOp<BitwiseOr> {
 public:
  template <typename T>
  static T Apply(T a, T b) {
    return static_cast<T>(a | b);
  }
};
REG_AUTO_MAPPING_OP(BitwiseOr);

}  // namespace openatc_ops
