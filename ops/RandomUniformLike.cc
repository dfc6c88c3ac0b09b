// RandomUniformLike (ONNX RandomUniformLike-1): a tensor of input's shape with values drawn
// uniformly from [low, high); dtype (an ONNX type number) or else input's, which must be
// float16, float or double. `seed`: ops/common/random.h (the same values on every run).
#include "common/math_util.h"
#include "common/movement.h"
#include "common/random.h"
#include "common/signal.h"

namespace ge {
REG_OP(RandomUniformLike)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(dtype, Int, 0)  // 0: input's dtype
    .ATTR(high, Float, 1.0f)
    .ATTR(low, Float, 0.0f)
    .ATTR(seed, Float, NAN)  // NaN: absent, a fresh seed per run
    .OP_END_FACTORY_REG(RandomUniformLike);
}  // namespace ge

namespace openatc_ops {

class RandomUniformLike : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = RandomOutputType(ctx, 0, ctx->GetInputDataType(0), IsFloat);
    return d == ge::DT_UNDEFINED ? ge::GRAPH_FAILED : ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    const ge::DataType d = RandomOutputType(ctx, 0, x->GetDataType(), IsFloat);
    if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    const double high = AttrFloat(ctx, 1, 1.0f), low = AttrFloat(ctx, 2, 0.0f);
    if (!(low <= high)) return Fail(ctx, "low must not exceed high");
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), d);
    if (y == nullptr) return ge::GRAPH_FAILED;
    OpRandom rng(ctx, 3);
    std::vector<double> v(static_cast<size_t>(x->GetShapeSize()));
    for (double &e : v) e = low + (high - low) * rng.Uniform();
    StoreAs(v, d, y->GetAddr());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(RandomUniformLike);

}  // namespace openatc_ops
