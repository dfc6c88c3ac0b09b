// MatMul / Gemm nodes prepared at load (matmul_prepared.h).
#include "common/matmul_prepared.h"

namespace openatc_ops {
namespace {
bool DimsEqual(const gert::Shape &s, const Dims &d) {
  if (s.GetDimNum() != d.size()) return false;
  for (size_t i = 0; i < d.size(); ++i)
    if (s.GetDim(i) != d[i]) return false;
  return true;
}
}  // namespace

bool SerialMatMul(int64_t macs) { return macs < kSerialMatMulMacs && dnnl_util::ApplyThreadCount() > 1; }

bool PreparedMatches(const MatMulPrepared &s, const gert::Tensor &a, const gert::Tensor &b, const gert::Tensor *c) {
  return a.GetDataType() == s.dtype && b.GetDataType() == s.dtype && (c != nullptr) == s.has_c &&
         DimsEqual(a.GetStorageShape(), s.a) && DimsEqual(b.GetStorageShape(), s.b) &&
         dnnl_util::ApplyThreadCount() == s.threads;
}

}  // namespace openatc_ops
