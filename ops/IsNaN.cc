// IsNaN (ONNX IsNaN-13): Y[i] = true where X[i] is NaN; X float, double or float16, Y bool.
#include "common/float_predicate.h"

namespace ge {
REG_OP(IsNaN).INPUT(X, TensorType::FloatingDataType()).OUTPUT(Y, TensorType({DT_BOOL})).OP_END_FACTORY_REG(IsNaN);
}  // namespace ge

namespace openatc_ops {

class IsNaN : public FloatPredicateOp<IsNaN> {
 public:
  static bool Test(const gert::ExtendedKernelContext *, double v) { return std::isnan(v); }
};
REG_AUTO_MAPPING_OP(IsNaN);

}  // namespace openatc_ops
