// Min (ONNX Min-13): elementwise minimum of 1..n inputs (DYNAMIC_INPUT data_0) with
// multidirectional broadcasting; float and integer types (a NaN operand gives NaN).
#include "common/variadic.h"

namespace ge {
REG_OP(Min)
    .DYNAMIC_INPUT(data_0, TensorType::RealNumberType())
    .OUTPUT(min, TensorType::RealNumberType())
    .OP_END_FACTORY_REG(Min);
}  // namespace ge

namespace openatc_ops {

class Min : public VariadicElementwiseOp<Min> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  template <typename T>
  using Acc = ComputeType<T>;
  template <typename A>
  static A Combine(A acc, A v) {
    if constexpr (!std::is_integral<A>::value) {
      if (std::isnan(acc) || std::isnan(v)) return acc + v;
    }
    return v < acc ? v : acc;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    return static_cast<T>(acc);
  }
};
REG_AUTO_MAPPING_OP(Min);

}  // namespace openatc_ops
