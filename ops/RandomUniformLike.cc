// RandomUniformLike (ONNX RandomUniformLike-1): a tensor of input's shape (any dtype) with values
// drawn uniformly from [low, high); dtype (an ONNX type number) or else input's, which must be
// float16, float or double. `seed`: ops/common/random.h (the same values on every run).
#include "common/math_util.h"
#include "common/random_like.h"

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

class RandomUniformLike : public RandomLikeOp<RandomUniformLike> {
 public:
  static bool AcceptsInput(ge::DataType) { return true; }
  static bool AcceptsOutput(ge::DataType d) { return IsFloat(d); }
  static bool Draw(gert::EagerOpExecutionContext *ctx, const gert::Tensor &, std::vector<double> *v) {
    const double high = AttrFloat(ctx, 1, 1.0f), low = AttrFloat(ctx, 2, 0.0f);
    if (!(low <= high)) return Fail(ctx, "low must not exceed high"), false;
    OpRandom rng(ctx, 3);
    for (double &e : *v) e = low + (high - low) * rng.Uniform();
    return true;
  }
};
REG_AUTO_MAPPING_OP(RandomUniformLike);

}  // namespace openatc_ops
