// AxpbCustom (z = 2 * x + y): an EagerExecuteOp whose Execute launches an Ascend C kernel
// (axpb_kernel.asc, <<<>>> on the op's stream), registered with REG_AUTO_MAPPING_OP. Written as GE
// sample deliverables are: it includes only graph/custom_op.h, its prototype and the kernel's
// launcher, and uses std::cerr without including <iostream> itself.
#include "axpb_custom.h"
#include "axpb_kernel.h"
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
    // Two blocks, so each takes a slice that is not 32-byte aligned (3 floats of 6).
    const int rc = launch_axpb_kernel(reinterpret_cast<uint8_t *>(const_cast<float *>(x->GetData<float>())),
                                      reinterpret_cast<uint8_t *>(const_cast<float *>(y->GetData<float>())),
                                      reinterpret_cast<uint8_t *>(z->GetData<float>()),
                                      static_cast<uint32_t>(x->GetShapeSize()), 2, ctx->GetStream());
    if (rc != 0) {
      std::cerr << "[ERROR] AxpbCustom: the kernel launch failed with " << rc << std::endl;
      return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }
};

REG_AUTO_MAPPING_OP(AxpbCustom);
