/**
 * @file add_refresh_custom.h
 * Graph prototypes of the host port of GE's args_refresh_add_custom sample: AddRefreshOp and
 * AddNoRefreshOp, both z = x + y on float32 tensors of the same shape.
 */
#ifndef OPENATC_EXAMPLES_ADD_REFRESH_CUSTOM_H_
#define OPENATC_EXAMPLES_ADD_REFRESH_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AddRefreshOp).INPUT(x, TensorType({DT_FLOAT})).INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT})).OP_END_FACTORY_REG(AddRefreshOp);
REG_OP(AddNoRefreshOp).INPUT(x, TensorType({DT_FLOAT})).INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT})).OP_END_FACTORY_REG(AddNoRefreshOp);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_ADD_REFRESH_CUSTOM_H_
