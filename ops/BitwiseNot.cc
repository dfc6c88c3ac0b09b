// BitwiseNot (ONNX BitwiseNot-18): Y = ~X bit by bit on an integer tensor (int8..int64,
// uint8..uint64; signed values as their two's complement bits).
#include "common/math_util.h"

namespace ge {
REG_OP(BitwiseNot)
    .INPUT(X, TensorType::IntegerDataType())
    .OUTPUT(Y, TensorType::IntegerDataType())
    .OP_END_FACTORY_REG(BitwiseNot);
}  // namespace ge

namespace openatc_ops {

class BitwiseNot : public UnaryElementwiseOp<BitwiseNot> {
 public:
  static bool Accepts(ge::DataType d) { return IsInt(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    if (MapInt(x, y, [](auto v) { return ~v; }) != ge::GRAPH_SUCCESS)
      return Fail(ctx, "X must be an integer tensor");
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(BitwiseNot);

}  // namespace openatc_ops
