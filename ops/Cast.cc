// Cast (ONNX Cast-13) between every pair of float32/float16/bfloat16/float64, int8..int64,
// uint8..uint64 and bool (string is not supported). Conversions are C++'s: one rounding to
// nearest even into float types (integers reach float16 through float64, exact below 2^53),
// truncation toward zero from float to integer types, two's complement wrap between integers,
// x != 0 into bool, 0/1 out of bool. ONNX leaves float -> integer overflow undefined; here NaN
// gives 0 and values beyond the integer range saturate to its min/max. bfloat16 is read exactly
// and written from float32 by truncation to the upper 16 bits (NaN stays a quiet NaN), which is
// what ONNX 1.12's own Cast test data (test_cast_FLOAT_to_BFLOAT16) expects.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "common/movement.h"

namespace ge {
REG_OP(Cast)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .REQUIRED_ATTR(to, Int)
    .OP_END_FACTORY_REG(Cast);
}  // namespace ge

namespace openatc_ops {
namespace {
struct Bf16 {  // a bfloat16 slot (its value is handled as float)
  uint16_t bits;
};

float Bf16ToFloat(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  return static_cast<uint16_t>(u >> 16);
}

template <typename T>
constexpr bool kIsFloat = std::is_floating_point<T>::value || std::is_same<T, half>::value;

// One element S -> D (neither is Bf16; bfloat16 goes through float).
template <typename D, typename S>
D Convert(S s) {
  if constexpr (std::is_same<D, bool>::value) {
    return s != S(0);
  } else if constexpr (std::is_same<S, bool>::value) {
    return static_cast<D>(s ? 1 : 0);
  } else if constexpr (kIsFloat<S> && !kIsFloat<D>) {
    const double v = std::trunc(static_cast<double>(s));
    if (std::isnan(v)) return D(0);
    constexpr double lo = static_cast<double>(std::numeric_limits<D>::lowest());
    // max + 1 is a power of two, exact in double (the cast of max may round up to it).
    constexpr double hi_excl = 2.0 * static_cast<double>(std::numeric_limits<D>::max() / 2 + 1);
    if (v <= lo) return std::numeric_limits<D>::lowest();
    if (v >= hi_excl) return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  } else if constexpr (std::is_same<D, half>::value && !kIsFloat<S>) {
    return static_cast<half>(static_cast<double>(s));
  } else {
    return static_cast<D>(s);
  }
}

template <typename D, typename S>
void ConvertAll(const S *in, D *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = Convert<D>(in[i]);
}

// Destination D from any source dtype; false for an unsupported source.
template <typename D>
bool CastTo(const gert::Tensor &x, void *out, int64_t n) {
  auto *o = static_cast<D *>(out);
  switch (x.GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(ConvertAll(x.GetData<T>(), o, n))
    OPENATC_OPS_INT_CASES(ConvertAll(x.GetData<T>(), o, n))
    OPENATC_OPS_BOOL_CASES(ConvertAll(x.GetData<T>(), o, n))
    case ge::DT_BF16: {
      const auto *p = static_cast<const uint16_t *>(x.GetAddr());
      for (int64_t i = 0; i < n; ++i) o[i] = Convert<D>(Bf16ToFloat(p[i]));
      break;
    }
    default:
      return false;
  }
  return true;
}

template <>
bool CastTo<Bf16>(const gert::Tensor &x, void *out, int64_t n) {
  std::vector<float> tmp(static_cast<size_t>(n));
  if (!CastTo<float>(x, tmp.data(), n)) return false;
  auto *o = static_cast<uint16_t *>(out);
  for (int64_t i = 0; i < n; ++i) o[i] = FloatToBf16(tmp[i]);
  return true;
}

bool CastAny(const gert::Tensor &x, ge::DataType to, void *out) {
  const int64_t n = x.GetShapeSize();
  switch (to) {
    OPENATC_OPS_FLOAT_CASES(return CastTo<T>(x, out, n))
    OPENATC_OPS_INT_CASES(return CastTo<T>(x, out, n))
    OPENATC_OPS_BOOL_CASES(return CastTo<T>(x, out, n))
    case ge::DT_BF16:
      return CastTo<Bf16>(x, out, n);
    default:
      return false;
  }
  return false;
}

bool Target(const gert::ExtendedKernelContext *ctx, ge::DataType *to) {
  const int64_t onnx = AttrInt(ctx, 0, 0);
  *to = DtypeFromOnnx(onnx);
  if (*to == ge::DT_UNDEFINED) {
    Fail(ctx, "cannot cast to ONNX dtype " + std::to_string(onnx) +
                  " (supported: numeric types, bool, float16, bfloat16; not string or complex)");
    return false;
  }
  return true;
}
}  // namespace

class Cast : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType in = ctx->GetInputDataType(0);
    if (!IsOnnxDtype(in)) return Fail(ctx, "cannot cast from " + DtypeName(in));
    ge::DataType to;
    if (!Target(ctx, &to)) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, to);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    ge::DataType to;
    if (!Target(ctx, &to)) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, TensorDims(*x), to);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (!CastAny(*x, to, y->GetAddr()))
      return Fail(ctx, "cannot cast " + DtypeName(x->GetDataType()) + " to " + DtypeName(to));
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Cast);

}  // namespace openatc_ops
