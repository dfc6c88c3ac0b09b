/**
 * @file where_like_custom.h
 * Graph prototype of WhereLikeCustom (host port of GE's data_dependent_shape_custom sample):
 * y = the indices of the non-zero elements of x, shape [count, rank(x)], int64. The output's first
 * dimension is known only after the kernel ran (a data-dependent shape).
 */
#ifndef OPENATC_EXAMPLES_WHERE_LIKE_CUSTOM_H_
#define OPENATC_EXAMPLES_WHERE_LIKE_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(WhereLikeCustom)
    .INPUT(x, TensorType({DT_BOOL}))
    .OUTPUT(y, TensorType({DT_INT64}))
    .OP_END_FACTORY_REG(WhereLikeCustom);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_WHERE_LIKE_CUSTOM_H_
