// Pow (ONNX Pow-15): Z = X ^ Y with multidirectional broadcasting. X (T): int32, int64, float16,
// float, double; Y (T1): any integer or float type; Z has X's dtype. Floats use std::pow (float16
// in float, rounded once), except a single float exponent of 1, 2, 3 or 0.5 on a float or double
// X: multiplies or a square root (SmallExponent). Integer X with integer Y is exact repeated
// multiplication (wrapping); a negative integer exponent gives the truncated 1/X^|Y| (1, -1 or 0;
// 0^-n is an error). Integer X with a float Y truncates pow(X, Y) toward zero (saturating).
#include <cmath>
#include <limits>

#include "common/math_util.h"

namespace ge {
REG_OP(Pow)
    .INPUT(X, TensorType({DT_INT32, DT_INT64, DT_FLOAT16, DT_FLOAT, DT_DOUBLE}))
    .INPUT(Y, TensorType::RealNumberType())
    .OUTPUT(Z, TensorType({DT_INT32, DT_INT64, DT_FLOAT16, DT_FLOAT, DT_DOUBLE}))
    .OP_END_FACTORY_REG(Pow);
}  // namespace ge

namespace openatc_ops {
namespace {

template <typename T, typename E>
T IntPow(T base, E exp) {
  if constexpr (std::is_signed<E>::value) {
    if (exp < E(0)) {
      if (base == T(1)) return T(1);
      if (base == T(-1)) return (static_cast<int64_t>(exp) % 2 == 0) ? T(1) : T(-1);
      return T(0);  // |base| >= 2 (base 0 was rejected before)
    }
  }
  T result = T(1);
  T b = base;
  auto e = static_cast<uint64_t>(exp);
  while (e != 0) {
    if (e & 1U) result = WrapMul(result, b);
    b = WrapMul(b, b);
    e >>= 1U;
  }
  return result;
}

template <typename T, typename E>
T PowOne(T x, E y) {
  if constexpr (std::is_integral<T>::value && std::is_integral<E>::value) {
    return IntPow(x, y);
  } else if constexpr (std::is_integral<T>::value) {
    return FromDouble<T>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  } else {
    using C = ComputeType<T>;
    return static_cast<T>(std::pow(static_cast<C>(x), static_cast<C>(static_cast<double>(y))));
  }
}

template <typename T>
ge::graphStatus PowWithBase(const gert::Tensor &x, const gert::Tensor &y, gert::Tensor &z) {
  switch (y.GetDataType()) {
    case ge::DT_FLOAT: {
      BinaryBroadcastMixed<T, float, T>(x, y, z, PowOne<T, float>);
      break;
    }
    case ge::DT_FLOAT16: {
      BinaryBroadcastMixed<T, half, T>(x, y, z, [](T a, half b) { return PowOne<T, float>(a, static_cast<float>(b)); });
      break;
    }
    case ge::DT_DOUBLE: {
      BinaryBroadcastMixed<T, double, T>(x, y, z, PowOne<T, double>);
      break;
    }
    case ge::DT_INT8: {
      BinaryBroadcastMixed<T, int8_t, T>(x, y, z, PowOne<T, int8_t>);
      break;
    }
    case ge::DT_INT16: {
      BinaryBroadcastMixed<T, int16_t, T>(x, y, z, PowOne<T, int16_t>);
      break;
    }
    case ge::DT_INT32: {
      BinaryBroadcastMixed<T, int32_t, T>(x, y, z, PowOne<T, int32_t>);
      break;
    }
    case ge::DT_INT64: {
      BinaryBroadcastMixed<T, int64_t, T>(x, y, z, PowOne<T, int64_t>);
      break;
    }
    case ge::DT_UINT8: {
      BinaryBroadcastMixed<T, uint8_t, T>(x, y, z, PowOne<T, uint8_t>);
      break;
    }
    case ge::DT_UINT16: {
      BinaryBroadcastMixed<T, uint16_t, T>(x, y, z, PowOne<T, uint16_t>);
      break;
    }
    case ge::DT_UINT32: {
      BinaryBroadcastMixed<T, uint32_t, T>(x, y, z, PowOne<T, uint32_t>);
      break;
    }
    case ge::DT_UINT64: {
      BinaryBroadcastMixed<T, uint64_t, T>(x, y, z, PowOne<T, uint64_t>);
      break;
    }
    default:
      return ge::GRAPH_FAILED;
  }
  return ge::GRAPH_SUCCESS;
}

// Z = X ^ y for one float or double exponent y in {1, 2, 3, 0.5} broadcast over X (a LayerNorm's
// Pow(x, 2), a GELU's Pow(x, 3)), without std::pow per element (~4 ns an element, 10x a multiply).
// The results are pow's special values too: x * x is the correctly rounded square; the cube of a
// float is one rounding of the exact product in double, then one to float; sqrt is correctly
// rounded, with pow(-0, 0.5) = +0 and pow(-inf, 0.5) = +inf. False when the shapes or the
// exponent do not fit.
template <typename T>
bool SmallExponent(const gert::Tensor &x, const gert::Tensor &y, const Dims &out, gert::Tensor &z) {
  const int64_t n = NumElements(out);
  if (y.GetShapeSize() != 1 || y.GetAddr() == nullptr || n != x.GetShapeSize()) return false;
  double e;
  if (y.GetDataType() == ge::DT_FLOAT) e = y.GetData<float>()[0];
  else if (y.GetDataType() == ge::DT_DOUBLE) e = y.GetData<double>()[0];
  else return false;
  const T *p = x.GetData<T>();
  T *q = z.GetData<T>();
  if (e == 1.0) {
    for (int64_t i = 0; i < n; ++i) q[i] = p[i];
  } else if (e == 2.0) {
    for (int64_t i = 0; i < n; ++i) q[i] = p[i] * p[i];
  } else if (e == 3.0) {
    if constexpr (std::is_same<T, float>::value) {
      for (int64_t i = 0; i < n; ++i) {
        const double d = p[i];
        q[i] = static_cast<float>(d * d * d);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) q[i] = p[i] * p[i] * p[i];
    }
  } else if (e == 0.5) {
    for (int64_t i = 0; i < n; ++i)
      q[i] = p[i] == -std::numeric_limits<T>::infinity() ? std::numeric_limits<T>::infinity() : std::sqrt(p[i]) + T(0);
  } else {
    return false;
  }
  return true;
}

bool BaseOk(ge::DataType d) { return IsFloat(d) || d == ge::DT_INT32 || d == ge::DT_INT64; }

// True when an integer base element is 0 where an integer exponent is negative (0^-n).
bool ZeroToNegative(const gert::Tensor &x, const gert::Tensor &y, const Dims &out) {
  if (!IsInt(x.GetDataType()) || !IsInt(y.GetDataType())) return false;
  std::vector<double> xs(static_cast<size_t>(x.GetShapeSize())), ys(static_cast<size_t>(y.GetShapeSize()));
  auto load = [](const gert::Tensor &t, std::vector<double> &v) {
    switch (t.GetDataType()) {
      OPENATC_OPS_INT_CASES(const T *p = t.GetData<T>();
                            for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(p[i]))
      default:
        break;
    }
  };
  load(x, xs);
  load(y, ys);
  const std::vector<int64_t> strides[2] = {BroadcastStrides(ToDims(x.GetStorageShape()), out),
                                           BroadcastStrides(ToDims(y.GetStorageShape()), out)};
  bool bad = false;
  StridedWalk<2>(out, strides, [&](int64_t, const int64_t *off) {
    if (xs[static_cast<size_t>(off[0])] == 0 && ys[static_cast<size_t>(off[1])] < 0) bad = true;
  });
  return bad;
}

}  // namespace

class Pow : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0), y = ctx->GetInputDataType(1);
    if (!BaseOk(x))
      return Fail(ctx, "unsupported base dtype " + std::to_string(static_cast<int>(x)) +
                           " (X must be int32, int64, float16, float or double)");
    if (!IsNumber(y))
      return Fail(ctx, "unsupported exponent dtype " + std::to_string(static_cast<int>(y)) +
                           " (Y must be an integer or float type)");
    return ctx->SetOutputDataType(0, x);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetInputShape(0), *b = ctx->GetInputShape(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "two inputs expected");
    Dims out;
    if (!BroadcastDims(ToDims(*a), ToDims(*b), &out))
      return Fail(ctx, "shapes " + DimsToString(ToDims(*a)) + " and " + DimsToString(ToDims(*b)) + " do not broadcast");
    *ctx->GetOutputShape(0) = ToShape(out);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr) return Fail(ctx, "two inputs expected");
    Dims out;
    if (!BroadcastDims(ToDims(x->GetStorageShape()), ToDims(y->GetStorageShape()), &out))
      return Fail(ctx, "shapes do not broadcast");
    if (ZeroToNegative(*x, *y, out)) return Fail(ctx, "integer 0 raised to a negative integer power; use a float base");
    gert::Tensor *z = AllocOutput(ctx, 0, out, x->GetDataType());
    if (z == nullptr) return ge::GRAPH_FAILED;
    if (x->GetDataType() == ge::DT_FLOAT && SmallExponent<float>(*x, *y, out, *z)) return ge::GRAPH_SUCCESS;
    if (x->GetDataType() == ge::DT_DOUBLE && SmallExponent<double>(*x, *y, out, *z)) return ge::GRAPH_SUCCESS;
    switch (x->GetDataType()) {
      case ge::DT_FLOAT:
        return PowWithBase<float>(*x, *y, *z);
      case ge::DT_FLOAT16:
        return PowWithBase<half>(*x, *y, *z);
      case ge::DT_DOUBLE:
        return PowWithBase<double>(*x, *y, *z);
      case ge::DT_INT32:
        return PowWithBase<int32_t>(*x, *y, *z);
      case ge::DT_INT64:
        return PowWithBase<int64_t>(*x, *y, *z);
      default:
        return Fail(ctx, "unsupported base dtype");
    }
  }
};
REG_AUTO_MAPPING_OP(Pow);

}  // namespace openatc_ops
