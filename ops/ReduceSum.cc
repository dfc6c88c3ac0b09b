// ReduceSum (ONNX ReduceSum-13): sum over `axes`, keepdims; axes is optional input 1 (int64;
// ReduceSum-1/11's attribute is rewritten into it by the ONNX front end); empty or absent axes
// reduce everything unless noop_with_empty_axes. Float and integer types; floats accumulate in
// double, rounded once. 0 for an empty reduction.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceSum)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(keepdims, Int, 1)
    .ATTR(noop_with_empty_axes, Int, 0)
    .OP_END_FACTORY_REG(ReduceSum);
}  // namespace ge

namespace openatc_ops {

class ReduceSum : public ReduceOp<ReduceSum> {
 public:
  static constexpr bool kAxesInput = true;
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
    (void)count;
    return static_cast<T>(acc);
  }
};
REG_AUTO_MAPPING_OP(ReduceSum);

}  // namespace openatc_ops
