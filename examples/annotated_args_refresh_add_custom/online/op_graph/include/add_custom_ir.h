/**
 * @file add_custom_ir.h
 * Graph prototypes of the online variant of annotated_args_refresh_add_custom (host port of GE's
 * sample): z = x + y, float32, element count a multiple of 1024. Both ops compute the same add;
 * they differ only in how their launch is refreshed when the graph runs on new buffers.
 */
#ifndef OPENATC_EXAMPLES_ANNOTATED_ONLINE_ADD_CUSTOM_IR_H_
#define OPENATC_EXAMPLES_ANNOTATED_ONLINE_ADD_CUSTOM_IR_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AnnotatedAddCustom)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AnnotatedAddCustom);

REG_OP(NoRefreshAddCustom)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(NoRefreshAddCustom);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_ANNOTATED_ONLINE_ADD_CUSTOM_IR_H_
