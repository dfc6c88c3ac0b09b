// Test op implementing every capability interface of graph/custom_op.h, with a REG_OP prototype
// using required, optional and dynamic inputs and defaulted and required attributes.
#ifndef OPENATC_TESTS_SDK_ALL_CAPABILITIES_OP_H_
#define OPENATC_TESTS_SDK_ALL_CAPABILITIES_OP_H_

#include <string>
#include <vector>

#include "graph/custom_op.h"
#include "graph/operator_reg.h"

namespace ge {
REG_OP(AllCapsOp)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT}))
    .DYNAMIC_INPUT(xs, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(scale, Float, 2.0)
    .REQUIRED_ATTR(axes, ListInt)
    .ATTR(mode, String, "fast")
    .OP_END_FACTORY_REG(AllCapsOp);
}  // namespace ge

/// Records what each callback saw, so tests can assert on it.
class AllCapsOp : public ge::EagerExecuteOp, public ge::CompilableOp, public ge::PortableOp,
                  public ge::ShapeInferOp, public ge::ArgsUpdater, public ge::AnnotatedArgsOp {
 public:
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0);
    if (x == nullptr) return ge::GRAPH_FAILED;
    saw_bias = ctx->GetOptionalInputShape(1) != nullptr;
    const gert::Shape *xs1 = ctx->GetDynamicInputShape(2, 1);
    xs1_dims = xs1 ? xs1->GetDimNum() : 99;
    gert::Shape *y = ctx->GetOutputShape(0);
    *y = *x;
    y->AppendDim(static_cast<int64_t>(ctx->GetComputeNodeInputNum()));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus Compile(gert::OpCompileContext *ctx) override {
    ge::AscendString v;
    if (ctx->GetOption("ge.socVersion", v) == ge::GRAPH_SUCCESS) soc = v.GetString();
    const gert::RuntimeAttrs *attrs = ctx->GetAttrs();
    scale = *attrs->GetFloat(0);
    const auto *axes = attrs->GetListInt(1);
    axes_seen.assign(axes->GetData(), axes->GetData() + axes->GetSize());
    mode = attrs->GetStr(2);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Serialize(std::vector<uint8_t> &buffer) override {
    buffer.assign(mode.begin(), mode.end());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Deserialize(const std::vector<uint8_t> &buffer) override {
    mode.assign(buffer.begin(), buffer.end());
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *) override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus UpdateHostArgs(gert::UpdateArgsContext *ctx) override {
    return ctx->GetKernelArgs(gert::Placement::kPlacementHost, 0) ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
  }
  ge::graphStatus DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) override {
    return ctx.GetStreamId() == UINT32_MAX ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
  }

  bool saw_bias = true;
  size_t xs1_dims = 0;
  std::string soc, mode;
  float scale = 0;
  std::vector<int64_t> axes_seen;
};

#endif  // OPENATC_TESTS_SDK_ALL_CAPABILITIES_OP_H_
