// Bernoulli (ONNX Bernoulli-15): y[i] = 1 with probability input[i] (float16, float or double in
// [0, 1]), else 0. Output dtype: attribute dtype (an ONNX type number: float, integer or bool
// types) or else input's. `seed`: ops/common/random.h (the same values on every run). A
// probability outside [0, 1] (or NaN) fails.
#include "common/index_util.h"
#include "common/math_util.h"
#include "common/random.h"
#include "common/signal.h"

namespace ge {
REG_OP(Bernoulli)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(dtype, Int, 0)     // 0: input's dtype
    .ATTR(seed, Float, NAN)  // NaN: absent, a fresh seed per run
    .OP_END_FACTORY_REG(Bernoulli);
}  // namespace ge

namespace openatc_ops {
namespace {
bool NumberOrBool(ge::DataType d) { return IsNumber(d) || d == ge::DT_BOOL; }
}  // namespace

class Bernoulli : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType in = ctx->GetInputDataType(0);
    if (!IsFloat(in)) return Fail(ctx, "input must be float16, float or double, got " + DtypeName(in));
    const ge::DataType d = RandomOutputType(ctx, 0, in, NumberOrBool);
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
    const ge::DataType d = RandomOutputType(ctx, 0, x->GetDataType(), NumberOrBool);
    if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    std::vector<double> p;
    if (!IsFloat(x->GetDataType()) || !ReadAsDouble(x, &p)) return Fail(ctx, "input must be a float tensor");
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), d);
    if (y == nullptr) return ge::GRAPH_FAILED;
    OpRandom rng(ctx, 1);
    for (size_t i = 0; i < p.size(); ++i) {
      if (!(p[i] >= 0.0 && p[i] <= 1.0))
        return Fail(ctx, "input[" + std::to_string(i) + "] = " + std::to_string(p[i]) + " is not a probability in [0, 1]");
      p[i] = rng.Uniform() < p[i] ? 1.0 : 0.0;
    }
    if (d == ge::DT_BOOL) {
      for (size_t i = 0; i < p.size(); ++i) y->GetData<uint8_t>()[i] = p[i] != 0 ? 1 : 0;
    } else {
      StoreAs(p, d, y->GetAddr());
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Bernoulli);

}  // namespace openatc_ops
