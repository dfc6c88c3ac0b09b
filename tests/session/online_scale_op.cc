// Test deliverable for tests/session: OnlineScaleOp, y = scale * x (float32), a CompilableOp
// WITHOUT PortableOp (atc refuses it; a ge::Session runs it). Compile sets scale = 4 when the
// option ge.jit_compile is "1", else 2; the state lives only in the compiling object, so a correct
// result shows that the object that compiled is the one that executes.
#include <cstdint>
#include <cstring>

#include "graph/custom_op.h"
#include "graph/operator_reg.h"

namespace ge {
REG_OP(OnlineScaleOp)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(OnlineScaleOp);
}  // namespace ge

class OnlineScaleOp : public ge::CompilableOp, public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    ge::AscendString jit;
    const bool set = ctx->GetOption("ge.jit_compile", jit) == ge::GRAPH_SUCCESS;
    scale_ = set && std::strcmp(jit.GetString(), "1") == 0 ? 4.0f : 2.0f;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    if (scale_ == 0.0f) return ge::GRAPH_FAILED;  // never compiled: not the compiling object
    const gert::Tensor *x = ctx->GetInputTensor(0);
    gert::Tensor *y = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    for (int64_t i = 0; i < x->GetShapeSize(); ++i) y->GetData<float>()[i] = scale_ * x->GetData<float>()[i];
    return ge::GRAPH_SUCCESS;
  }

 private:
  float scale_ = 0.0f;
};

REG_AUTO_MAPPING_OP(OnlineScaleOp);
