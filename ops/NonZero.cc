// NonZero (ONNX NonZero-13): the indices of the non-zero elements of `X` as int64 [rank, n]
// (row k holds the axis-k coordinates, elements in row-major order); n depends on the data, so
// InferShape writes [rank, -1] and Execute allocates the real size. A scalar counts as shape [1]
// (as ONNX Runtime does). NaN is non-zero, -0.0 is zero.
#include <vector>

#include "common/movement.h"

namespace ge {
REG_OP(NonZero)
    .INPUT(X, TensorType::ALL())
    .OUTPUT(Y, TensorType({DT_INT64}))
    .OP_END_FACTORY_REG(NonZero);
}  // namespace ge

namespace openatc_ops {
namespace {
// flags[i] = element i is non-zero.
bool NonZeroFlags(const gert::Tensor &x, std::vector<bool> *flags) {
  const int64_t n = x.GetShapeSize();
  flags->assign(static_cast<size_t>(n), false);
  switch (x.GetDataType()) {
    OPENATC_OPS_FLOAT_CASES(const T *p = x.GetData<T>(); for (int64_t i = 0; i < n; ++i)(*flags)[i] = p[i] != T(0))
    OPENATC_OPS_INT_CASES(const T *p = x.GetData<T>(); for (int64_t i = 0; i < n; ++i)(*flags)[i] = p[i] != 0)
    case ge::DT_BOOL: {
      const auto *p = static_cast<const uint8_t *>(x.GetAddr());
      for (int64_t i = 0; i < n; ++i) (*flags)[i] = p[i] != 0;
      break;
    }
    case ge::DT_BF16: {  // zero when all bits but the sign are 0
      const auto *p = static_cast<const uint16_t *>(x.GetAddr());
      for (int64_t i = 0; i < n; ++i) (*flags)[i] = (p[i] & 0x7fff) != 0;
      break;
    }
    default:
      return false;
  }
  return true;
}
}  // namespace

class NonZero : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = ctx->GetInputDataType(0);
    if (!IsOnnxDtype(d)) return Fail(ctx, "unsupported input dtype " + DtypeName(d));
    return ctx->SetOutputDataType(0, ge::DT_INT64);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    const Dims in = ToDims(*x);
    const int64_t rank = in.size() == 1 && in[0] == -2 ? -1 : static_cast<int64_t>(in.empty() ? 1 : in.size());
    *ctx->GetOutputShape(0) = ToShape({rank, -1});
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "one input expected");
    Dims in = TensorDims(*x);
    if (in.empty()) in = {1};
    std::vector<bool> flags;
    if (!NonZeroFlags(*x, &flags)) return Fail(ctx, "unsupported input dtype " + DtypeName(x->GetDataType()));
    int64_t count = 0;
    for (bool f : flags) count += f ? 1 : 0;
    const int64_t rank = static_cast<int64_t>(in.size());
    gert::Tensor *y = AllocChecked(ctx, 0, {rank, count}, ge::DT_INT64);
    if (y == nullptr) return ge::GRAPH_FAILED;
    int64_t *out = y->GetData<int64_t>();
    std::vector<int64_t> idx(in.size(), 0);
    int64_t k = 0;
    for (size_t i = 0; i < flags.size(); ++i) {
      if (flags[i]) {
        for (int64_t a = 0; a < rank; ++a) out[a * count + k] = idx[a];
        ++k;
      }
      for (size_t a = in.size(); a-- > 0;) {
        if (++idx[a] < in[a]) break;
        idx[a] = 0;
      }
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(NonZero);

}  // namespace openatc_ops
