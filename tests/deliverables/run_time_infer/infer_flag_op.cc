// Test deliverable: InferFlagOp, y = x + f (float32, computed on the host in Execute), where f is 1
// when InferShape ran since the previous Execute, else 0. A run of a model with run-time shapes
// shows whether the runtime inferred the node's shapes before Execute (tests/runtime/run_time_infer_test.cc).
// Built twice: as is, and with SIZES_OUTPUTS=1, which declares OpenAtcDeliverableExecuteSizesOutputs.
#include <atomic>
#include <cstdint>

#include "graph/custom_op.h"
#include "graph/custom_op_pull_registry.h"

namespace {
std::atomic<bool> g_inferred{false};
}  // namespace

class InferFlagOp : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    g_inferred = true;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr || x->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    gert::Tensor *y = ctx->MallocOutputTensor(0, x->GetShape(), x->GetFormat(), ge::DT_FLOAT);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const float f = g_inferred.exchange(false) ? 1.0f : 0.0f;
    const float *a = x->GetData<float>();
    float *b = y->GetData<float>();
    for (int64_t i = 0; i < x->GetShapeSize(); ++i) b[i] = a[i] + f;
    return ge::GRAPH_SUCCESS;
  }
};

REG_AUTO_MAPPING_OP(InferFlagOp);

#if SIZES_OUTPUTS
extern "C" __attribute__((visibility("default"))) int32_t OpenAtcDeliverableExecuteSizesOutputs() { return 1; }
#endif
extern "C" __attribute__((visibility("default"))) int32_t OpenAtcDeliverableLaunchesNoKernels() { return 1; }
