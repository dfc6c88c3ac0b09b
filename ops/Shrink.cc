// Shrink (ONNX Shrink-9): output = input + bias where input < -lambd, input - bias where
// input > lambd, 0 otherwise (bias default 0, lambd default 0.5). Float and integer types:
// compared and computed in double, then stored as the input dtype (float: rounded once;
// integers: truncated toward zero and saturated, see FromDouble).
#include "common/math_util.h"

namespace ge {
REG_OP(Shrink)
    .INPUT(input, TensorType::RealNumberType())
    .OUTPUT(output, TensorType::RealNumberType())
    .ATTR(bias, Float, 0.0f)
    .ATTR(lambd, Float, 0.5f)
    .OP_END_FACTORY_REG(Shrink);
}  // namespace ge

namespace openatc_ops {

class Shrink : public UnaryElementwiseOp<Shrink> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const double bias = AttrFloat(ctx, 0, 0.0f), lambd = AttrFloat(ctx, 1, 0.5f);
    auto shrink = [=](double v) { return v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0); };
    const int64_t n = x.GetShapeSize();
    switch (x.GetDataType()) {
      OPENATC_OPS_NUMBER_CASES(const T *p = x.GetData<T>(); T *q = y.GetData<T>();
                               for (int64_t i = 0; i < n; ++i) q[i] = FromDouble<T>(shrink(static_cast<double>(p[i]))))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Shrink);

}  // namespace openatc_ops
