// Gemm (ONNX Gemm-13): Y = alpha * A' * B' + beta * C, A' = transA ? A^T : A (M x K),
// B' = transB ? B^T : B (K x N), optional C unidirectionally broadcast to (M, N).
// float32 (float16/double via f32) on oneDNN's matmul primitive (transposes as strided views,
// alpha as output scale, beta * C as a sum post-op over Y pre-filled with C); int32/int64/
// uint32/uint64 with a plain loop (wrapping). In a static model a float node's primitive is made
// at load (PrepareNode, ops/common/matmul_prepared.h), a constant float32 B packed into the
// primitive's layout by atc (PackWeights) or at load; other shapes use the per-shape cache.
#include <cstring>
#include <type_traits>

#include "common/dnnl_util.h"
#include "common/matmul_prepared.h"
#include "openatc/weight_packing.h"

namespace ge {
REG_OP(Gemm)
    .INPUT(A, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OPTIONAL_INPUT(C, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .ATTR(alpha, Float, 1.0f)
    .ATTR(beta, Float, 1.0f)
    .ATTR(transA, Int, 0)
    .ATTR(transB, Int, 0)
    .OP_END_FACTORY_REG(Gemm);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAlpha, kBeta, kTransA, kTransB };

bool Accepts(ge::DataType d) {
  return dnnl_util::IsFloatDtype(d) || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT32 ||
         d == ge::DT_UINT64;
}

struct GemmShape {
  int64_t m = -1, k = -1, n = -1;
  bool ta = false, tb = false;
};

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &a, const Dims &b, const Dims *c, GemmShape *s) {
  if (a.size() != 2 || b.size() != 2) return "A " + DimsToString(a) + " and B " + DimsToString(b) + " must be 2-D";
  s->ta = AttrInt(ctx, kTransA, 0) != 0;
  s->tb = AttrInt(ctx, kTransB, 0) != 0;
  s->m = s->ta ? a[1] : a[0];
  s->k = s->ta ? a[0] : a[1];
  const int64_t kb = s->tb ? b[1] : b[0];
  s->n = s->tb ? b[0] : b[1];
  if (s->k >= 0 && kb >= 0 && s->k != kb)
    return "inner dimensions differ: A' is " + std::to_string(s->m) + "x" + std::to_string(s->k) + ", B' is " +
           std::to_string(kb) + "x" + std::to_string(s->n) + " (transA " + std::to_string(s->ta) + ", transB " +
           std::to_string(s->tb) + ")";
  if (c != nullptr) {
    Dims out;
    if (c->size() > 2 || !BroadcastDims(*c, {s->m, s->n}, &out) || (s->m >= 0 && out[0] != s->m) ||
        (s->n >= 0 && out[1] != s->n))
      return "C " + DimsToString(*c) + " does not broadcast to (M, N) = (" + std::to_string(s->m) + ", " +
             std::to_string(s->n) + ")";
  }
  return "";
}

// y[i, j] = beta * c[broadcast] (or 0), T-typed.
template <typename T>
void FillC(const T *c, const Dims &cd, int64_t m, int64_t n, T beta, T *y) {
  const std::vector<int64_t> st = BroadcastStrides(cd, {m, n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) y[i * n + j] = c ? T(beta * c[i * st[0] + j * st[1]]) : T(0);
}

template <typename T>
void NaiveGemm(const GemmShape &s, const T *a, const T *b, const T *c, const Dims &cd, float alpha, float beta, T *y) {
  using U = std::make_unsigned_t<T>;
  // alpha/beta are truncated to integers (ONNX leaves integer Gemm's float scaling unspecified).
  FillC<U>(reinterpret_cast<const U *>(c), cd, s.m, s.n, static_cast<U>(static_cast<int64_t>(beta)),
           reinterpret_cast<U *>(y));
  const U al = static_cast<U>(static_cast<int64_t>(alpha));
  for (int64_t i = 0; i < s.m; ++i)
    for (int64_t j = 0; j < s.n; ++j) {
      U acc = 0;
      for (int64_t q = 0; q < s.k; ++q) {
        const T va = s.ta ? a[q * s.m + i] : a[i * s.k + q];
        const T vb = s.tb ? b[j * s.k + q] : b[q * s.n + j];
        acc = U(acc + U(U(va) * U(vb)));
      }
      y[i * s.n + j] = static_cast<T>(U(U(al * acc) + U(y[i * s.n + j])));
    }
}

// The float32 operand descriptors of `s` (transposes as strided views).
void GemmDescs(const GemmShape &s, dnnl::memory::desc *ad, dnnl::memory::desc *bd, dnnl::memory::desc *yd) {
  *ad = dnnl_util::StridedF32({s.m, s.k}, s.ta ? Dims{1, s.m} : Dims{s.k, 1});
  *bd = dnnl_util::StridedF32({s.k, s.n}, s.tb ? Dims{1, s.k} : Dims{s.n, 1});
  *yd = dnnl_util::PlainF32({s.m, s.n});
}

// The primitive of Y = alpha * A' B' (+ beta * Y, which holds C, when `use_c`); B's layout left to
// oneDNN when `pack_b` (MatMulPd). Throws dnnl::error.
dnnl::matmul::primitive_desc GemmPd(const dnnl::memory::desc &ad, const dnnl::memory::desc &bd,
                                    const dnnl::memory::desc &yd, float alpha, float beta, bool use_c, bool pack_b) {
  dnnl::primitive_attr attr = dnnl_util::UserScratchpad();
  if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
  if (use_c) {
    dnnl::post_ops po;
    po.append_sum(beta);
    attr.set_post_ops(po);
  }
  return MatMulPd(ad, bd, dnnl::memory::desc(), yd, attr, pack_b);
}

int64_t F32Bytes(const GemmShape &s) { return 4 * (s.m * s.k + s.k * s.n + s.m * s.n); }
}  // namespace

class Gemm : public ge::EagerExecuteOp, public ge::ShapeInferOp, public MatMulPackingOp<Gemm> {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0);
    if (!Accepts(a)) return Fail(ctx, "A must be float32, float16, double, int32, int64, uint32 or uint64");
    if (ctx->GetInputDataType(1) != a) return Fail(ctx, "A and B have different dtypes");
    return ctx->SetOutputDataType(0, a);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetRequiredInputShape(0), *b = ctx->GetRequiredInputShape(1);
    const gert::Shape *c = ctx->GetOptionalInputShape(2);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs A and B are required");
    GemmShape s;
    const Dims cd = c ? ToDims(*c) : Dims{};
    const std::string err = Resolve(ctx, ToDims(*a), ToDims(*b), c ? &cd : nullptr, &s);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape({s.m, s.n});
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetRequiredInputTensor(0), *b = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *c = ctx->GetOptionalInputTensor(2);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs A and B are required");
    const ge::DataType dt = a->GetDataType();
    if (b->GetDataType() != dt || (c && c->GetDataType() != dt) || !Accepts(dt))
      return Fail(ctx, "A, B and C must have one supported dtype");
    GemmShape s;
    const Dims cd = c ? ToDims(c->GetStorageShape()) : Dims{};
    const std::string err =
        Resolve(ctx, ToDims(a->GetStorageShape()), ToDims(b->GetStorageShape()), c ? &cd : nullptr, &s);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, {s.m, s.n}, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (s.m * s.n == 0) return ge::GRAPH_SUCCESS;
    const float alpha = AttrFloat(ctx, kAlpha, 1.0f), beta = AttrFloat(ctx, kBeta, 1.0f);
    switch (dt) {
#define OPENATC_GEMM_INT(DT, T)                                                                                   \
  case DT:                                                                                                        \
    NaiveGemm<T>(s, a->GetData<T>(), b->GetData<T>(), c ? c->GetData<T>() : nullptr, cd, alpha, beta, y->GetData<T>()); \
    return ge::GRAPH_SUCCESS;
      OPENATC_GEMM_INT(ge::DT_INT32, int32_t)
      OPENATC_GEMM_INT(ge::DT_INT64, int64_t)
      OPENATC_GEMM_INT(ge::DT_UINT32, uint32_t)
      OPENATC_GEMM_INT(ge::DT_UINT64, uint64_t)
#undef OPENATC_GEMM_INT
      default:
        break;
    }
    std::vector<float> sa, sb, sc, sy;
    const float *pa = dnnl_util::AsF32(*a, &sa), *pb = dnnl_util::AsF32(*b, &sb);
    const float *pc = c ? dnnl_util::AsF32(*c, &sc) : nullptr;
    if (pa == nullptr || pb == nullptr || (c && pc == nullptr)) return Fail(ctx, "A, B and C must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const bool use_c = pc != nullptr && beta != 0.0f;
    // Y = C (broadcast); the sum post-op then scales it by beta.
    FillC<float>(use_c ? pc : nullptr, cd, s.m, s.n, 1.0f, py);
    const auto *prepared = static_cast<const MatMulPrepared *>(openatc::NodeState(ctx));
    if (s.k > 0 && prepared != nullptr && PreparedMatches(*prepared, *a, *b, c)) {
      try {
        dnnl_util::Run(prepared->prim, {{DNNL_ARG_SRC, dnnl_util::Wrap(prepared->ad, pa)},
                                        {DNNL_ARG_WEIGHTS, prepared->packed_b ? prepared->packed_b
                                                                              : dnnl_util::Wrap(prepared->bd, pb)},
                                        {DNNL_ARG_DST, dnnl_util::Wrap(prepared->yd, py)}},
                       prepared->serial);
      } catch (const dnnl::error &e) {
        return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
      }
    } else if (s.k > 0) {
      try {
        const bool serial = SerialMatMul(s.m * s.n * s.k, F32Bytes(s));
        dnnl_util::Key key;
        key.Add("mkn", Dims{s.m, s.k, s.n}).Add("ta", s.ta).Add("tb", s.tb).Add("c", use_c);
        key.Add("t", dnnl_util::ThreadsFor(serial));
        // alpha and beta are node attributes: bit patterns in the key.
        uint32_t ab[2];
        std::memcpy(&ab[0], &alpha, 4);
        std::memcpy(&ab[1], &beta, 4);
        key.Add("ab", Dims{ab[0], ab[1]});
        dnnl::memory::desc ad, bd, yd;
        GemmDescs(s, &ad, &bd, &yd);
        auto prim = cache_.Get(key, [&] {
          dnnl_util::SerialScope scope(serial);
          return dnnl::matmul(GemmPd(ad, bd, yd, alpha, beta, use_c, /*pack_b=*/false));
        });
        dnnl_util::Run(*prim,
                       {{DNNL_ARG_SRC, dnnl_util::Wrap(ad, pa)},
                        {DNNL_ARG_WEIGHTS, dnnl_util::Wrap(bd, pb)},
                        {DNNL_ARG_DST, dnnl_util::Wrap(yd, py)}},
                       serial);
      } catch (const dnnl::error &e) {
        return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
      }
    } else if (use_c) {
      for (int64_t i = 0; i < s.m * s.n; ++i) py[i] *= beta;
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }

 private:
  friend class MatMulPackingOp<Gemm>;

  // The node's state for its static A, B (and C), B packed when constant float32: the OM's copy
  // `om` or packed here. Null state: not static, or not a float Gemm.
  ge::graphStatus Prepare(gert::EagerOpExecutionContext *ctx, const openatc::PackedWeightView *om,
                          std::shared_ptr<MatMulPrepared> *state) {
    const gert::Tensor *a = ctx->GetRequiredInputTensor(0), *b = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *c = ctx->GetOptionalInputTensor(2);
    if (a == nullptr || b == nullptr || (c != nullptr && c->GetDataType() != a->GetDataType())) return ge::GRAPH_SUCCESS;
    const float alpha = AttrFloat(ctx, kAlpha, 1.0f), beta = AttrFloat(ctx, kBeta, 1.0f);
    const float *constant_b = b->GetDataType() == ge::DT_FLOAT && b->GetAddr() != nullptr ? b->GetData<float>() : nullptr;
    try {
      *state = PrepareMatMul(*a, *b, c != nullptr, [&](MatMulPrepared *p) {
        GemmShape s;
        const Dims cd = c ? ToDims(c->GetStorageShape()) : Dims{};
        if (!Resolve(ctx, p->a, p->b, c ? &cd : nullptr, &s).empty() || s.k <= 0) return false;
        GemmDescs(s, &p->ad, &p->bd, &p->yd);
        p->serial = SerialMatMul(s.m * s.n * s.k, F32Bytes(s));
        dnnl_util::SerialScope scope(p->serial);
        const bool pack = PacksB(constant_b, p->bd);
        const dnnl::matmul::primitive_desc pd =
            GemmPd(p->ad, p->bd, p->yd, alpha, beta, c != nullptr && beta != 0.0f, pack);
        p->prim = dnnl::matmul(pd);
        p->packed_b = PackB(pd, p->bd, pack ? constant_b : nullptr, om, p->serial, &p->b_from_om);
        return true;
      });
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
    }
    return ge::GRAPH_SUCCESS;
  }

  dnnl_util::PrimitiveCache<dnnl::matmul> cache_;
};
REG_AUTO_MAPPING_OP(Gemm);

}  // namespace openatc_ops
