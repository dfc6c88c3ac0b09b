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
#include <string>
#include <vector>

#include "common/dnnl_packing.h"
#include "common/dnnl_util.h"
#include "openatc/weight_packing.h"

namespace openatc_ops {

/// A float MatMul or Gemm of fewer multiply-adds than this (dst elements x K) is created and run
/// on the calling thread alone (dnnl_util::SerialScope), like a small Conv (conv_layout.h,
/// kSerialConvMacs): waking the OpenMP team for it costs more than a second thread saves,
/// unless it is memory-bound (SerialMatMul).
inline constexpr int64_t kSerialMatMulMacs = int64_t{4} << 20;

/// Whether a float MatMul or Gemm of `macs` multiply-adds over operands of `bytes` (A, B and Y
/// together) runs serially: fewer than kSerialMatMulMacs and dnnl_util::SerialMemoryBound(bytes). A classifier's
/// [1, 2048] x [2048, 1000] has 2M multiply-adds but streams 8 MB of weights, which two threads
/// read faster than one.
bool SerialMatMul(int64_t macs, int64_t bytes);

struct MatMulPrepared {
  Dims a, b;                          ///< A's and B's storage dims the primitive was made for
  bool has_c = false;                 ///< Gemm: input C was present; MatMul: its bias
  ge::DataType dtype = ge::DT_FLOAT;  ///< A's and B's dtype (float32, float16 or double)
  int threads = 1;                    ///< dnnl_util::ApplyThreadCount() when it was made
  bool serial = false;                ///< made (and so run) in a dnnl_util::SerialScope: SerialMatMul
  dnnl::memory::desc ad, bd, yd;      ///< the operand descriptors (strided for Gemm's transposes)
  dnnl::memory::desc cd;              ///< MatMul's bias descriptor (empty without one)
  dnnl::matmul prim;
  /// B packed for prim (PackB); empty: B is read as stored, through bd.
  dnnl::memory packed_b;
  bool b_from_om = false;  ///< packed_b is the OM's copy
  /// MatMul: its output dims, and memory objects made once without data whose handles each
  /// Execute sets, held in the args map it runs with (no dnnl::memory or map made per run).
  Dims out;
  dnnl::memory am, bm, cm, ym;
  std::unordered_map<int, dnnl::memory> args;
};

/// A state for `a`, `b` (and whether C is present) with the primitive `make(&state)` fills in
/// (it sets ad, bd, yd, serial and prim, creating prim in a SerialScope(serial); may throw
/// dnnl::error), or null when a dim is unknown or zero.
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

/// A constant B smaller than this stays as stored: packing it saves nothing measurable and would
/// add a padded copy to the OM (a [3, 2] B becomes 4 KiB).
inline constexpr size_t kPackBMinBytes = size_t{64} << 10;

/// Whether `b`, a constant float32 B laid out as `bd` (nullptr: not constant), is packed (PackB).
inline bool PacksB(const float *b, const dnnl::memory::desc &bd) { return b != nullptr && bd.get_size() >= kPackBMinBytes; }

/// The matmul primitive descriptor of `ad` x `bd` -> `yd` (bias `cd`, may be empty) with `attr` (made
/// with dnnl_util::UserScratchpad, as every primitive run through dnnl_util::Run).
/// With `pack_b`, B's layout is left to oneDNN (format_tag::any), falling back to `bd` where
/// oneDNN has no implementation for that. Throws dnnl::error.
dnnl::matmul::primitive_desc MatMulPd(const dnnl::memory::desc &ad, const dnnl::memory::desc &bd,
                                      const dnnl::memory::desc &cd, const dnnl::memory::desc &yd,
                                      const dnnl::primitive_attr &attr, bool pack_b);

/// B packed for `pd`: the OM's copy `om` when it was made for exactly that layout on this CPU,
/// else reordered from `b` (laid out as `plain`; `serial` as the primitive's SerialScope).
/// Empty when pd reads B as `plain` (nothing to pack). Throws dnnl::error.
dnnl::memory PackB(const dnnl::matmul::primitive_desc &pd, const dnnl::memory::desc &plain, const float *b,
                   const openatc::PackedWeightView *om, bool serial, bool *from_om);

/// Compile time (WeightPackingOp::PackWeights): hands `s`'s packed B, input `input` of the node,
/// to `sink` with this CPU's ISA name and its layout text; nothing when B is not packed or not in
/// a blocked format.
void AddPackedB(const MatMulPrepared &s, int32_t input, openatc::PackedWeightSink &sink);

/// The OM's copy of input `input` among `packed[0..count)`, or null.
const openatc::PackedWeightView *PackedInput(const openatc::PackedWeightView *packed, size_t count, int32_t input);

/// The WeightPackingOp side of the built-in MatMul and Gemm, which pack a constant B (input 1):
/// `Op::Prepare(ctx, om, &state)` makes the node's state with B packed (the OM's copy `om`, or
/// packed there); PackWeights hands that copy to atc.
template <typename Op>
class MatMulPackingOp : public openatc::WeightPackingOp {
 public:
  ge::graphStatus PackWeights(gert::EagerOpExecutionContext *ctx, openatc::PackedWeightSink &sink) override {
    std::shared_ptr<MatMulPrepared> p;
    const ge::graphStatus st = static_cast<Op *>(this)->Prepare(ctx, nullptr, &p);
    if (st == ge::GRAPH_SUCCESS && p != nullptr) AddPackedB(*p, 1, sink);
    return st;
  }

  // The packed bytes depend on oneDNN, its ISA and the thread count (dnnl_packing.h).
  const char *PackingEnvironment() override {
    packing_environment_ = dnnl_util::PackingEnvironment();
    return packing_environment_.c_str();
  }

  ge::graphStatus PrepareNode(gert::EagerOpExecutionContext *ctx, const openatc::PackedWeightView *packed, size_t count,
                              std::shared_ptr<void> *state) override {
    std::shared_ptr<MatMulPrepared> p;
    const ge::graphStatus st = static_cast<Op *>(this)->Prepare(ctx, PackedInput(packed, count, 1), &p);
    *state = p;
    return st;
  }

 private:
  std::string packing_environment_;
};

/// True when `a`, `b`, `c` (null: absent) are what `s` was prepared for.
bool PreparedMatches(const MatMulPrepared &s, const gert::Tensor &a, const gert::Tensor &b, const gert::Tensor *c);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_MATMUL_PREPARED_H_
