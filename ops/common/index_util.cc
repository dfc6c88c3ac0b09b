// Helpers of the index-driven built-in ops: index normalisation and reduction parsing.
#include "common/index_util.h"

namespace openatc_ops {

bool NormalizeIndex(const gert::ExtendedKernelContext *ctx, const char *what, int64_t v, int64_t n, size_t pos,
                    int64_t axis, int64_t *out) {
  if (v < -n || v >= n) {
    Fail(ctx, std::string(what) + " value " + std::to_string(v) + " at flat position " + std::to_string(pos) +
                  " is out of range [" + std::to_string(-n) + ", " + std::to_string(n - 1) + "] of axis " +
                  std::to_string(axis) + " (size " + std::to_string(n) + "); fix the indices");
    return false;
  }
  *out = v < 0 ? v + n : v;
  return true;
}

bool ReadIndexInput(const gert::ExtendedKernelContext *ctx, const gert::Tensor *t, const char *what,
                    std::vector<int64_t> *out) {
  if (t == nullptr) {
    Fail(ctx, std::string("input ") + what + " is missing");
    return false;
  }
  const ge::DataType d = t->GetDataType();
  if ((d == ge::DT_INT32 || d == ge::DT_INT64) && t->GetShapeSize() == 0) {
    out->clear();
    return true;
  }
  if (!ReadInts(t, out)) {
    Fail(ctx, std::string("input ") + what + " must be int32 or int64, got " + DtypeName(t->GetDataType()));
    return false;
  }
  return true;
}

bool ParseReduction(const gert::ExtendedKernelContext *ctx, const std::string &s, Reduction *r) {
  if (s == "none") *r = Reduction::kNone;
  else if (s == "add") *r = Reduction::kAdd;
  else if (s == "mul") *r = Reduction::kMul;
  else if (s == "max") *r = Reduction::kMax;
  else if (s == "min") *r = Reduction::kMin;
  else {
    Fail(ctx, "reduction '" + s + "' is not one of none, add, mul, max, min");
    return false;
  }
  return true;
}

bool ReadAsDouble(const gert::Tensor *t, std::vector<double> *out) {
  if (t == nullptr) return false;
  const int64_t n = t->GetShapeSize();
  out->assign(static_cast<size_t>(n < 0 ? 0 : n), 0.0);
  if (n <= 0) return true;
  if (t->GetAddr() == nullptr) return false;
  switch (t->GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(for (int64_t i = 0; i < n; ++i) (*out)[i] = static_cast<double>(t->GetData<T>()[i]))
    OPENATC_OPS_INT_CASES(for (int64_t i = 0; i < n; ++i) (*out)[i] = static_cast<double>(t->GetData<T>()[i]))
    OPENATC_OPS_BOOL_CASES(for (int64_t i = 0; i < n; ++i) (*out)[i] = t->GetData<T>()[i] ? 1.0 : 0.0)
    default:
      return false;
  }
  return true;
}

int64_t Prod(const Dims &d, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end && i < d.size(); ++i) p *= d[i];
  return p;
}

}  // namespace openatc_ops
