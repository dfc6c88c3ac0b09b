// ReduceSumSquare (ONNX ReduceSumSquare-13): sum(x^2) over `axes`, keepdims; axes is an attribute
// (until opset 18), empty = all axes. Float and integer types; floats accumulate in double,
// rounded once; integers accumulate in 64 bits with two's complement wrap. 0 for an empty reduction.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceSumSquare)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceSumSquare);
}  // namespace ge

namespace openatc_ops {

class ReduceSumSquare : public ReduceOp<ReduceSumSquare> {
 public:
  static constexpr bool kAxesInput = false;
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  template <typename T>
  using Acc = WideAcc<T>;
  template <typename A>
  static A Init() {
    return A(0);
  }
  template <typename A>
  static A Combine(A acc, A v) {
    if constexpr (std::is_integral<A>::value)
      return WrapAdd(acc, WrapMul(v, v));
    else
      return acc + v * v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return static_cast<T>(acc);
  }
};
REG_AUTO_MAPPING_OP(ReduceSumSquare);

}  // namespace openatc_ops
