// ReduceMean (ONNX ReduceMean-13): mean over `axes`, keepdims; axes is an attribute (until opset
// 18), empty = all axes. Float and integer types; floats accumulate in double, rounded once. NaN
// for an empty float reduction, 0 for integers; integer means truncate toward zero.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceMean)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceMean);
}  // namespace ge

namespace openatc_ops {

class ReduceMean : public ReduceOp<ReduceMean> {
 public:
  static constexpr bool kAxesInput = false;
  static constexpr bool kCombineMerges = true;  // sums: partial sums add (reduce.h)
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
      return WrapAdd(acc, v);
    else
      return acc + v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    if constexpr (std::is_integral<A>::value) {
      if (count == 0) return T(0);
      return static_cast<T>(acc / static_cast<A>(count));
    } else {
      return static_cast<T>(acc / static_cast<A>(count));
    }
  }
};
REG_AUTO_MAPPING_OP(ReduceMean);

}  // namespace openatc_ops
