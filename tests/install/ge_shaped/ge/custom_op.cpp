// AxpbCustom (z = 2 * x + y): an EagerExecuteOp computing on the host, registered with
// REG_AUTO_MAPPING_OP. Written as GE sample deliverables are: it includes only graph/custom_op.h
// and its prototype, and uses std::cerr without including <iostream> itself.
#include "axpb_custom.h"
#include "graph/custom_op.h"

class AxpbCustom : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    const gert::Shape *y = ctx->GetInputShape(1);
    if (x == nullptr || y == nullptr || !(*x == *y)) {
      std::cerr << "[ERROR] AxpbCustom: x and y must have one shape" << std::endl;
      return ge::GRAPH_FAILED;
    }
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    const gert::Tensor *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr || x->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    gert::Tensor *z = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), x->GetDataType());
    if (z == nullptr) return ge::GRAPH_FAILED;
    for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
      z->GetData<float>()[i] = 2.0f * x->GetData<float>()[i] + y->GetData<float>()[i];
    }
    return ge::GRAPH_SUCCESS;
  }
};

REG_AUTO_MAPPING_OP(AxpbCustom);
