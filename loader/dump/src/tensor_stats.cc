// Element reading and per-tensor statistics (tensor_stats.h).
#include "openatc/dump/tensor_stats.h"

#include <cmath>
#include <cstring>

#include "openatc/tensor_io/float16.h"

namespace openatc::dump {
namespace {

template <typename T>
void Widen(const HostTensor &t, std::vector<double> &v) {
  const size_t n = t.data.size() / sizeof(T);
  v.resize(n);
  for (size_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, t.data.data() + i * sizeof(T), sizeof(T));
    v[i] = static_cast<double>(x);
  }
}

}  // namespace

std::optional<std::vector<double>> TensorDoubles(const HostTensor &t) {
  std::vector<double> v;
  switch (t.dtype) {
    case ge::DT_FLOAT: Widen<float>(t, v); break;
    case ge::DT_DOUBLE: Widen<double>(t, v); break;
    case ge::DT_INT8: Widen<int8_t>(t, v); break;
    case ge::DT_UINT8: case ge::DT_BOOL: Widen<uint8_t>(t, v); break;
    case ge::DT_INT16: Widen<int16_t>(t, v); break;
    case ge::DT_UINT16: Widen<uint16_t>(t, v); break;
    case ge::DT_INT32: Widen<int32_t>(t, v); break;
    case ge::DT_UINT32: Widen<uint32_t>(t, v); break;
    case ge::DT_INT64: Widen<int64_t>(t, v); break;
    case ge::DT_UINT64: Widen<uint64_t>(t, v); break;
    case ge::DT_FLOAT16:
    case ge::DT_BF16: {
      Widen<uint16_t>(t, v);
      for (double &x : v) {
        const auto bits = static_cast<uint16_t>(x);
        x = t.dtype == ge::DT_FLOAT16 ? tensor_io::HalfToFloat(bits) : tensor_io::Bf16ToFloat(bits);
      }
      break;
    }
    default: return std::nullopt;
  }
  return v;
}

std::optional<TensorStats> ComputeStats(const HostTensor &t) {
  const auto v = TensorDoubles(t);
  if (!v) return std::nullopt;
  TensorStats s;
  s.count = v->size();
  double sum = 0;
  uint64_t finite = 0;
  for (double x : *v) {
    if (std::isnan(x)) {
      ++s.nan_count;
    } else if (std::isinf(x)) {
      ++(x > 0 ? s.pos_inf_count : s.neg_inf_count);
    } else {
      s.max = s.max ? std::max(*s.max, x) : x;
      s.min = s.min ? std::min(*s.min, x) : x;
      sum += x;
      ++finite;
    }
  }
  if (finite > 0) s.mean = sum / static_cast<double>(finite);
  return s;
}

nlohmann::json StatsJson(const TensorStats &s) {
  auto opt = [](const std::optional<double> &x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
  return {{"count", s.count}, {"max", opt(s.max)}, {"min", opt(s.min)}, {"mean", opt(s.mean)},
          {"nan_count", s.nan_count}, {"pos_inf_count", s.pos_inf_count}, {"neg_inf_count", s.neg_inf_count}};
}

}  // namespace openatc::dump
