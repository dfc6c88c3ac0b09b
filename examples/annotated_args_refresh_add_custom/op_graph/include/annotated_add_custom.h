/**
 * @file annotated_add_custom.h
 * Graph prototype of AnnotatedAddCustom (host port of GE's annotated_args_refresh_add_custom
 * offline sample): y = x1 + x2, float32, element count a multiple of 1024.
 */
#ifndef OPENATC_EXAMPLES_ANNOTATED_ADD_CUSTOM_H_
#define OPENATC_EXAMPLES_ANNOTATED_ADD_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AnnotatedAddCustom)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AnnotatedAddCustom);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_ANNOTATED_ADD_CUSTOM_H_
