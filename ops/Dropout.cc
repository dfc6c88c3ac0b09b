// Dropout (ONNX Dropout-13) in inference mode: output = data, and the optional second output
// `mask` is all true (bool). `ratio` is accepted and ignored; training_mode=true with a non-zero
// ratio is refused (random dropout is training-only, which OpenATC does not run).
#include <cstring>

#include "common/movement.h"

namespace ge {
REG_OP(Dropout)
    .INPUT(data, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OPTIONAL_INPUT(ratio, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OPTIONAL_INPUT(training_mode, TensorType({DT_BOOL}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OUTPUT(mask, TensorType({DT_BOOL}))
    .ATTR(seed, Int, 0)
    .OP_END_FACTORY_REG(Dropout);
}  // namespace ge

namespace openatc_ops {

class Dropout : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsOnnxDtype(d)) return Fail(ctx, "unsupported input dtype " + DtypeName(d));
    if (ctx->SetOutputDataType(0, d) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (ctx->GetComputeNodeOutputNum() > 1) return ctx->SetOutputDataType(1, ge::DT_BOOL);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum() && i < 2; ++i) *ctx->GetOutputShape(i) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    const gert::Tensor *training = ctx->GetOptionalInputTensor(2);
    if (training != nullptr && training->GetAddr() != nullptr && training->GetShapeSize() == 1 &&
        *training->GetData<bool>()) {
      const gert::Tensor *ratio = ctx->GetOptionalInputTensor(1);
      bool zero_ratio = false;
      if (ratio != nullptr && ratio->GetShapeSize() == 1) {
        if (ratio->GetDataType() == ge::DT_FLOAT) zero_ratio = *ratio->GetData<float>() == 0.0f;
        if (ratio->GetDataType() == ge::DT_DOUBLE) zero_ratio = *ratio->GetData<double>() == 0.0;
      }
      if (!zero_ratio)
        return Fail(ctx, "training_mode=true (random dropout) is not supported; export the model in inference mode");
    }
    if (CopyToOutput(ctx, 0, *x, TensorDims(*x)) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
    if (ctx->GetComputeNodeOutputNum() > 1) {
      gert::Tensor *mask = AllocChecked(ctx, 1, TensorDims(*x), ge::DT_BOOL);
      if (mask == nullptr) return ge::GRAPH_FAILED;
      const int64_t n = x->GetShapeSize();
      bool *m = mask->GetData<bool>();
      for (int64_t i = 0; i < n; ++i) m[i] = true;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Dropout);

}  // namespace openatc_ops
