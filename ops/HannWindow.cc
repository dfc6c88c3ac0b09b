// HannWindow (ONNX HannWindow-17): w[n] = sin^2(pi n / N) = 0.5 - 0.5 cos(2 pi n / N)
// for n = 0..size-1 and N = size (periodic = 1, the default) or size - 1 (symmetric); output
// dtype from output_datatype (default float). Shared code: ops/common/signal.h.
#include "common/signal.h"

namespace ge {
REG_OP(HannWindow)
    .INPUT(size, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::RealNumberType())
    .ATTR(output_datatype, Int, 1)
    .ATTR(periodic, Int, 1)
    .OP_END_FACTORY_REG(HannWindow);
}  // namespace ge

namespace openatc_ops {

class HannWindow : public CosineWindowOp<HannWindow> {
 public:
  static void Coefficients(double *a0, double *a1, double *a2) {
    *a0 = 0.5;
    *a1 = 0.5;
    *a2 = 0.0;
  }
};
REG_AUTO_MAPPING_OP(HannWindow);

}  // namespace openatc_ops
