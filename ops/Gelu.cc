// Gelu (ONNX Gelu-20): approximate "none": Y = X/2 * (1 + erf(X / sqrt(2))); "tanh":
// Y = X/2 * (1 + tanh(sqrt(2/pi) * (X + 0.044715 X^3))). Float types (float16 computed in float);
// NaN stays NaN. float32 on oneDNN's eltwise_gelu_erf / eltwise_gelu_tanh (common/dnnl_eltwise.h).
#include "common/dnnl_eltwise.h"
#include "common/math_util.h"

namespace ge {
REG_OP(Gelu)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .ATTR(approximate, String, "none")
    .OP_END_FACTORY_REG(Gelu);
}  // namespace ge

namespace openatc_ops {

class Gelu : public UnaryElementwiseOp<Gelu> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    const std::string mode = AttrStr(ctx, 0, "none");
    if (x.GetDataType() == ge::DT_FLOAT && (mode == "none" || mode == "tanh"))  // vectorised
      return EltwiseF32(ctx, mode == "tanh" ? dnnl::algorithm::eltwise_gelu_tanh : dnnl::algorithm::eltwise_gelu_erf, x,
                        y);
    if (mode == "none")
      return MapFloat(x, y, [](auto v) {
        using C = decltype(v);
        return static_cast<C>(C(0.5) * v * (C(1) + std::erf(v * C(0.70710678118654752440))));
      });
    if (mode == "tanh")
      return MapFloat(x, y, [](auto v) {
        using C = decltype(v);
        const C inner = C(0.79788456080286535588) * (v + C(0.044715) * v * v * v);  // sqrt(2/pi)
        return static_cast<C>(C(0.5) * v * (C(1) + std::tanh(inner)));
      });
    return Fail(ctx, "approximate '" + mode + "' is not one of none, tanh");
  }
};
REG_AUTO_MAPPING_OP(Gelu);

}  // namespace openatc_ops
