// Tanh (ONNX Tanh-13): output = tanh(input); float, double and float16 (computed in float, rounded
// once); float32 on oneDNN (common/dnnl_eltwise.h).
#include "common/dnnl_eltwise.h"
#include "common/math_util.h"

namespace ge {
REG_OP(Tanh)
    .INPUT(input, TensorType::FloatingDataType())
    .OUTPUT(output, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Tanh);
}  // namespace ge

namespace openatc_ops {

class Tanh : public UnaryElementwiseOp<Tanh> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    if (x.GetDataType() == ge::DT_FLOAT) return EltwiseF32(ctx, dnnl::algorithm::eltwise_tanh, x, y);  // vectorised
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(std::tanh(v));
    });
  }
};
REG_AUTO_MAPPING_OP(Tanh);

}  // namespace openatc_ops
