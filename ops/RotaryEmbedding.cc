// RotaryEmbedding (ONNX RotaryEmbedding-23): rotates the first rotary_embedding_dim (default: all)
// features of each head by the angles in cos_cache/sin_cache. X is [B, H, S, D] or [B, S, H*D]
// (then num_heads is required). With position_ids [B, S] the caches are [max_position, W] and
// row position_ids[b][s] is used; without, the caches are [B, S, W]; W >= R/2 (ONNX exports give
// head_size/2) and the first R/2 columns are used. interleaved = 1 pairs
// features (2i, 2i+1), else (i, i + R/2). Features past R are copied. Float types, computed in float.
#include "common/dnnl_util.h"

namespace ge {
REG_OP(RotaryEmbedding)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(cos_cache, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(sin_cache, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(position_ids, TensorType({DT_INT64}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(interleaved, Int, 0)
    .ATTR(num_heads, Int, 0)
    .ATTR(rotary_embedding_dim, Int, 0)
    .OP_END_FACTORY_REG(RotaryEmbedding);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kInterleaved, kNumHeads, kRotaryDim };

struct Geometry {
  int64_t b = 0, h = 0, s = 0, d = 0, r = 0;
  bool bhsd = true;  // 4-D [B, H, S, D]; else 3-D [B, S, H*D]
  int64_t cache_width = 0;  // the caches' last dim: rotary_dim/2 or more (head_size/2); the first r/2 are used
};

// "" or the reason; `pos` null when position_ids is absent.
std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &x, const Dims &cs, const Dims &sn,
                    const Dims *pos, Geometry *g) {
  if (x.size() == 4) {
    *g = {x[0], x[1], x[2], x[3], 0, true};
  } else if (x.size() == 3) {
    const int64_t heads = AttrInt(ctx, kNumHeads, 0);
    if (heads <= 0) return "num_heads must be set (> 0) for a 3-D X " + DimsToString(x);
    if (x[2] % heads != 0) return "X's hidden size " + std::to_string(x[2]) + " is not a multiple of num_heads " + std::to_string(heads);
    *g = {x[0], heads, x[1], x[2] / heads, 0, false};
  } else {
    return "X must be 3-D [batch, seq, hidden] or 4-D [batch, heads, seq, head_size], got " + DimsToString(x);
  }
  const int64_t r = AttrInt(ctx, kRotaryDim, 0);
  g->r = r == 0 ? g->d : r;
  if (g->r < 0 || g->r > g->d || g->r % 2 != 0)
    return "rotary_embedding_dim " + std::to_string(g->r) + " must be even and at most head_size " + std::to_string(g->d);
  if (cs != sn) return "cos_cache " + DimsToString(cs) + " and sin_cache " + DimsToString(sn) + " differ";
  const int64_t half = g->r / 2;
  if (pos) {
    if (*pos != Dims{g->b, g->s}) return "position_ids " + DimsToString(*pos) + " must be [batch, seq] = " + DimsToString({g->b, g->s});
    if (cs.size() != 2 || cs[1] < half)
      return "cos_cache " + DimsToString(cs) + " must be [max_position, >= rotary_dim/2 = " + std::to_string(half) +
             "] with position_ids";
  } else if (cs.size() != 3 || cs[0] != g->b || cs[1] != g->s || cs[2] < half) {
    return "cos_cache " + DimsToString(cs) + " must be [batch, seq, >= rotary_dim/2] = [" + std::to_string(g->b) + ", " +
           std::to_string(g->s) + ", >= " + std::to_string(half) + "] without position_ids";
  }
  g->cache_width = cs.back();
  return "";
}
}  // namespace

class RotaryEmbedding : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!dnnl_util::IsFloatDtype(x)) return Fail(ctx, "X must be float32, float16 or double");
    if (ctx->GetInputDataType(1) != x || ctx->GetInputDataType(2) != x) return Fail(ctx, "cos_cache and sin_cache must have X's dtype");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetRequiredInputShape(0), *c = ctx->GetRequiredInputShape(1), *s = ctx->GetRequiredInputShape(2);
    if (x == nullptr || c == nullptr || s == nullptr) return Fail(ctx, "inputs X, cos_cache and sin_cache are required");
    const gert::Shape *p = ctx->GetOptionalInputShape(3);
    const Dims pd = p ? ToDims(*p) : Dims{};
    Geometry g;
    const Dims xd = ToDims(*x);
    const bool known = NumElements(xd) >= 0 && NumElements(ToDims(*c)) >= 0 && NumElements(pd) >= 0;
    if (known) {
      const std::string err = Resolve(ctx, xd, ToDims(*c), ToDims(*s), p ? &pd : nullptr, &g);
      if (!err.empty()) return Fail(ctx, err);
    }
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetRequiredInputTensor(0), *c = ctx->GetRequiredInputTensor(1), *s = ctx->GetRequiredInputTensor(2);
    if (x == nullptr || c == nullptr || s == nullptr) return Fail(ctx, "inputs X, cos_cache and sin_cache are required");
    const gert::Tensor *p = ctx->GetOptionalInputTensor(3);
    const Dims xd = ToDims(x->GetStorageShape()), cd = ToDims(c->GetStorageShape());
    const Dims pd = p ? ToDims(p->GetStorageShape()) : Dims{};
    Geometry g;
    const std::string err = Resolve(ctx, xd, cd, ToDims(s->GetStorageShape()), p ? &pd : nullptr, &g);
    if (!err.empty()) return Fail(ctx, err);
    std::vector<int64_t> pos;
    if (p && !ReadInts(p, &pos)) return Fail(ctx, "position_ids must be int64 with data");
    for (int64_t v : pos)
      if (v < 0 || v >= cd[0]) return Fail(ctx, "position id " + std::to_string(v) + " is outside cos_cache's " + std::to_string(cd[0]) + " rows");
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(xd) == 0) return ge::GRAPH_SUCCESS;
    std::vector<float> sx, sc, ss, sy;
    const float *px = dnnl_util::AsF32(*x, &sx), *pc = dnnl_util::AsF32(*c, &sc), *ps = dnnl_util::AsF32(*s, &ss);
    if (px == nullptr || pc == nullptr || ps == nullptr) return Fail(ctx, "X, cos_cache and sin_cache must have data");
    float *py = dnnl_util::OutF32(*y, &sy);
    const int64_t half = g.r / 2;
    const bool interleaved = AttrInt(ctx, kInterleaved, 0) != 0;
    for (int64_t b = 0; b < g.b; ++b)
      for (int64_t h = 0; h < g.h; ++h)
        for (int64_t t = 0; t < g.s; ++t) {
          // Offset of head h at position t: [B, H, S, D] or [B, S, H, D] in memory.
          const int64_t base = g.bhsd ? ((b * g.h + h) * g.s + t) * g.d : ((b * g.s + t) * g.h + h) * g.d;
          const int64_t row = p ? pos[static_cast<size_t>(b * g.s + t)] : b * g.s + t;
          const float *cr = pc + row * g.cache_width, *sr = ps + row * g.cache_width;
          const float *in = px + base;
          float *out = py + base;
          for (int64_t i = 0; i < half; ++i) {
            const int64_t i1 = interleaved ? 2 * i : i, i2 = interleaved ? 2 * i + 1 : i + half;
            const float x1 = in[i1], x2 = in[i2];
            out[i1] = cr[i] * x1 - sr[i] * x2;
            out[i2] = sr[i] * x1 + cr[i] * x2;
          }
          for (int64_t i = g.r; i < g.d; ++i) out[i] = in[i];
        }
    dnnl_util::StoreF32(sy, *y);
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(RotaryEmbedding);

}  // namespace openatc_ops
