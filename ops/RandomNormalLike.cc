// RandomNormalLike (ONNX RandomNormalLike-1): a tensor of input's shape (any dtype) with values
// drawn from the normal distribution of mean `mean` and standard deviation `scale`; dtype (an
// ONNX type number) or else input's, which must be float16, float or double. `seed`:
// ops/common/random.h (the same values on every run).
#include "common/math_util.h"
#include "common/random_like.h"

namespace ge {
REG_OP(RandomNormalLike)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(dtype, Int, 0)  // 0: input's dtype
    .ATTR(mean, Float, 0.0f)
    .ATTR(scale, Float, 1.0f)
    .ATTR(seed, Float, NAN)  // NaN: absent, a fresh seed per run
    .OP_END_FACTORY_REG(RandomNormalLike);
}  // namespace ge

namespace openatc_ops {

class RandomNormalLike : public RandomLikeOp<RandomNormalLike> {
 public:
  static bool AcceptsInput(ge::DataType) { return true; }
  static bool AcceptsOutput(ge::DataType d) { return IsFloat(d); }
  static bool Draw(gert::EagerOpExecutionContext *ctx, const gert::Tensor &, std::vector<double> *v) {
    const double mean = AttrFloat(ctx, 1, 0.0f), scale = AttrFloat(ctx, 2, 1.0f);
    OpRandom rng(ctx, 3);
    for (double &e : *v) e = mean + scale * rng.Normal();
    return true;
  }
};
REG_AUTO_MAPPING_OP(RandomNormalLike);

}  // namespace openatc_ops
