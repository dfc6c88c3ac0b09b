// Trilu (ONNX Trilu-14): keeps the upper (upper=1: col - row >= k) or lower (upper=0:
// col - row <= k) triangle of every matrix in the last two dims of `input` (rank >= 2, any
// dtype) and zeroes the rest; k is the optional int64 scalar (or 1-element) input, default 0.
#include <cstring>

#include "common/index_util.h"

namespace ge {
REG_OP(Trilu)
    .INPUT(input, TensorType::ALL())
    .OPTIONAL_INPUT(k, TensorType({DT_INT64}))
    .OUTPUT(output, TensorType::ALL())
    .ATTR(upper, Int, 1)
    .OP_END_FACTORY_REG(Trilu);
}  // namespace ge

namespace openatc_ops {

class Trilu : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return SameDtypeAsInput0(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims d = ToDims(*x);
    if (d.size() < 2 && !(d.size() == 1 && d[0] == -2))
      return Fail(ctx, "input " + DimsToString(d) + " must have rank >= 2");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    const Dims d = TensorDims(*x);
    if (d.size() < 2) return Fail(ctx, "input " + DimsToString(d) + " must have rank >= 2");
    int64_t k = 0;
    if (const gert::Tensor *kt = ctx->GetOptionalInputTensor(1)) {
      std::vector<int64_t> kv;
      if (!ReadIndexInput(ctx, kt, "k", &kv)) return ge::GRAPH_FAILED;
      if (kv.size() != 1) return Fail(ctx, "k must hold one value, got " + std::to_string(kv.size()));
      k = kv[0];
    }
    const bool upper = AttrInt(ctx, 0, 1) != 0;
    const ge::DataType dt = x->GetDataType();
    gert::Tensor *y = AllocChecked(ctx, 0, d, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t rows = d[d.size() - 2], cols = d[d.size() - 1];
    const int64_t mats = Prod(d, 0, d.size() - 2);
    const bool ok = WithElemType(ElemBytes(dt), [&](auto u) {
      using U = decltype(u);
      const U *src = static_cast<const U *>(x->GetAddr());
      U *dst = static_cast<U *>(y->GetAddr());
      for (int64_t m = 0; m < mats; ++m)
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j) {
            const int64_t o = (m * rows + i) * cols + j;
            const bool keep = upper ? j - i >= k : j - i <= k;
            dst[o] = keep ? src[o] : U{0};
          }
    });
    return ok ? ge::GRAPH_SUCCESS : Fail(ctx, "unsupported dtype " + DtypeName(dt));
  }
};
REG_AUTO_MAPPING_OP(Trilu);

}  // namespace openatc_ops
