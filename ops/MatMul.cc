// MatMul (ONNX MatMul-13): numpy.matmul semantics (1-D promotion, N-D batch broadcasting).
// float32 (float16/double via f32) on oneDNN's matmul primitive; int32/int64/uint32/uint64 with
// a plain loop (wrapping). In a static model a float node's primitive is made at load
// (PrepareNode, ops/common/matmul_prepared.h), a constant float32 B packed into the primitive's
// layout by atc (PackWeights) or at load; other shapes use the per-shape cache.
// The optional third input `bias` is OpenATC's, set by atc's MatMulBiasAddFoldPass
// (atc/compiler/src/passes/matmul_bias_add_fold.cc): N values of A's float dtype, added to every
// row of the product in the same primitive (B at least 2-D, so that the output's last dim is N).
#include "common/dnnl_matmul.h"
#include "common/dnnl_util.h"
#include "common/matmul_prepared.h"
#include "openatc/weight_packing.h"

namespace ge {
REG_OP(MatMul)
    .INPUT(A, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_INT32, DT_INT64, DT_UINT32, DT_UINT64}))
    .OP_END_FACTORY_REG(MatMul);
}  // namespace ge

namespace openatc_ops {
namespace {
bool Accepts(ge::DataType d) {
  return dnnl_util::IsFloatDtype(d) || d == ge::DT_INT32 || d == ge::DT_INT64 || d == ge::DT_UINT32 ||
         d == ge::DT_UINT64;
}

// The bias descriptor of product `s`: [1, ..., 1, N] at dst's rank (empty: no bias).
dnnl::memory::desc BiasDesc(const MatMulShape &s, bool bias) {
  if (!bias) return dnnl::memory::desc();
  Dims d(s.dst.size(), 1);
  d.back() = s.dst.back();
  return dnnl_util::PlainF32(d);
}

// The float32 matmul of `s` (with a bias when `bias`), on plain operands or, with `pack_b`, B in
// the layout oneDNN chooses (MatMulPd). Throws dnnl::error.
dnnl::matmul::primitive_desc MatMulPdOf(const MatMulShape &s, bool bias, bool pack_b) {
  return MatMulPd(dnnl_util::PlainF32(s.a), dnnl_util::PlainF32(s.b), BiasDesc(s, bias), dnnl_util::PlainF32(s.dst),
                  dnnl_util::UserScratchpad(), pack_b);
}

int64_t F32Bytes(const MatMulShape &s) { return 4 * (NumElements(s.a) + NumElements(s.b) + NumElements(s.dst)); }

// "" or why a bias of dtype `bias_dt` does not fit A's dtype `dt`.
std::string CheckBiasDtype(ge::DataType bias_dt, ge::DataType dt) {
  return dnnl_util::IsFloatDtype(dt) && bias_dt == dt ? "" : "bias needs float A and B of its own dtype";
}

// "" or why `bias` does not fit a product of B `b` whose output is `out`.
std::string CheckBias(const Dims &bias, const Dims &b, const Dims &out) {
  if (b.size() < 2 || bias.size() != 1 || (out.back() >= 0 && bias[0] != out.back()))
    return "bias " + DimsToString(bias) + " must be 1-D with the output's last dim (B at least 2-D)";
  return "";
}
}  // namespace

class MatMul : public ge::EagerExecuteOp, public ge::ShapeInferOp, public MatMulPackingOp<MatMul> {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0);
    if (!Accepts(a)) return Fail(ctx, "A must be float32, float16, double, int32, int64, uint32 or uint64");
    if (ctx->GetInputDataType(1) != a) return Fail(ctx, "A and B have different dtypes");
    if (ctx->GetOptionalInputDataType(2) != ge::DT_UNDEFINED) {
      const std::string why = CheckBiasDtype(ctx->GetOptionalInputDataType(2), a);
      if (!why.empty()) return Fail(ctx, why);
    }
    return ctx->SetOutputDataType(0, a);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetInputShape(0), *b = ctx->GetInputShape(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs A and B are required");
    MatMulShape s;
    const std::string err = ResolveMatMul(ToDims(*a), ToDims(*b), &s);
    if (!err.empty()) return Fail(ctx, err);
    if (const gert::Shape *bias = ctx->GetOptionalInputShape(2)) {
      const std::string why = CheckBias(ToDims(*bias), ToDims(*b), s.out);
      if (!why.empty()) return Fail(ctx, why);
    }
    *ctx->GetOutputShape(0) = ToShape(s.out);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    const gert::Tensor *bias = ctx->GetOptionalInputTensor(2);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs A and B are required");
    if (a->GetDataType() != b->GetDataType() || !Accepts(a->GetDataType()))
      return Fail(ctx, "A and B must have one supported dtype");
    if (const auto *p = static_cast<const MatMulPrepared *>(openatc::NodeState(ctx));
        p != nullptr && PreparedMatches(*p, *a, *b, bias) &&
        (bias == nullptr || (bias->GetDataType() == a->GetDataType() && bias->GetStorageShape().GetDimNum() == 1 &&
                             bias->GetStorageShape().GetDim(0) == p->out.back())))
      return RunPrepared(ctx, *p, *a, *b, bias);
    MatMulShape s;
    const std::string err = ResolveMatMul(ToDims(a->GetStorageShape()), ToDims(b->GetStorageShape()), &s);
    if (!err.empty()) return Fail(ctx, err);
    if (bias != nullptr) {
      std::string why = CheckBiasDtype(bias->GetDataType(), a->GetDataType());
      if (why.empty()) why = CheckBias(ToDims(bias->GetStorageShape()), ToDims(b->GetStorageShape()), s.out);
      if (!why.empty()) return Fail(ctx, why);
    }
    gert::Tensor *y = AllocOutput(ctx, 0, s.out, a->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(s.out) == 0) return ge::GRAPH_SUCCESS;
    switch (a->GetDataType()) {
      case ge::DT_INT32: NaiveMatMul(s, a->GetData<int32_t>(), b->GetData<int32_t>(), y->GetData<int32_t>()); break;
      case ge::DT_INT64: NaiveMatMul(s, a->GetData<int64_t>(), b->GetData<int64_t>(), y->GetData<int64_t>()); break;
      case ge::DT_UINT32: NaiveMatMul(s, a->GetData<uint32_t>(), b->GetData<uint32_t>(), y->GetData<uint32_t>()); break;
      case ge::DT_UINT64: NaiveMatMul(s, a->GetData<uint64_t>(), b->GetData<uint64_t>(), y->GetData<uint64_t>()); break;
      default: return RunFloat(ctx, s, *a, *b, bias, *y);
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  friend class MatMulPackingOp<MatMul>;

  // The node's state for its static A and B (and bias), B packed when constant float32: the OM's
  // copy `om` or packed here. Null state: not static, or not a float MatMul.
  ge::graphStatus Prepare(gert::EagerOpExecutionContext *ctx, const openatc::PackedWeightView *om,
                          std::shared_ptr<MatMulPrepared> *state) {
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    const gert::Tensor *bias = ctx->GetOptionalInputTensor(2);
    if (a == nullptr || b == nullptr) return ge::GRAPH_SUCCESS;
    const float *constant_b = b->GetDataType() == ge::DT_FLOAT && b->GetAddr() != nullptr ? b->GetData<float>() : nullptr;
    try {
      *state = PrepareMatMul(*a, *b, bias != nullptr, [&](MatMulPrepared *p) {
        MatMulShape s;
        if (!ResolveMatMul(p->a, p->b, &s).empty() || s.dst.size() > DNNL_MAX_NDIMS) return false;
        p->ad = dnnl_util::PlainF32(s.a);
        p->bd = dnnl_util::PlainF32(s.b);
        if (bias != nullptr && !CheckBias(ToDims(bias->GetStorageShape()), p->b, s.out).empty()) return false;
        p->yd = dnnl_util::PlainF32(s.dst);
        p->cd = BiasDesc(s, p->has_c);
        p->serial = SerialMatMul(NumElements(s.dst) * s.a.back(), F32Bytes(s));
        {
          dnnl_util::SerialScope scope(p->serial);
          const bool pack = PacksB(constant_b, p->bd);
          const dnnl::matmul::primitive_desc pd = MatMulPdOf(s, p->has_c, pack);
          p->prim = dnnl::matmul(pd);
          p->packed_b = PackB(pd, p->bd, pack ? constant_b : nullptr, om, p->serial, &p->b_from_om);
        }
        p->out = s.out;
        const dnnl::engine &engine = dnnl_util::Engine();
        p->am = dnnl::memory(p->ad, engine, DNNL_MEMORY_NONE);
        p->bm = p->packed_b ? p->packed_b : dnnl::memory(p->bd, engine, DNNL_MEMORY_NONE);
        p->ym = dnnl::memory(p->yd, engine, DNNL_MEMORY_NONE);
        p->args = {{DNNL_ARG_SRC, p->am}, {DNNL_ARG_WEIGHTS, p->bm}, {DNNL_ARG_DST, p->ym}};
        if (p->has_c) {
          p->cm = dnnl::memory(p->cd, engine, DNNL_MEMORY_NONE);
          p->args[DNNL_ARG_BIAS] = p->cm;
        }
        return true;
      });
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
    }
    return ge::GRAPH_SUCCESS;
  }

  // The node's prepared primitive on `a`, `b` (and `bias`), which match it: no shape resolution,
  // no oneDNN memory object or args map made (the state's handles are set to this run's data).
  // Runs of one node never overlap (the executor runs a model's nodes one at a time).
  ge::graphStatus RunPrepared(gert::EagerOpExecutionContext *ctx, const MatMulPrepared &p, const gert::Tensor &a,
                              const gert::Tensor &b, const gert::Tensor *bias) {
    gert::Tensor *y = AllocOutput(ctx, 0, p.out, a.GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    std::vector<float> sa, sb, sc, sy;
    const float *pa = dnnl_util::AsF32(a, &sa), *pb = dnnl_util::AsF32(b, &sb);
    const float *pc = bias != nullptr ? dnnl_util::AsF32(*bias, &sc) : nullptr;
    if (pa == nullptr || pb == nullptr || (bias != nullptr && pc == nullptr)) return Fail(ctx, "A, B and bias must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    try {
      // oneDNN takes non-const handles; sources are only read.
      p.am.set_data_handle(const_cast<float *>(pa));
      if (!p.packed_b) p.bm.set_data_handle(const_cast<float *>(pb));
      if (pc != nullptr) p.cm.set_data_handle(const_cast<float *>(pc));
      p.ym.set_data_handle(py);
      dnnl_util::Run(p.prim, p.args, p.serial);
    } catch (const dnnl::error &e) {
      return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
    }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus RunFloat(gert::EagerOpExecutionContext *ctx, const MatMulShape &s, const gert::Tensor &a,
                           const gert::Tensor &b, const gert::Tensor *bias, gert::Tensor &y) {
    std::vector<float> sa, sb, sc, sy;
    const float *pa = dnnl_util::AsF32(a, &sa), *pb = dnnl_util::AsF32(b, &sb);
    const float *pc = bias != nullptr ? dnnl_util::AsF32(*bias, &sc) : nullptr;
    if (pa == nullptr || pb == nullptr || (bias != nullptr && pc == nullptr)) return Fail(ctx, "A, B and bias must have data");
    float *py = dnnl_util::OutF32(y, &sy);
    const int64_t k = s.a.back();
    if (k == 0 || s.dst.size() > DNNL_MAX_NDIMS) {
      if (k == 0) std::fill(py, py + NumElements(s.dst), 0.0f);
      else NaiveMatMul(s, pa, pb, py);
      const int64_t n = s.dst.back(), total = NumElements(s.dst);
      for (int64_t i = 0; pc != nullptr && i < total; ++i) py[i] += pc[i % n];
    } else {
      try {
        const bool serial = SerialMatMul(NumElements(s.dst) * k, F32Bytes(s));
        dnnl_util::Key key;
        key.Add("a", s.a).Add("b", s.b).Add("c", pc != nullptr).Add("t", dnnl_util::ThreadsFor(serial));
        auto prim = cache_.Get(key, [&] {
          dnnl_util::SerialScope scope(serial);
          return dnnl::matmul(MatMulPdOf(s, pc != nullptr, /*pack_b=*/false));
        });
        std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, dnnl_util::Wrap(dnnl_util::PlainF32(s.a), pa)},
                                                      {DNNL_ARG_WEIGHTS, dnnl_util::Wrap(dnnl_util::PlainF32(s.b), pb)},
                                                      {DNNL_ARG_DST, dnnl_util::Wrap(dnnl_util::PlainF32(s.dst), py)}};
        if (pc != nullptr) args[DNNL_ARG_BIAS] = dnnl_util::Wrap(BiasDesc(s, true), pc);
        dnnl_util::Run(*prim, args, serial);
      } catch (const dnnl::error &e) {
        return Fail(ctx, std::string("oneDNN matmul failed: ") + e.what());
      }
    }
    dnnl_util::StoreF32(sy, y);
    return ge::GRAPH_SUCCESS;
  }

  dnnl_util::PrimitiveCache<dnnl::matmul> cache_;
};
REG_AUTO_MAPPING_OP(MatMul);

}  // namespace openatc_ops
