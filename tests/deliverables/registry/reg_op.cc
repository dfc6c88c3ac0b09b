// Test deliverable for registry and OPP-order tests. Built several times with VARIANT = 1, 2, 3:
// each registers "DupOp" with a different capability mix (variant 1: EagerExecuteOp only,
// 2: + ShapeInferOp, 3: + ShapeInferOp + ArgsUpdater) and one type of its own, "OnlyVariant<N>".
#include "graph/custom_op.h"

#ifndef VARIANT
#error "VARIANT must be defined"
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define OWN_OP CAT(OnlyVariant, VARIANT)

namespace {
ge::graphStatus Ok() { return ge::GRAPH_SUCCESS; }
}  // namespace

class DupOp : public ge::EagerExecuteOp
#if VARIANT >= 2
    , public ge::ShapeInferOp
#endif
#if VARIANT >= 3
    , public ge::ArgsUpdater
#endif
{
 public:
  ge::graphStatus Execute(gert::EagerOpExecutionContext *) override { return Ok(); }
#if VARIANT >= 2
  ge::graphStatus InferShape(gert::InferShapeContext *) override { return Ok(); }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *) override { return Ok(); }
#endif
#if VARIANT >= 3
  ge::graphStatus UpdateHostArgs(gert::UpdateArgsContext *) override { return Ok(); }
#endif
};

class OWN_OP : public ge::EagerExecuteOp {
 public:
  ge::graphStatus Execute(gert::EagerOpExecutionContext *) override { return Ok(); }
};

REG_AUTO_MAPPING_OP(DupOp);
REG_AUTO_MAPPING_OP(OWN_OP);
