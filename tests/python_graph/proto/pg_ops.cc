// REG_OP prototypes for the ES generation tests (tests/python_graph/test_es.py): one plain op,
// one with every input kind and attribute type gen_esb wraps, one it must refuse (dynamic output).
#include "graph/operator_reg.h"

namespace ge {

REG_OP(PgAdd)
    .INPUT(x, TensorType({DT_FLOAT}))
    .INPUT(y, TensorType({DT_FLOAT}))
    .OUTPUT(z, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(PgAdd);

REG_OP(PgMix)
    .INPUT(x, TensorType::ALL())
    .OPTIONAL_INPUT(bias, TensorType::ALL())
    .DYNAMIC_INPUT(xs, TensorType::ALL())
    .OUTPUT(y, TensorType::ALL())
    .OUTPUT(aux, TensorType::ALL())
    .REQUIRED_ATTR(mode, String)
    .ATTR(alpha, Float, 1.5)
    .ATTR(axes, ListInt, {0, 2})
    .ATTR(flag, Bool, true)
    .ATTR(count, Int, 7)
    .ATTR(dst, Type, DT_INT32)
    .OP_END_FACTORY_REG(PgMix);

REG_OP(PgSplit)
    .INPUT(x, TensorType::ALL())
    .DYNAMIC_OUTPUT(y, TensorType::ALL())
    .OP_END_FACTORY_REG(PgSplit);

}  // namespace ge
