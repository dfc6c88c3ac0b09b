// Quantized element types of ops/common/quant_narrow.h.
#include "common/quant_narrow.h"

#include <cstring>
#include <string>

#include "common/quant_util.h"
#include "openatc/minifloat.h"
#include "openatc/onnx_dtype.h"

namespace openatc_ops {

bool QuantTypeOf(ge::DataType d, QuantType *q) {
  *q = QuantType{};
  if (d == ge::DT_INT4) return q->lo = -8, q->hi = 7, true;
  if (d == openatc::kDtUint4) return q->lo = 0, q->hi = 15, true;
  if (d == ge::DT_FLOAT4_E2M1 || d == ge::DT_FLOAT8_E4M3FN || d == ge::DT_FLOAT8_E5M2 ||
      d == openatc::kDtFloat8E4M3FNUZ || d == openatc::kDtFloat8E5M2FNUZ)
    return q->is_float = true, true;
  return QuantRange(d, &q->lo, &q->hi);
}

std::vector<double> QuantValues(const gert::Tensor &t) {
  const ge::DataType d = t.GetDataType();
  const int64_t n = t.GetShapeSize();
  std::vector<double> v(static_cast<size_t>(n));
  const auto *p = static_cast<const uint8_t *>(t.GetAddr());
  if (openatc::Is4BitDataType(d)) {
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t b = openatc::GetNibble(p, i);
      v[static_cast<size_t>(i)] = d == ge::DT_INT4        ? openatc::Int4Value(b)
                                  : d == openatc::kDtUint4 ? b
                                                           : openatc::MiniFloatToFloat(b, openatc::kE2M1);
    }
  } else if (openatc::IsFloat8DataType(d)) {
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = Float8ToFloat(d, p[i]);
  } else {
    const std::vector<int32_t> iv = ReadInt8Like(t);
    for (size_t i = 0; i < iv.size(); ++i) v[i] = iv[i];
  }
  return v;
}

bool ReadQuantZeroPoint(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                        ge::DataType want, std::vector<double> *out) {
  if (t == nullptr) return *out = {0.0}, true;
  QuantType q;
  if (!QuantTypeOf(t->GetDataType(), &q))
    return Fail(ctx, std::string(what) + " must be uint8, int8, uint16, int16, int32, int4, uint4, float4e2m1 or a "
                                         "float8 type, got " + DtypeName(t->GetDataType())), false;
  if (t->GetDataType() != want)
    return Fail(ctx, std::string(what) + "'s dtype " + DtypeName(t->GetDataType()) + " differs from " +
                         DtypeName(want)), false;
  if (t->GetShapeSize() < 1) return Fail(ctx, std::string(what) + " is empty"), false;
  *out = QuantValues(*t);
  return true;
}

void ZeroPacked(gert::Tensor *y) {
  if (!openatc::Is4BitDataType(y->GetDataType())) return;
  std::memset(y->GetAddr(), 0, static_cast<size_t>(openatc::PackedNibbleBytes(y->GetShapeSize())));
}

void StoreQuantized(gert::Tensor *y, int64_t i, double v, bool saturate) {
  const ge::DataType d = y->GetDataType();
  auto *p = static_cast<uint8_t *>(y->GetAddr());
  if (d == ge::DT_INT4 || d == openatc::kDtUint4) {
    openatc::SetNibble(p, i, static_cast<uint32_t>(static_cast<int64_t>(v) & 0xF));
  } else if (d == ge::DT_FLOAT4_E2M1) {
    openatc::SetNibble(p, i, openatc::FloatToMiniFloat(static_cast<float>(v), openatc::kE2M1, true));
  } else if (openatc::IsFloat8DataType(d)) {
    p[i] = FloatToFloat8(static_cast<float>(v), d, CastOptions{saturate});
  } else {
    switch (d) {
      case ge::DT_UINT8: y->GetData<uint8_t>()[i] = static_cast<uint8_t>(v); break;
      case ge::DT_INT8: y->GetData<int8_t>()[i] = static_cast<int8_t>(v); break;
      case ge::DT_UINT16: y->GetData<uint16_t>()[i] = static_cast<uint16_t>(v); break;
      case ge::DT_INT16: y->GetData<int16_t>()[i] = static_cast<int16_t>(v); break;
      default: y->GetData<int32_t>()[i] = static_cast<int32_t>(v); break;
    }
  }
}

}  // namespace openatc_ops
