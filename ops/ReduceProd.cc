// ReduceProd (ONNX ReduceProd-13): product over `axes`, keepdims; axes is an attribute (until opset
// 18), empty = all axes. Float and integer types; floats accumulate in double, rounded once. 1 for
// an empty reduction; integer products wrap.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceProd)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceProd);
}  // namespace ge

namespace openatc_ops {

class ReduceProd : public ReduceOp<ReduceProd> {
 public:
  static constexpr bool kAxesInput = false;
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  template <typename T>
  using Acc = WideAcc<T>;
  template <typename A>
  static A Init() {
    return A(1);
  }
  template <typename A>
  static A Combine(A acc, A v) {
    if constexpr (std::is_integral<A>::value)
      return WrapMul(acc, v);
    else
      return acc * v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return static_cast<T>(acc);
  }
};
REG_AUTO_MAPPING_OP(ReduceProd);

}  // namespace openatc_ops
