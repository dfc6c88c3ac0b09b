// Mod (ONNX Mod-13): C = A mod B elementwise with multidirectional broadcasting.
//  - fmod=0 (default, integers only): the remainder takes the sign of the divisor B, as Python's
//    `%` (-4 mod 3 = 2, 4 mod -3 = -2).
//  - fmod=1: the remainder takes the sign of the dividend A, as C's fmod / `%` (-4 fmod 3 = -1).
// Floats (float, float16 computed in float, double) require fmod=1 (ONNX spec; refused at compile
// time otherwise). A zero integer divisor is an error (ONNX leaves it undefined); INT_MIN mod -1 is
// 0 (no overflow trap).
#include <cmath>

#include "common/math_util.h"

namespace ge {
REG_OP(Mod)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType::RealNumberType())
    .ATTR(fmod, Int, 0)
    .OP_END_FACTORY_REG(Mod);
}  // namespace ge

namespace openatc_ops {
namespace {

// Remainder of integer division truncated toward zero; y != 0. Avoids INT_MIN % -1.
template <typename T>
T TruncRem(T x, T y) {
  if constexpr (std::is_signed<T>::value) {
    if (y == T(-1)) return T(0);
  }
  return static_cast<T>(x % y);
}

// Remainder with the divisor's sign (floored division).
template <typename T>
T FloorRem(T x, T y) {
  T r = TruncRem(x, y);
  if constexpr (std::is_signed<T>::value) {
    if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
  }
  return r;
}

}  // namespace

class Mod : public BinaryElementwiseOp<Mod> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &, const gert::Tensor &, gert::Tensor &) {
    return ge::GRAPH_FAILED;  // unused: Execute computes with the fmod attribute
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (IsFloat(ctx->GetInputDataType(0)) && AttrInt(ctx, 0, 0) == 0)
      return Fail(ctx, "fmod=0 (integer modulus) is not defined for floating-point inputs; set fmod=1 (ONNX Mod-13)");
    return BinaryElementwiseOp<Mod>::InferDataType(ctx);
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "two inputs expected");
    if (a->GetDataType() != b->GetDataType()) return Fail(ctx, "input dtypes differ");
    const bool fmod = AttrInt(ctx, 0, 0) != 0;
    const ge::DataType dt = a->GetDataType();
    if (IsFloat(dt) && !fmod)
      return Fail(ctx, "fmod=0 (integer modulus) is not defined for floating-point inputs; set fmod=1 (ONNX Mod-13)");
    Dims out;
    if (!BroadcastDims(ToDims(a->GetStorageShape()), ToDims(b->GetStorageShape()), &out))
      return Fail(ctx, "shapes " + DimsToString(ToDims(a->GetStorageShape())) + " and " +
                           DimsToString(ToDims(b->GetStorageShape())) + " do not broadcast");
    if (NumElements(out) > 0 && HasIntZero(*b))
      return Fail(ctx, "integer modulus by zero: divisor B contains 0; make B nonzero");
    gert::Tensor *c = AllocOutput(ctx, 0, out, dt);
    if (c == nullptr) return ge::GRAPH_FAILED;
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(*a, *b, *c, [](T x, T y) {
        return static_cast<T>(std::fmod(static_cast<ComputeType<T>>(x), static_cast<ComputeType<T>>(y)));
      }))
      OPENATC_OPS_INT_CASES(if (fmod) BinaryBroadcastMixed<T, T, T>(*a, *b, *c, TruncRem<T>);
                            else BinaryBroadcastMixed<T, T, T>(*a, *b, *c, FloorRem<T>))
      default:
        return Fail(ctx, "unsupported dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Mod);

}  // namespace openatc_ops
