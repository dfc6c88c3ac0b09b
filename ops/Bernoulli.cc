// Bernoulli (ONNX Bernoulli-15): y[i] = 1 with probability input[i] (float16, float or double in
// [0, 1]), else 0. Output dtype: attribute dtype (an ONNX type number: float, integer or bool
// types) or else input's. `seed`: ops/common/random.h (the same values on every run). A
// probability outside [0, 1] (or NaN) fails.
#include "common/index_util.h"
#include "common/math_util.h"
#include "common/random_like.h"

namespace ge {
REG_OP(Bernoulli)
    .INPUT(input, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(dtype, Int, 0)     // 0: input's dtype
    .ATTR(seed, Float, NAN)  // NaN: absent, a fresh seed per run
    .OP_END_FACTORY_REG(Bernoulli);
}  // namespace ge

namespace openatc_ops {

class Bernoulli : public RandomLikeOp<Bernoulli> {
 public:
  static bool AcceptsInput(ge::DataType d) { return IsFloat(d); }
  static bool AcceptsOutput(ge::DataType d) { return IsNumber(d) || d == ge::DT_BOOL; }
  static bool Draw(gert::EagerOpExecutionContext *ctx, const gert::Tensor &x, std::vector<double> *v) {
    if (!ReadAsDouble(&x, v)) return Fail(ctx, "input must be a float tensor"), false;
    OpRandom rng(ctx, 1);
    for (size_t i = 0; i < v->size(); ++i) {
      double &p = (*v)[i];
      if (!(p >= 0.0 && p <= 1.0))
        return Fail(ctx, "input[" + std::to_string(i) + "] = " + std::to_string(p) + " is not a probability in [0, 1]"),
               false;
      p = rng.Uniform() < p ? 1.0 : 0.0;
    }
    return true;
  }
};
REG_AUTO_MAPPING_OP(Bernoulli);

}  // namespace openatc_ops
