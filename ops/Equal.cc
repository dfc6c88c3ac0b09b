// Equal (ONNX Equal-13): C = (A == B) elementwise with multidirectional broadcasting; inputs of
// one dtype among bool, float and integer types; output bool (float16 compared in float).
#include "common/math_util.h"

namespace ge {
REG_OP(Equal)
    .INPUT(A, TensorType({DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8,
                          DT_UINT16, DT_UINT32, DT_UINT64}))
    .INPUT(B, TensorType({DT_BOOL, DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8,
                          DT_UINT16, DT_UINT32, DT_UINT64}))
    .OUTPUT(C, TensorType({DT_BOOL}))
    .OP_END_FACTORY_REG(Equal);
}  // namespace ge

namespace openatc_ops {

class Equal : public BinaryElementwiseOp<Equal> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d) || d == ge::DT_BOOL; }
  static ge::DataType OutType(ge::DataType) { return ge::DT_BOOL; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    return CompareBroadcast(a, b, c, [](auto x, auto y) { return x == y; });
  }
};
REG_AUTO_MAPPING_OP(Equal);

}  // namespace openatc_ops
