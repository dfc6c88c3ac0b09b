// Xor (ONNX Xor-7): C = A xor B elementwise on bool tensors with multidirectional broadcasting.
#include "common/math_util.h"

namespace ge {
REG_OP(Xor)
    .INPUT(A, TensorType({DT_BOOL}))
    .INPUT(B, TensorType({DT_BOOL}))
    .OUTPUT(C, TensorType({DT_BOOL}))
    .OP_END_FACTORY_REG(Xor);
}  // namespace ge

namespace openatc_ops {

class Xor : public BinaryElementwiseOp<Xor> {
 public:
  static bool Accepts(ge::DataType d) { return d == ge::DT_BOOL; }
  static ge::DataType OutType(ge::DataType) { return ge::DT_BOOL; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    // bool elements are read as bytes (any nonzero byte is true)
    BinaryBroadcastMixed<uint8_t, uint8_t, uint8_t>(
        a, b, c, [](uint8_t x, uint8_t y) -> uint8_t { return ((x != 0) != (y != 0)) ? 1 : 0; });
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Xor);

}  // namespace openatc_ops
