// ReduceLogSumExp (ONNX ReduceLogSumExp-13): log(sum(exp(x))) over `axes`, keepdims; axes is an
// attribute (until opset 18), empty = all axes. Float and integer types, computed in double with
// a running maximum (m + log(sum(exp(x - m)))), so large inputs do not overflow; rounded once
// (integer results truncate toward zero and saturate). An empty reduction gives -inf; NaN
// propagates; a +inf input gives +inf.
#include "common/reduce.h"

namespace ge {
REG_OP(ReduceLogSumExp)
    .INPUT(data, TensorType::RealNumberType())
    .OPTIONAL_INPUT(axes, TensorType({DT_INT64}))
    .OUTPUT(reduced, TensorType::RealNumberType())
    .ATTR(axes, ListInt, {})
    .ATTR(keepdims, Int, 1)
    .OP_END_FACTORY_REG(ReduceLogSumExp);
}  // namespace ge

namespace openatc_ops {
// A partial log-sum-exp: sum(exp(x)) == s * exp(m). Empty: m = -inf, s = 0.
struct LogSumExpAcc {
  double m = -std::numeric_limits<double>::infinity();
  double s = 0.0;
  LogSumExpAcc() = default;
  explicit LogSumExpAcc(double v) : m(v), s(1.0) {}
};

class ReduceLogSumExp : public ReduceOp<ReduceLogSumExp> {
 public:
  static constexpr bool kAxesInput = false;
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  template <typename T>
  using Acc = LogSumExpAcc;
  template <typename A>
  static A Init() {
    return A();
  }
  template <typename A>
  static A Combine(A acc, A v) {
    if (std::isnan(v.m) || std::isnan(acc.m)) return A(std::numeric_limits<double>::quiet_NaN());
    if (v.m == -std::numeric_limits<double>::infinity()) return acc;  // exp(-inf) adds 0
    if (v.m > acc.m) {
      acc.s = acc.s * std::exp(acc.m - v.m) + 1.0;  // acc.m = -inf: exp(-inf) = 0
      acc.m = v.m;
    } else if (v.m == acc.m) {
      acc.s += 1.0;  // also +inf == +inf, where exp(inf - inf) would be NaN
    } else {
      acc.s += std::exp(v.m - acc.m);
    }
    return acc;
  }
  template <typename A, typename T>
  static T Finish(A acc, int64_t count) {
    (void)count;
    if (acc.s == 0.0) return FromDouble<T>(-std::numeric_limits<double>::infinity());
    return FromDouble<T>(acc.m + std::log(acc.s));
  }
};
REG_AUTO_MAPPING_OP(ReduceLogSumExp);

}  // namespace openatc_ops
