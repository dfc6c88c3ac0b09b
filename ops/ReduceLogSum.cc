// ReduceLogSum (ONNX ReduceLogSum-13): log(sum(x)) over `axes`, keepdims; axes is an attribute
// (until opset 18), empty = all axes. Float and integer types, summed in double and rounded once
// (integer results truncate toward zero and saturate). An empty reduction gives log(0) = -inf; a
// negative sum gives NaN (integers: 0 and the dtype's minimum, see FromDouble).
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceLogSum)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceLogSum);
}  // namespace ge

namespace openatc_ops {

class ReduceLogSum : public ReduceOp<ReduceLogSum> {
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
    return acc + v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return FromDouble<T>(std::log(acc));
  }
};
REG_AUTO_MAPPING_OP(ReduceLogSum);

}  // namespace openatc_ops
