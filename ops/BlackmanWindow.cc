// BlackmanWindow (ONNX BlackmanWindow-17): w[n] = 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)
// for n = 0..size-1 and N = size (periodic = 1, the default) or size - 1 (symmetric); output
// dtype from output_datatype (default float). Shared code: ops/common/signal.h.
#include "common/signal.h"

namespace ge {
REG_OP(BlackmanWindow)
    .INPUT(size, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::RealNumberType())
    .ATTR(output_datatype, Int, 1)
    .ATTR(periodic, Int, 1)
    .OP_END_FACTORY_REG(BlackmanWindow);
}  // namespace ge

namespace openatc_ops {

class BlackmanWindow : public CosineWindowOp<BlackmanWindow> {
 public:
  static void Coefficients(double *a0, double *a1, double *a2) {
    *a0 = 0.42;
    *a1 = 0.5;
    *a2 = 0.08;
  }
};
REG_AUTO_MAPPING_OP(BlackmanWindow);

}  // namespace openatc_ops
