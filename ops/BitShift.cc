// BitShift (ONNX BitShift-11): Z = X << Y (direction "LEFT") or X >> Y ("RIGHT") elementwise on
// unsigned integers (uint8..uint64), with multidirectional broadcasting. Bits shifted out are
// lost; a shift by the bit width or more gives 0 (a C++ shift would be undefined there).
#include "common/math_util.h"

namespace ge {
REG_OP(BitShift)
    .INPUT(X, TensorType({DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64}))
    .INPUT(Y, TensorType({DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64}))
    .OUTPUT(Z, TensorType({DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64}))
    .REQUIRED_ATTR(direction, String)
    .OP_END_FACTORY_REG(BitShift);
}  // namespace ge

namespace openatc_ops {
namespace {

bool IsUnsigned(ge::DataType d) {
  return d == ge::DT_UINT8 || d == ge::DT_UINT16 || d == ge::DT_UINT32 || d == ge::DT_UINT64;
}

template <typename T>
T Shift(T x, T y, bool left) {
  if (y >= sizeof(T) * 8) return T(0);
  const uint64_t v = static_cast<uint64_t>(x);
  return static_cast<T>(left ? v << y : v >> y);
}

// "" for LEFT/RIGHT (sets *left), else the message.
std::string ParseDirection(const std::string &d, bool *left) {
  if (d == "LEFT" || d == "RIGHT") {
    *left = d == "LEFT";
    return "";
  }
  return "direction '" + d + "' must be \"LEFT\" or \"RIGHT\"";
}

}  // namespace

class BitShift : public BinaryElementwiseOp<BitShift> {
 public:
  static bool Accepts(ge::DataType d) { return IsUnsigned(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &, const gert::Tensor &, gert::Tensor &) {
    return ge::GRAPH_FAILED;  // unused: Execute computes with the direction attribute
  }
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override {
    bool left = false;
    const std::string err = ParseDirection(AttrStr(ctx, 0, ""), &left);
    if (!err.empty()) return Fail(ctx, err);
    return BinaryElementwiseOp<BitShift>::InferDataType(ctx);
  }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const gert::Tensor *x = ctx->GetInputTensor(0), *y = ctx->GetInputTensor(1);
    if (x == nullptr || y == nullptr) return Fail(ctx, "two inputs expected");
    bool left = false;
    const std::string err = ParseDirection(AttrStr(ctx, 0, ""), &left);
    if (!err.empty()) return Fail(ctx, err);
    const ge::DataType dt = x->GetDataType();
    if (y->GetDataType() != dt || !IsUnsigned(dt)) return Fail(ctx, "X and Y must share one unsigned integer dtype");
    Dims out;
    if (!BroadcastDims(ToDims(x->GetStorageShape()), ToDims(y->GetStorageShape()), &out))
      return Fail(ctx, "shapes " + DimsToString(ToDims(x->GetStorageShape())) + " and " +
                           DimsToString(ToDims(y->GetStorageShape())) + " do not broadcast");
    gert::Tensor *z = AllocOutput(ctx, 0, out, dt);
    if (z == nullptr) return ge::GRAPH_FAILED;
    switch (dt) {
      case ge::DT_UINT8:
        BinaryBroadcastMixed<uint8_t, uint8_t, uint8_t>(*x, *y, *z,
                                                        [left](uint8_t a, uint8_t b) { return Shift(a, b, left); });
        break;
      case ge::DT_UINT16:
        BinaryBroadcastMixed<uint16_t, uint16_t, uint16_t>(
            *x, *y, *z, [left](uint16_t a, uint16_t b) { return Shift(a, b, left); });
        break;
      case ge::DT_UINT32:
        BinaryBroadcastMixed<uint32_t, uint32_t, uint32_t>(
            *x, *y, *z, [left](uint32_t a, uint32_t b) { return Shift(a, b, left); });
        break;
      case ge::DT_UINT64:
        BinaryBroadcastMixed<uint64_t, uint64_t, uint64_t>(
            *x, *y, *z, [left](uint64_t a, uint64_t b) { return Shift(a, b, left); });
        break;
      default:
        return Fail(ctx, "X and Y must share one unsigned integer dtype");
    }
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(BitShift);

}  // namespace openatc_ops
