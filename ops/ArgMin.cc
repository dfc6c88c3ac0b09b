// ArgMin (ONNX ArgMin-13): int64 index of the smallest element along `axis`; see
// ops/common/arg_reduce.h for keepdims, select_last_index, NaN and empty-axis behaviour.
#include "common/arg_reduce.h"

namespace ge {
REG_OP(ArgMin)
    .INPUT(data, TensorType::RealNumberType())
    .OUTPUT(reduced, TensorType({DT_INT64}))
    .ATTR(axis, Int, 0)
    .ATTR(keepdims, Int, 1)
    .ATTR(select_last_index, Int, 0)
    .OP_END_FACTORY_REG(ArgMin);
}  // namespace ge

namespace openatc_ops {

class ArgMin : public ArgReduceOp<false> {};
REG_AUTO_MAPPING_OP(ArgMin);

}  // namespace openatc_ops
