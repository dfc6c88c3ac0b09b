// Div (ONNX Div-14): C = A / B with multidirectional broadcasting. Floats follow IEEE (x/0 is
// +-inf or NaN; float16 computed in float, rounded once); integer division truncates toward zero
// as in C, INT_MIN / -1 wraps to INT_MIN, and a zero divisor is an error (ONNX leaves it
// undefined; a crash is not acceptable).
#include "common/math_util.h"

namespace ge {
REG_OP(Div)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Div);
}  // namespace ge

namespace openatc_ops {

class Div : public BinaryElementwiseOp<Div> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) {
        return static_cast<T>(static_cast<ComputeType<T>>(x) / static_cast<ComputeType<T>>(y));
      }))
      OPENATC_OPS_INT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) {
        if (std::is_signed<T>::value && y == T(-1)) return WrapSub(T(0), x);  // avoids INT_MIN / -1
        return static_cast<T>(x / y);
      }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    if (a != nullptr && b != nullptr && a->GetShapeSize() > 0 && HasIntZero(*b))
      return Fail(ctx, "integer division by zero: divisor B contains 0; make B nonzero or divide in a float type");
    return BinaryElementwiseOp<Div>::Execute(ctx);
  }
};
REG_AUTO_MAPPING_OP(Div);

}  // namespace openatc_ops
