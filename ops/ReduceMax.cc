// ReduceMax (ONNX ReduceMax-13): maximum over `axes`, keepdims; axes is an attribute (until opset
// 18), empty = all axes. Float and integer types, and bool from opset 20 (logical or); floats
// accumulate in double, rounded once. -inf (lowest integer) for an empty reduction; NaN propagates.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceMax)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceMax);
}  // namespace ge

namespace openatc_ops {

class ReduceMax : public ReduceOp<ReduceMax> {
 public:
  static constexpr bool kAxesInput = false;
  static bool Accepts(ge::DataType d) { return IsNumber(d) || d == ge::DT_BOOL; }  // bool: opset 20
  template <typename T>
  using Acc = ComputeType<T>;
  template <typename A>
  static A Init() {
    if constexpr (std::is_integral<A>::value)
      return std::numeric_limits<A>::lowest();
    else
      return -std::numeric_limits<A>::infinity();
  }
  template <typename A>
  static A Combine(A acc, A v) {
    if constexpr (!std::is_integral<A>::value) {
      if (std::isnan(acc) || std::isnan(v)) return acc + v;
    }
    return v > acc ? v : acc;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return static_cast<T>(acc);
  }
};
REG_AUTO_MAPPING_OP(ReduceMax);

}  // namespace openatc_ops
