// Prototypes of the three TileLang-flow ops (examples/tilelang_stand_in): z = x + y, float, the
// output shaped as x. AddCustom is the eager flow, AddCustomOnline the online CompileGraph flow,
// AddCustomOffline the offline flow whose kernel travels in the OM.
#ifndef OPENATC_EXAMPLES_TILELANG_STAND_IN_ADD_CUSTOM_H_
#define OPENATC_EXAMPLES_TILELANG_STAND_IN_ADD_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AddCustom)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AddCustom);
REG_OP(AddCustomOnline)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AddCustomOnline);
REG_OP(AddCustomOffline)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AddCustomOffline);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_TILELANG_STAND_IN_ADD_CUSTOM_H_
