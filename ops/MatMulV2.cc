// MatMulV2 (GE alias for GE graphs; GE's matrix_calculation_ops.h prototype): y[M, N] = op(x1) x
// op(x2) + bias, where op transposes when transpose_x1 / transpose_x2 is true (x1 stored [K, M],
// x2 stored [N, K]); 2-D operands, optional 1-D bias of N values broadcast over rows.
// float32 (float16 via f32) on oneDNN's matmul, reading transposed operands in place through
// strides; int32 with a plain loop (wrapping). Quantized inputs (offset_w) are refused.
#include "common/dnnl_matmul.h"
#include "common/dnnl_util.h"

namespace ge {
REG_OP(MatMulV2)
    .INPUT(x1, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .INPUT(x2, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .OUTPUT(y, TensorType({DT_FLOAT, DT_FLOAT16, DT_INT32}))
    .OPTIONAL_INPUT(offset_w, TensorType({DT_INT8}))
    .ATTR(transpose_x1, Bool, false)
    .ATTR(transpose_x2, Bool, false)
    .ATTR(offset_x, Int, 0)
    .OP_END_FACTORY_REG(MatMulV2);
}  // namespace ge

namespace openatc_ops {
namespace {
enum MatMulV2Attr { kTransposeX1, kTransposeX2, kOffsetX };

bool AttrFlag(const gert::ExtendedKernelContext *ctx, size_t index) {
  const gert::RuntimeAttrs *a = ctx->GetAttrs();
  const bool *v = a ? a->GetBool(index) : nullptr;
  return v != nullptr && *v;
}

// M, K, N of one product; "" or why the shapes do not fit.
struct Gemm2D {
  int64_t m = -1, k = -1, n = -1;
  bool t1 = false, t2 = false;
};

std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &a, const Dims &b, Gemm2D *g) {
  if (a.size() != 2 || b.size() != 2)
    return "x1 " + DimsToString(a) + " and x2 " + DimsToString(b) + " must both be 2-D";
  g->t1 = AttrFlag(ctx, kTransposeX1);
  g->t2 = AttrFlag(ctx, kTransposeX2);
  g->m = g->t1 ? a[1] : a[0];
  g->k = g->t1 ? a[0] : a[1];
  const int64_t k2 = g->t2 ? b[1] : b[0];
  g->n = g->t2 ? b[0] : b[1];
  if (g->k >= 0 && k2 >= 0 && g->k != k2)
    return "the inner dims differ: x1 " + DimsToString(a) + (g->t1 ? " (transposed)" : "") + " and x2 " +
           DimsToString(b) + (g->t2 ? " (transposed)" : "");
  return "";
}

template <typename T>
void NaiveGemm(const Gemm2D &g, const T *a, const T *b, const T *bias, T *y) {
  using U = typename MatMulAcc<T>::type;
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      U acc = bias ? U(bias[j]) : U(0);
      for (int64_t q = 0; q < g.k; ++q) {
        const T av = g.t1 ? a[q * g.m + i] : a[i * g.k + q];
        const T bv = g.t2 ? b[j * g.k + q] : b[q * g.n + j];
        acc = U(acc + U(U(av) * U(bv)));
      }
      y[i * g.n + j] = static_cast<T>(acc);
    }
}
}  // namespace

class MatMulV2 : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType a = ctx->GetInputDataType(0);
    if (a != ge::DT_FLOAT && a != ge::DT_FLOAT16 && a != ge::DT_INT32)
      return Fail(ctx, "x1 must be float32, float16 or int32 (quantized int8 MatMulV2 is not supported)");
    if (ctx->GetInputDataType(1) != a) return Fail(ctx, "x1 and x2 have different dtypes");
    return ctx->SetOutputDataType(0, a);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *a = ctx->GetRequiredInputShape(0), *b = ctx->GetRequiredInputShape(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs x1 and x2 are required");
    if (ctx->GetOptionalInputShape(3) != nullptr) return Fail(ctx, "quantized MatMulV2 (offset_w) is not supported");
    Gemm2D g;
    const std::string err = Resolve(ctx, ToDims(*a), ToDims(*b), &g);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = ToShape({g.m, g.n});
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *a = ctx->GetRequiredInputTensor(0), *b = ctx->GetRequiredInputTensor(1);
    const gert::Tensor *bias = ctx->GetOptionalInputTensor(2);
    if (a == nullptr || b == nullptr) return Fail(ctx, "inputs x1 and x2 are required");
    if (a->GetDataType() != b->GetDataType()) return Fail(ctx, "x1 and x2 have different dtypes");
    Gemm2D g;
    const std::string err = Resolve(ctx, ToDims(a->GetStorageShape()), ToDims(b->GetStorageShape()), &g);
    if (!err.empty()) return Fail(ctx, err);
    if (bias != nullptr) {
      const Dims bd = ToDims(bias->GetStorageShape());
      if (bd.size() != 1 || bd[0] != g.n)
        return Fail(ctx, "bias " + DimsToString(bd) + " must have shape [" + std::to_string(g.n) + "]");
      if (bias->GetDataType() != a->GetDataType()) return Fail(ctx, "bias must have x1's dtype");
    }
    gert::Tensor *y = AllocOutput(ctx, 0, {g.m, g.n}, a->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (g.m * g.n == 0) return ge::GRAPH_SUCCESS;
    if (a->GetDataType() == ge::DT_INT32) {
      NaiveGemm(g, a->GetData<int32_t>(), b->GetData<int32_t>(), bias ? bias->GetData<int32_t>() : nullptr,
                y->GetData<int32_t>());
      return ge::GRAPH_SUCCESS;
    }
    return RunFloat(ctx, g, *a, *b, bias, *y);
  }

 private:
  struct Entry {
    dnnl::matmul prim;
    dnnl::memory::desc a, b, bias, y;
  };

  ge::graphStatus RunFloat(gert::EagerOpExecutionContext *ctx, const Gemm2D &g, const gert::Tensor &a,
                           const gert::Tensor &b, const gert::Tensor *bias, gert::Tensor &y) {
    std::vector<float> sa, sb, sbias, sy;
    const float *pa = dnnl_util::AsF32(a, &sa), *pb = dnnl_util::AsF32(b, &sb);
    if (pa == nullptr || pb == nullptr) return Fail(ctx, "x1 and x2 must have data");
    float *py = dnnl_util::OutF32(y, &sy);
    if (g.k == 0) {
      for (int64_t i = 0; i < g.m * g.n; ++i) py[i] = 0.0f;
      if (bias != nullptr) {
        const float *pbias = dnnl_util::AsF32(*bias, &sbias);
        for (int64_t i = 0; i < g.m * g.n; ++i) py[i] = pbias[i % g.n];
      }
      dnnl_util::StoreF32(sy, y);
      return ge::GRAPH_SUCCESS;
    }
    try {
      const int threads = dnnl_util::ApplyThreadCount();
      dnnl_util::Key key;
      key.Add("m", g.m).Add("k", g.k).Add("n", g.n).Add("t1", g.t1).Add("t2", g.t2).Add("b", bias != nullptr)
          .Add("t", threads);
      auto e = cache_.Get(key, [&] {
        Entry en;
        en.a = dnnl_util::StridedF32({g.m, g.k}, g.t1 ? Dims{1, g.m} : Dims{g.k, 1});
        en.b = dnnl_util::StridedF32({g.k, g.n}, g.t2 ? Dims{1, g.k} : Dims{g.n, 1});
        en.bias = bias ? dnnl_util::PlainF32({1, g.n}) : dnnl::memory::desc();
        en.y = dnnl_util::PlainF32({g.m, g.n});
        dnnl::matmul::desc d(en.a, en.b, en.bias, en.y);
        en.prim = dnnl::matmul(dnnl::matmul::primitive_desc(d, dnnl_util::UserScratchpad(), dnnl_util::Engine()));
        return en;
      });
      std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, dnnl_util::Wrap(e->a, pa)},
                                                    {DNNL_ARG_WEIGHTS, dnnl_util::Wrap(e->b, pb)},
                                                    {DNNL_ARG_DST, dnnl_util::Wrap(e->y, py)}};
      if (bias != nullptr) {
        const float *pbias = dnnl_util::AsF32(*bias, &sbias);
        if (pbias == nullptr) return Fail(ctx, "bias must have data");
        args[DNNL_ARG_BIAS] = dnnl_util::Wrap(e->bias, pbias);
      }
      dnnl_util::Run(e->prim, args);
    } catch (const dnnl::error &err) {
      return Fail(ctx, std::string("oneDNN matmul failed: ") + err.what());
    }
    dnnl_util::StoreF32(sy, y);
    return ge::GRAPH_SUCCESS;
  }

  dnnl_util::PrimitiveCache<Entry> cache_;
};
REG_AUTO_MAPPING_OP(MatMulV2);

}  // namespace openatc_ops
