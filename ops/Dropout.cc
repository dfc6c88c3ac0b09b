// Dropout (ONNX Dropout-13). Inference (training_mode absent or false) or ratio 0: output =
// data and the optional `mask` output is all true. Training mode with ratio r in (0, 1): each
// element is kept when a uniform draw u in [0, 1) satisfies u >= r, and scaled by 1 / (1 - r);
// dropped elements are 0 and false in `mask`.
// The draws are those of ONNX's reference implementation (onnx/backend/test/case/node/dropout.py:
// numpy.random.seed(seed); numpy.random.uniform(0, 1, shape)), i.e. NumPy's legacy MT19937
// stream: std::mt19937 seeded with `seed` (mod 2^32; NumPy accepts seeds in [0, 2^32) only), one
// draw per element in row-major order, u = ((a >> 5) * 2^26 + (b >> 6)) / 2^53 from two 32-bit
// outputs a, b. Every run reseeds, so a given seed gives the same mask on every run, and the
// results equal ONNX's expected outputs. Without the `seed` attribute, each run draws a fresh
// seed from std::random_device (the spec: "if not specified we will auto generate one").
// ratio outside [0, 1) is refused (at compile time when ratio is a constant).
#include <cstring>
#include <limits>
#include <random>

#include "common/math_util.h"
#include "common/movement.h"

namespace {
// The `seed` default standing for "attribute absent" (REG_OP defaults fill absent attributes).
constexpr int64_t kNoSeed = std::numeric_limits<int64_t>::min();
}  // namespace

namespace ge {
REG_OP(Dropout)
    .INPUT(data, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OPTIONAL_INPUT(ratio, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OPTIONAL_INPUT(training_mode, TensorType({DT_BOOL}))
    .OUTPUT(output, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16}))
    .OUTPUT(mask, TensorType({DT_BOOL}))
    .ATTR(seed, Int, kNoSeed)
    .OP_END_FACTORY_REG(Dropout);
}  // namespace ge

namespace openatc_ops {
namespace {

// The ratio (default 0.5) when `t` is absent or holds one float value; false otherwise.
bool ReadRatio(const gert::Tensor *t, double *ratio) {
  *ratio = 0.5;
  if (t == nullptr) return true;
  if (t->GetAddr() == nullptr || t->GetShapeSize() != 1) return false;
  switch (t->GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(*ratio = static_cast<double>(*t->GetData<T>()))
    case ge::DT_BF16: {
      uint32_t u = static_cast<uint32_t>(*static_cast<const uint16_t *>(t->GetAddr())) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      *ratio = f;
      break;
    }
    default:
      return false;
  }
  return true;
}

bool RatioOk(double r) { return r >= 0.0 && r < 1.0; }

std::string RatioError(double r) {
  return "ratio " + std::to_string(r) + " is outside [0, 1) (ONNX Dropout: the probability of dropping an element)";
}

// NumPy's legacy random_sample from the MT19937 stream: 53 random bits in [0, 1).
double NextUniform(std::mt19937 &gen) {
  const uint32_t a = static_cast<uint32_t>(gen()) >> 5, b = static_cast<uint32_t>(gen()) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

template <typename T>
void Drop(const T *x, T *y, uint8_t *mask, int64_t n, double ratio, std::mt19937 &gen) {
  const double scale = 1.0 / (1.0 - ratio);
  for (int64_t i = 0; i < n; ++i) {
    const bool keep = NextUniform(gen) >= ratio;
    y[i] = keep ? static_cast<T>(static_cast<double>(x[i]) * scale) : T(0);
    if (mask != nullptr) mask[i] = keep ? 1 : 0;
  }
}

}  // namespace

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
    const gert::Tensor *r = ctx->GetOptionalInputTensor(1);
    double ratio = 0.5;
    if (r != nullptr && r->GetAddr() != nullptr && ReadRatio(r, &ratio) && !RatioOk(ratio))
      return Fail(ctx, RatioError(ratio));
    for (size_t i = 0; i < ctx->GetComputeNodeOutputNum() && i < 2; ++i) *ctx->GetOutputShape(i) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input data expected");
    const gert::Tensor *training = ctx->GetOptionalInputTensor(2);
    bool train = false;
    if (training != nullptr) {
      if (training->GetAddr() == nullptr || training->GetShapeSize() != 1)
        return Fail(ctx, "training_mode must be a bool scalar");
      train = *static_cast<const uint8_t *>(training->GetAddr()) != 0;
    }
    double ratio = 0.5;
    if (!ReadRatio(ctx->GetOptionalInputTensor(1), &ratio)) return Fail(ctx, "ratio must be a float scalar");
    if (!RatioOk(ratio)) return Fail(ctx, RatioError(ratio));
    const bool want_mask = ctx->GetComputeNodeOutputNum() > 1;
    if (!train || ratio == 0.0) {
      if (CopyToOutput(ctx, 0, *x, TensorDims(*x)) != ge::GRAPH_SUCCESS) return ge::GRAPH_FAILED;
      if (want_mask) {
        gert::Tensor *mask = AllocChecked(ctx, 1, TensorDims(*x), ge::DT_BOOL);
        if (mask == nullptr) return ge::GRAPH_FAILED;
        std::memset(mask->GetAddr(), 1, static_cast<size_t>(x->GetShapeSize()));
      }
      return ge::GRAPH_SUCCESS;
    }
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    uint8_t *m = nullptr;
    if (want_mask) {
      gert::Tensor *mask = AllocChecked(ctx, 1, TensorDims(*x), ge::DT_BOOL);
      if (mask == nullptr) return ge::GRAPH_FAILED;
      m = static_cast<uint8_t *>(mask->GetAddr());
    }
    const int64_t seed = AttrInt(ctx, 0, kNoSeed);
    std::mt19937 gen(seed == kNoSeed ? std::random_device{}() : static_cast<uint32_t>(seed));
    const int64_t n = x->GetShapeSize();
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(Drop<T>(x->GetData<T>(), y->GetData<T>(), m, n, ratio, gen))
      default:
        return Fail(ctx, "training-mode dropout supports float, float16 and double data, not " +
                             DtypeName(x->GetDataType()));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Dropout);

}  // namespace openatc_ops
