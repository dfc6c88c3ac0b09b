// HammingWindow (ONNX HammingWindow-17): w[n] = alpha - beta cos(2 pi n / N) with alpha = 25/46 and
// beta = 21/46, for n = 0..size-1 and N = size (periodic = 1, the default) or size - 1 (symmetric);
// output dtype from output_datatype (default float). Shared code: ops/common/signal.h.
#include "common/signal.h"

namespace ge {
REG_OP(HammingWindow)
    .INPUT(size, TensorType({DT_INT32, DT_INT64}))
    .OUTPUT(output, TensorType::RealNumberType())
    .ATTR(output_datatype, Int, 1)
    .ATTR(periodic, Int, 1)
    .OP_END_FACTORY_REG(HammingWindow);
}  // namespace ge

namespace openatc_ops {

class HammingWindow : public CosineWindowOp<HammingWindow> {
 public:
  static void Coefficients(double *a0, double *a1, double *a2) {
    *a0 = 25.0 / 46.0;
    *a1 = 21.0 / 46.0;
    *a2 = 0.0;
  }
};
REG_AUTO_MAPPING_OP(HammingWindow);

}  // namespace openatc_ops
