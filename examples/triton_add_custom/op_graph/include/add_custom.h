/**
 * @file add_custom.h
 * Graph prototype of AddCustom for the host port of GE's triton_add_custom sample: z = x + y,
 * float32, x and y of the same shape (the Triton kernel does not broadcast).
 *
 * GE's sample has no REG_OP: its graph comes from TensorFlow, and GE takes the prototype from the
 * TF op `add_custom` (inputs x, y; output z). A JSON graph names its op type directly, so the port
 * declares the same interface here.
 */
#ifndef OPENATC_EXAMPLES_TRITON_ADD_CUSTOM_H_
#define OPENATC_EXAMPLES_TRITON_ADD_CUSTOM_H_

#include "graph/operator_reg.h"

namespace ge {
REG_OP(AddCustom)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AddCustom);
}  // namespace ge

#endif  // OPENATC_EXAMPLES_TRITON_ADD_CUSTOM_H_
