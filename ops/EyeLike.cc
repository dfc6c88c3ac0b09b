// EyeLike (ONNX EyeLike-9): a 2-D tensor of the shape of `input` with ones on the k-th diagonal
// (col - row == k; k > 0 above the main one) and zeros elsewhere. Output dtype: the ONNX type
// number of attribute `dtype` when set, else input's; float16/float/double, int8..uint64, bool.
#include "common/index_util.h"

namespace ge {
REG_OP(EyeLike)
    .INPUT(input, TensorType::ALL())
    .OUTPUT(output, TensorType::ALL())
    .ATTR(dtype, Int, 0)
    .ATTR(k, Int, 0)
    .OP_END_FACTORY_REG(EyeLike);
}  // namespace ge

namespace openatc_ops {
namespace {
// Output dtype; DT_UNDEFINED after Fail when unsupported.
ge::DataType OutType(const gert::ExtendedKernelContext *ctx, ge::DataType in) {
  const int64_t code = AttrInt(ctx, 0, 0);
  const ge::DataType d = code == 0 ? in : DtypeFromOnnx(code);
  if (d == ge::DT_UNDEFINED || d == ge::DT_BF16 || !IsOnnxDtype(d)) {
    Fail(ctx, code == 0 ? "input dtype " + DtypeName(in) + " is not supported"
                        : "dtype " + std::to_string(code) + " is not a supported ONNX tensor type");
    return ge::DT_UNDEFINED;
  }
  return d;
}

template <typename T>
void Fill(T *p, int64_t rows, int64_t cols, int64_t k) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) p[i * cols + j] = j - i == k ? T(1) : T(0);
}
}  // namespace

class EyeLike : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType d = OutType(ctx, ctx->GetInputDataType(0));
    if (d == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    return ctx->SetOutputDataType(0, d);
  }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0);
    if (x == nullptr) return Fail(ctx, "input expected");
    const Dims d = ToDims(*x);
    if (d.size() != 2 && !(d.size() == 1 && d[0] == -2)) return Fail(ctx, "input " + DimsToString(d) + " must be 2-D");
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0);
    if (x == nullptr) return Fail(ctx, "input is missing");
    const Dims d = TensorDims(*x);
    if (d.size() != 2) return Fail(ctx, "input " + DimsToString(d) + " must be 2-D");
    const ge::DataType dt = OutType(ctx, x->GetDataType());
    if (dt == ge::DT_UNDEFINED) return ge::GRAPH_FAILED;
    gert::Tensor *y = AllocChecked(ctx, 0, d, dt);
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t k = AttrInt(ctx, 1, 0);
    switch (dt) {
      OPENATC_OPS_FLOAT_CASES(Fill<T>(y->GetData<T>(), d[0], d[1], k))
      OPENATC_OPS_INT_CASES(Fill<T>(y->GetData<T>(), d[0], d[1], k))
      OPENATC_OPS_BOOL_CASES(Fill<T>(y->GetData<T>(), d[0], d[1], k))
      default:
        return Fail(ctx, "unsupported output dtype " + DtypeName(dt));
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(EyeLike);

}  // namespace openatc_ops
