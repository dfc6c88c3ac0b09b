// GlobalAveragePool (ONNX GlobalAveragePool-1): the mean of X (N, C, spatial...) over all spatial axes, giving
// (N, C, 1, ..., 1); float32/float16/double, on oneDNN's pooling (see common/dnnl_pool.h).
#include "common/dnnl_pool.h"

namespace ge {
REG_OP(GlobalAveragePool)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(openatc_chain_layout, Int, 0)
    .ATTR(openatc_chain_block, Int, 8)
    .OP_END_FACTORY_REG(GlobalAveragePool);
}  // namespace ge

namespace openatc_ops {

class GlobalAveragePool : public GlobalPoolOp<dnnl::algorithm::pooling_avg_exclude_padding> {};
REG_AUTO_MAPPING_OP(GlobalAveragePool);

}  // namespace openatc_ops
