// Sigmoid (ONNX Sigmoid-13): Y = 1 / (1 + e^-X), evaluated without overflow for large |X|; float,
// double and float16 (computed in float, rounded once); float32 on oneDNN (common/dnnl_eltwise.h).
#include "common/dnnl_eltwise.h"
#include "common/math_util.h"

namespace ge {
REG_OP(Sigmoid)
    .INPUT(X, TensorType::FloatingDataType())
    .OUTPUT(Y, TensorType::FloatingDataType())
    .OP_END_FACTORY_REG(Sigmoid);
}  // namespace ge

namespace openatc_ops {

class Sigmoid : public UnaryElementwiseOp<Sigmoid> {
 public:
  static bool Accepts(ge::DataType d) { return IsFloat(d); }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, gert::Tensor &y) {
    if (x.GetDataType() == ge::DT_FLOAT) return EltwiseF32(ctx, dnnl::algorithm::eltwise_logistic, x, y);  // vectorised
    return MapFloat(x, y, [](auto v) {
      using C = decltype(v);
      return static_cast<C>(v >= C(0) ? C(1) / (C(1) + std::exp(-v)) : std::exp(v) / (C(1) + std::exp(v)));
    });
  }
};
REG_AUTO_MAPPING_OP(Sigmoid);

}  // namespace openatc_ops
