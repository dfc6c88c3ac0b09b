/**
 * @file ops/common/matmul_prepared.h
 * A float MatMul or Gemm node of a static model prepared at load (openatc/weight_packing.h,
 * PrepareNode): its oneDNN matmul primitive and memory descriptors are made once, so Execute runs
 * it with no cache key, hash lookup or lock, as prepared Convs do (conv_prepared.h). Execute uses
 * the state only when the tensors are what it was made for (dims, dtype, bias presence, thread
 * count); otherwise it takes the per-shape cache path. Nothing is packed into the OM for them.
 */
#ifndef OPENATC_OPS_COMMON_MATMUL_PREPARED_H_
#define OPENATC_OPS_COMMON_MATMUL_PREPARED_H_

#include <memory>

#include "common/dnnl_util.h"

namespace openatc_ops {

struct MatMulPrepared {
  Dims a, b;                          ///< A's and B's storage dims the primitive was made for
  bool has_c = false;                 ///< Gemm: input C was present
  ge::DataType dtype = ge::DT_FLOAT;  ///< A's and B's dtype (float32, float16 or double)
  int threads = 1;                    ///< dnnl_util::ApplyThreadCount() when it was made
  dnnl::memory::desc ad, bd, yd;      ///< the operand descriptors (strided for Gemm's transposes)
  dnnl::matmul prim;
};

/// A state for `a`, `b` (and whether C is present) with the primitive `make(&state)` fills in
/// (it sets ad, bd, yd and prim; may throw dnnl::error), or null when a dim is unknown or zero.
template <typename Make>
std::shared_ptr<MatMulPrepared> PrepareMatMul(const gert::Tensor &a, const gert::Tensor &b, bool has_c,
                                              const Make &make) {
  const Dims ad = ToDims(a.GetStorageShape()), bd = ToDims(b.GetStorageShape());
  if (a.GetDataType() != b.GetDataType() || !dnnl_util::IsFloatDtype(a.GetDataType()) || NumElements(ad) <= 0 ||
      NumElements(bd) <= 0)
    return nullptr;
  for (const Dims *d : {&ad, &bd})
    for (int64_t v : *d)
      if (v <= 0) return nullptr;
  auto s = std::make_shared<MatMulPrepared>();
  s->a = ad;
  s->b = bd;
  s->has_c = has_c;
  s->dtype = a.GetDataType();
  s->threads = dnnl_util::ApplyThreadCount();
  if (!make(s.get())) return nullptr;
  return s;
}

/// True when `a`, `b`, `c` (null: absent) are what `s` was prepared for.
bool PreparedMatches(const MatMulPrepared &s, const gert::Tensor &a, const gert::Tensor &b, const gert::Tensor *c);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_MATMUL_PREPARED_H_
