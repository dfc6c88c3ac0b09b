// ReduceL2 (ONNX ReduceL2-13): L2 norm sqrt(sum(x^2)) over `axes`, keepdims; axes is an attribute
// (until opset 18), empty = all axes. Float and integer types; floats accumulate in double, rounded
// once. 0 for an empty reduction; integer results truncate toward zero.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceL2)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceL2);
}  // namespace ge

namespace openatc_ops {

class ReduceL2 : public ReduceOp<ReduceL2> {
 public:
  static constexpr bool kAxesInput = false;
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  template <typename T>
  using Acc = double;
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A v) {
    return acc + v * v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return FromDouble<T>(std::sqrt(acc));
  }
};
REG_AUTO_MAPPING_OP(ReduceL2);

}  // namespace openatc_ops
