// NegativeLogLikelihoodLoss (ONNX NegativeLogLikelihoodLoss-13): loss = -input[n][target[n][d]][d]
// * weight[target], reduced by `reduction` (none/sum/mean; mean divides by the summed weights of
// the targets that are not ignore_index). input (N, C, d1..dk) float/float16/double holds
// log-probabilities, target (N, d1..dk) int32/int64, optional weight (C). See common/class_loss.h.
#include "common/class_loss.h"
#include "common/math_util.h"

namespace ge {
REG_OP(NegativeLogLikelihoodLoss)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(target, TensorType({DT_INT32, DT_INT64}))
    .OPTIONAL_INPUT(weight, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(loss, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(ignore_index, Int, openatc_ops::kNoIgnoreIndex)
    .ATTR(reduction, String, "mean")
    .OP_END_FACTORY_REG(NegativeLogLikelihoodLoss);
}  // namespace ge

namespace openatc_ops {

class NegativeLogLikelihoodLoss : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType w = ctx->GetOptionalInputDataType(2);
    const std::string err =
        CheckLossDtypes(ctx->GetInputDataType(0), ctx->GetInputDataType(1), w == ge::DT_UNDEFINED ? nullptr : &w);
    if (!err.empty()) return Fail(ctx, err);
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *t = ctx->GetInputShape(1);
    if (x == nullptr || t == nullptr) return Fail(ctx, "inputs input and target expected");
    LossReduction r;
    const std::string red = AttrStr(ctx, 1, "mean");
    if (!ParseLossReduction(red, &r)) return Fail(ctx, "reduction '" + red + "' is not one of none, sum, mean");
    const gert::Shape *w = ctx->GetOptionalInputShape(2);
    const Dims wd = w ? ToDims(*w) : Dims{};
    LossLayout layout;
    const std::string err = CheckLossShapes(ToDims(*x), ToDims(*t), w ? &wd : nullptr, &layout);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape(LossOutputDims(layout, r));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *t = ctx->GetInputTensor(1);
    if (x == nullptr || t == nullptr) return Fail(ctx, "inputs input and target expected");
    const gert::Tensor *w = ctx->GetOptionalInputTensor(2);
    LossReduction r;
    const std::string red = AttrStr(ctx, 1, "mean");
    if (!ParseLossReduction(red, &r)) return Fail(ctx, "reduction '" + red + "' is not one of none, sum, mean");
    const Dims wd = w ? ToDims(w->GetStorageShape()) : Dims{};
    LossLayout layout;
    std::string err =
        CheckLossShapes(ToDims(x->GetStorageShape()), ToDims(t->GetStorageShape()), w ? &wd : nullptr, &layout);
    if (!err.empty()) return Fail(ctx, err);
    std::vector<int64_t> target;
    if (!ReadInts(t, &target)) return Fail(ctx, "target must be an int32 or int64 tensor");
    std::vector<double> weight;
    if (w != nullptr && !ReadFloatsAsDouble(w, &weight)) return Fail(ctx, "weight must be a float tensor");
    const int64_t ignore = AttrInt(ctx, 0, kNoIgnoreIndex);
    std::vector<double> loss;
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(err = NllReduce(x->GetData<T>(), target, w ? &weight : nullptr, layout, ignore, r, &loss))
      default:
        return Fail(ctx, "input dtype must be float, float16 or double");
    }
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, LossOutputDims(layout, r), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(T *p = y->GetData<T>();
                              for (size_t i = 0; i < loss.size(); ++i) p[i] = static_cast<T>(loss[i]))
      default:
        break;
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(NegativeLogLikelihoodLoss);

}  // namespace openatc_ops
