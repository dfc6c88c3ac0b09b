// Not (ONNX Not-1): Y = logical not X, bool tensors only.
#include "common/math_util.h"

namespace ge {
REG_OP(Not).INPUT(X, TensorType({DT_BOOL})).OUTPUT(Y, TensorType({DT_BOOL})).OP_END_FACTORY_REG(Not);
}  // namespace ge

namespace openatc_ops {

class Not : public UnaryElementwiseOp<Not> {
 public:
  static bool Accepts(ge::DataType d) { return d == ge::DT_BOOL; }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    const int64_t n = x.GetShapeSize();
    const uint8_t *p = x.GetData<uint8_t>();  // bytes, so that a stray value != 0/1 is still safe
    uint8_t *q = y.GetData<uint8_t>();
    for (int64_t i = 0; i < n; ++i) q[i] = p[i] == 0 ? 1 : 0;
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Not);

}  // namespace openatc_ops
