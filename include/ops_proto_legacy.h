/**
 * @file ops_proto_legacy.h
 * REG_OP prototypes of the graph-input operators the GE samples' graph builders use
 * (`ge::op::Data`, `ge::op::Const`; in CANN they come from the ops package's built-in op-proto
 * directory, see docs/custom-op-lifecycle.md §1 and §4).
 *   Data:  input x, output y (any dtype), attr index (Int, default 0) = model input position.
 *   Const: output y (any dtype), attr value (Tensor, default empty) = the constant data.
 */
#ifndef OPENATC_OPS_PROTO_LEGACY_H_
#define OPENATC_OPS_PROTO_LEGACY_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(Data)
    .INPUT(x, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .ATTR(index, Int, 0)
    .OP_END_FACTORY_REG(Data);

REG_OP(Const)
    .OUTPUT(y, TensorType::ALL())
    .ATTR(value, Tensor, Tensor())
    .OP_END_FACTORY_REG(Const);

}  // namespace ge

#endif  // OPENATC_OPS_PROTO_LEGACY_H_
