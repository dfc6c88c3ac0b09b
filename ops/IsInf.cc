// IsInf (ONNX IsInf-10): Y[i] = true where X[i] is +inf (when detect_positive != 0) or -inf (when
// detect_negative != 0); both default to 1. X float, double or float16, Y bool; NaN is not inf.
#include "common/float_predicate.h"

namespace ge {
REG_OP(IsInf)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType({DT_BOOL}))
    .ATTR(detect_negative, Int, 1)
    .ATTR(detect_positive, Int, 1)
    .OP_END_FACTORY_REG(IsInf);
}  // namespace ge

namespace openatc_ops {

class IsInf : public FloatPredicateOp<IsInf> {
 public:
  static bool Test(const gert::ExtendedKernelContext *ctx, double v) {
    if (!std::isinf(v)) return false;
    return v > 0 ? AttrInt(ctx, 1, 1) != 0 : AttrInt(ctx, 0, 1) != 0;
  }
};
REG_AUTO_MAPPING_OP(IsInf);

}  // namespace openatc_ops
