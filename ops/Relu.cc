// Relu (ONNX Relu-14): Y = max(0, X) for float types and signed integers; NaN stays NaN (numpy's
// maximum, which ONNX's reference uses).
#include "common/elementwise.h"

namespace ge {
REG_OP(Relu)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT8, DT_INT16, DT_INT32, DT_INT64}))
    .OP_END_FACTORY_REG(Relu);
}  // namespace ge

namespace openatc_ops {

class Relu : public UnaryElementwiseOp<Relu> {
 public:
  static bool Accepts(ge::DataType d) {
    return IsFloat(d) || d == ge::DT_INT8 || d == ge::DT_INT16 || d == ge::DT_INT32 || d == ge::DT_INT64;
  }
  static ge::graphStatus Compute(gert::EagerOpExecutionContext *, const gert::Tensor &x, gert::Tensor &y) {
    if (IsFloat(x.GetDataType())) return MapFloat(x, y, [](auto v) { return v > 0 || std::isnan(v) ? v : decltype(v)(0); });
    const int64_t n = x.GetShapeSize();
    switch (x.GetDataType()) {
      OPENATC_OPS_INT_CASES(const T *p = x.GetData<T>(); T *q = y.GetData<T>();
                            for (int64_t i = 0; i < n; ++i) q[i] = p[i] > 0 ? p[i] : T(0))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Relu);

}  // namespace openatc_ops
