// A deliverable holding only the REG_OP prototype (and IMPL_OP inference) of ProtoAdd, as GE's
// python_compilable_add_custom ships its proto: the Python plugin of tests/python_ops/test_compile.py
// implements the op without a @register_op, so its callbacks bind to this C++ IR.
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/operator_reg.h"
#include "register/op_impl_registry.h"

namespace ge {
REG_OP(ProtoAdd)
    .INPUT(x1, TensorType({DT_FLOAT}))
    .INPUT(x2, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(ProtoAdd);
}  // namespace ge

namespace {
ge::graphStatus SameShape(gert::InferShapeContext *ctx) {
  const gert::Shape *in = ctx->GetInputShape(0);
  gert::Shape *out = ctx->GetOutputShape(0);
  if (in == nullptr || out == nullptr) return ge::GRAPH_FAILED;
  *out = *in;
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus SameType(gert::InferDataTypeContext *ctx) { return ctx->SetOutputDataType(0, ctx->GetInputDataType(0)); }
IMPL_OP(ProtoAdd).InferShape(SameShape).InferDataType(SameType);
}  // namespace
