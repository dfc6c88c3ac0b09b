// BiasAdd (GE alias for GE graphs; TensorFlow's BiasAdd as GE's prototype defines it):
// y = x + bias, with the 1-D bias broadcast along the channel axis of x: axis 1 when data_format
// is NCHW or NCDHW, the last axis when it is NHWC (GE's default) or NDHWC. x has rank >= 2;
// bias has as many values as that axis. Number dtypes (integer addition wraps).
#include "common/elementwise.h"

namespace ge {
REG_OP(BiasAdd)
    .INPUT(x, TensorType::NumberType())
    .INPUT(bias, TensorType::NumberType())
    .OUTPUT(y, TensorType::NumberType())
    .ATTR(data_format, String, "NHWC")
    .OP_END_FACTORY_REG(BiasAdd);
}  // namespace ge

namespace openatc_ops {
namespace {
enum BiasAddAttr { kDataFormat };

// The channel axis of `x` (rank `rank`) for the node's data_format; "" or the reason.
std::string ChannelAxis(const gert::ExtendedKernelContext *ctx, size_t rank, size_t *axis) {
  const std::string f = AttrStr(ctx, kDataFormat, "NHWC");
  if (f != "NHWC" && f != "NCHW" && f != "NDHWC" && f != "NCDHW")
    return "data_format '" + f + "' is not supported: use NHWC, NCHW, NDHWC or NCDHW";
  if (rank < 2) return "x must have rank >= 2; got rank " + std::to_string(rank);
  *axis = (f == "NCHW" || f == "NCDHW") ? 1 : rank - 1;
  return "";
}

template <typename T>
void AddAlongAxis(const T *x, const T *b, T *y, int64_t outer, int64_t channels, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t c = 0; c < channels; ++c) {
      const int64_t base = (o * channels + c) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          y[base + i] = static_cast<T>(static_cast<U>(x[base + i]) + static_cast<U>(b[c]));
        } else {
          y[base + i] = T(x[base + i] + b[c]);
        }
      }
    }
}
}  // namespace

class BiasAdd : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    const ge::DataType x = ctx->GetInputDataType(0);
    if (!IsNumber(x)) return Fail(ctx, "x must have a number dtype");
    if (ctx->GetInputDataType(1) != x) return Fail(ctx, "bias's dtype differs from x's");
    return ctx->SetOutputDataType(0, x);
  }

  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override {
    const gert::Shape *x = ctx->GetInputShape(0), *b = ctx->GetInputShape(1);
    if (x == nullptr || b == nullptr) return Fail(ctx, "inputs x and bias are required");
    const Dims xd = ToDims(*x), bd = ToDims(*b);
    size_t axis = 0;
    std::string err = ChannelAxis(ctx, xd.size(), &axis);
    if (err.empty()) err = CheckBias(xd, bd, axis);
    if (!err.empty()) return Fail(ctx, err);
    *ctx->GetOutputShape(0) = *x;
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    if (x == nullptr || b == nullptr) return Fail(ctx, "inputs x and bias are required");
    if (x->GetDataType() != b->GetDataType()) return Fail(ctx, "bias's dtype differs from x's");
    const Dims xd = ToDims(x->GetStorageShape()), bd = ToDims(b->GetStorageShape());
    size_t axis = 0;
    std::string err = ChannelAxis(ctx, xd.size(), &axis);
    if (err.empty()) err = CheckBias(xd, bd, axis);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, xd, x->GetDataType());
    if (y == nullptr) return ge::GRAPH_FAILED;
    const int64_t channels = xd[axis];
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < axis; ++i) outer *= xd[i];
    for (size_t i = axis + 1; i < xd.size(); ++i) inner *= xd[i];
    if (outer * channels * inner == 0) return ge::GRAPH_SUCCESS;
    switch (x->GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(AddAlongAxis(x->GetData<T>(), b->GetData<T>(), y->GetData<T>(), outer, channels, inner))
      OPENATC_OPS_INT_CASES(AddAlongAxis(x->GetData<T>(), b->GetData<T>(), y->GetData<T>(), outer, channels, inner))
      default:
        return Fail(ctx, "x must have a number dtype");
    }
    return ge::GRAPH_SUCCESS;
  }

 private:
  static std::string CheckBias(const Dims &x, const Dims &b, size_t axis) {
    if (b.size() != 1) return "bias must be 1-D; got " + DimsToString(b);
    if (x[axis] >= 0 && b[0] >= 0 && x[axis] != b[0])
      return "bias " + DimsToString(b) + " must have " + std::to_string(x[axis]) + " values (axis " +
             std::to_string(axis) + " of x " + DimsToString(x) + ")";
    return "";
  }
};
REG_AUTO_MAPPING_OP(BiasAdd);

}  // namespace openatc_ops
