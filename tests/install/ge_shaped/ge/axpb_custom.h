// AxpbCustom's prototype: z = 2 * x + y, float32, x and y of one shape. Included by the
// deliverable and by the graph-building program (as GE samples share their op_graph/include).
#ifndef GE_SHAPED_AXPB_CUSTOM_H_
#define GE_SHAPED_AXPB_CUSTOM_H_
#include "graph/operator_reg.h"

namespace ge {
REG_OP(AxpbCustom)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AxpbCustom);
}  // namespace ge
#endif  // GE_SHAPED_AXPB_CUSTOM_H_
