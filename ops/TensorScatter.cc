// TensorScatter (ONNX TensorScatter-24): present_cache = past_cache with `update` written along
// the sequence axis `axis` (default -2, never the batch axis 0) from write_indices[b] on
// (absent: 0) for each batch b. mode "linear": the write must fit (an error otherwise);
// "circular": positions wrap modulo the cache length. Dtypes of 1 to 8 bytes (copied as bytes).
#include <cstring>

#include "common/op_util.h"

namespace ge {
REG_OP(TensorScatter)
    .INPUT(past_cache, TensorType::ALL())
    .INPUT(update, TensorType::ALL())
    .OPTIONAL_INPUT(write_indices, TensorType({DT_INT64}))
    .OUTPUT(present_cache, TensorType::ALL())
    .ATTR(axis, Int, -2)
    .ATTR(mode, String, "linear")
    .OP_END_FACTORY_REG(TensorScatter);
}  // namespace ge

namespace openatc_ops {
namespace {
enum Attr { kAxis, kMode };

// "" or the reason; `axis` normalised.
std::string Resolve(const gert::ExtendedKernelContext *ctx, const Dims &past, const Dims &upd, int64_t *axis) {
  const int64_t a = AttrInt(ctx, kAxis, -2);
  if (past.size() < 2 || !NormalizeAxis(a, static_cast<int64_t>(past.size()), axis) || *axis == 0)
    return "axis " + std::to_string(a) + " must name a non-batch axis of past_cache " + DimsToString(past);
  if (upd.size() != past.size()) return "update " + DimsToString(upd) + " must have past_cache's rank " + DimsToString(past);
  for (size_t k = 0; k < past.size(); ++k)
    if (static_cast<int64_t>(k) != *axis ? upd[k] != past[k] : upd[k] > past[k])
      return "update " + DimsToString(upd) + " does not fit past_cache " + DimsToString(past) + " along axis " + std::to_string(*axis);
  const std::string mode = AttrStr(ctx, kMode, "linear");
  if (mode != "linear" && mode != "circular") return "mode '" + mode + "' is not linear or circular";
  return "";
}
}  // namespace

class TensorScatter : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    if (ctx->GetInputDataType(0) != ctx->GetInputDataType(1)) return Fail(ctx, "past_cache and update must have one dtype");
    return ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *p = ctx->GetRequiredInputShape(0), *u = ctx->GetRequiredInputShape(1);
    if (p == nullptr || u == nullptr) return Fail(ctx, "inputs past_cache and update are required");
    int64_t axis = 0;
    if (NumElements(ToDims(*p)) >= 0 && NumElements(ToDims(*u)) >= 0) {
      const std::string err = Resolve(ctx, ToDims(*p), ToDims(*u), &axis);
      if (!err.empty()) return Fail(ctx, err);
    }
    *ctx->GetOutputShape(0) = *p;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *p = ctx->GetRequiredInputTensor(0), *u = ctx->GetRequiredInputTensor(1);
    if (p == nullptr || u == nullptr) return Fail(ctx, "inputs past_cache and update are required");
    const gert::Tensor *wi = ctx->GetOptionalInputTensor(2);
    const Dims pd = ToDims(p->GetStorageShape()), ud = ToDims(u->GetStorageShape());
    int64_t axis = 0;
    const std::string err = Resolve(ctx, pd, ud, &axis);
    if (!err.empty()) return Fail(ctx, err);
    std::vector<int64_t> idx(static_cast<size_t>(pd[0]), 0);
    if (wi && (!ReadInts(wi, &idx) || static_cast<int64_t>(idx.size()) != pd[0]))
      return Fail(ctx, "write_indices must be int64 [batch = " + std::to_string(pd[0]) + "]");
    const bool circular = AttrStr(ctx, kMode, "linear") == "circular";
    const int64_t len = pd[static_cast<size_t>(axis)], n_upd = ud[static_cast<size_t>(axis)];
    for (int64_t v : idx)
      if (v < 0 || (!circular && v + n_upd > len) || (circular && len == 0 && n_upd > 0))
        return Fail(ctx, "write index " + std::to_string(v) + " with " + std::to_string(n_upd) + " updates does not fit " +
                             std::to_string(len) + " positions (mode linear)");
    gert::Tensor *y = AllocOutput(ctx, 0, pd, p->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int bytes = ge::GetSizeByDataType(p->GetDataType());
    if (bytes < 1 || bytes > 8) return Fail(ctx, "past_cache's dtype has no fixed whole-byte size (strings, sub-byte types)");
    const size_t es = static_cast<size_t>(bytes);
    const auto *src = static_cast<const uint8_t *>(p->GetAddr());
    const auto *up = static_cast<const uint8_t *>(u->GetAddr());
    auto *dst = static_cast<uint8_t *>(y->GetAddr());
    if (NumElements(pd) == 0) return ge::GRAPH_SUCCESS;
    std::memcpy(dst, src, static_cast<size_t>(NumElements(pd)) * es);
    int64_t mid = 1, inner = 1;  // axes between batch and `axis`, and after `axis`
    for (int64_t k = 1; k < axis; ++k) mid *= pd[static_cast<size_t>(k)];
    for (size_t k = static_cast<size_t>(axis) + 1; k < pd.size(); ++k) inner *= pd[k];
    const size_t row = static_cast<size_t>(inner) * es;
    for (int64_t b = 0; b < pd[0]; ++b)
      for (int64_t m = 0; m < mid; ++m)
        for (int64_t s = 0; s < n_upd; ++s) {
          const int64_t pos = circular ? (idx[static_cast<size_t>(b)] + s) % len : idx[static_cast<size_t>(b)] + s;
          std::memcpy(dst + static_cast<size_t>(((b * mid + m) * len + pos) * inner) * es,
                      up + static_cast<size_t>(((b * mid + m) * n_upd + s) * inner) * es, row);
        }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(TensorScatter);

}  // namespace openatc_ops
