/**
 * @file add_custom.h
 * Graph prototype of AddCustom (host port of GE's compilable_add_custom sample): y = x1 + x2,
 * same shape and dtype. Installed to <opp>/op_graph/include/ for graph-building programs.
 */
#ifndef OPENATC_EXAMPLES_ADD_CUSTOM_H_
#define OPENATC_EXAMPLES_ADD_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AddCustom)
    .INPUT(x1, TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16,
                           DT_UINT32, DT_UINT64}))
    .INPUT(x2, TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16,
                           DT_UINT32, DT_UINT64}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16, DT_BF16, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16,
                           DT_UINT32, DT_UINT64}))
    .OP_END_FACTORY_REG(AddCustom);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_ADD_CUSTOM_H_
