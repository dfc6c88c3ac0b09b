// Mean (ONNX Mean-13): elementwise mean of 1..n inputs (DYNAMIC_INPUT data_0) with
// multidirectional broadcasting; float types (float16 accumulated in float, rounded once).
#include "common/variadic.h"

namespace ge {
REG_OP(Mean)
    .DYNAMIC_INPUT(data_0, TensorType::FloatingDataType())
    .OUTPUT(mean, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Mean);
}  // namespace ge

namespace openatc_ops {

class Mean : public VariadicElementwiseOp<Mean> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  template <typename T>
  using Acc = ComputeType<T>;
  template <typename A>
  static A Combine(A acc, A v) {
    if constexpr (std::is_integral<A>::value)
      return WrapAdd(acc, v);
    else
      return acc + v;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    return static_cast<T>(acc / static_cast<A>(count));
  }
};
REG_AUTO_MAPPING_OP(Mean);

}  // namespace openatc_ops
