// Mul (ONNX Mul-14): C = A * B with multidirectional broadcasting; float, float16 (computed in
// float, rounded once), double and integer types (integer overflow wraps, two's complement).
// openatc_chain_layout = 1 (atc's LayoutPlanningPass): a float32 per-channel product whose 4-D
// operand and result are in the chain layout of openatc_chain_block (ops/common/chain_scale.h).
#include "common/chain_scale.h"
#include "common/conv_layout.h"
#include "common/math_util.h"

namespace ge {
REG_OP(Mul)
    .INPUT(A, TensorType::RealNumberType())
    .INPUT(B, TensorType::RealNumberType())
    .OUTPUT(C, TensorType::RealNumberType())
    .ATTR(openatc_chain_layout, Int, 0)
    .ATTR(openatc_chain_block, Int, 8)
    .OP_END_FACTORY_REG(Mul);
}  // namespace ge

namespace openatc_ops {

class Mul : public BinaryElementwiseOp<Mul> {
 public:
  static bool Accepts(ge::DataType d) { return IsNumber(d); }
  static ge::DataType OutType(ge::DataType d) { return d; }
  static ge::graphStatus Compute(const gert::Tensor &a, const gert::Tensor &b, gert::Tensor &c) {
    switch (a.GetDataType()) {
      OPENATC_OPS_FLOAT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) {
        return static_cast<T>(static_cast<ComputeType<T>>(x) * static_cast<ComputeType<T>>(y));
      }))
      OPENATC_OPS_INT_CASES(BinaryBroadcastMixed<T, T, T>(a, b, c, [](T x, T y) { return WrapMul(x, y); }))
      default:
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
  }

  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    const int64_t block = NodeChainBlock(ctx, 0, 1);
    if (block == 0) return BinaryElementwiseOp<Mul>::Execute(ctx);
    const gert::Tensor *a = ctx->GetInputTensor(0), *b = ctx->GetInputTensor(1);
    if (a == nullptr || b == nullptr) return Fail(ctx, "two inputs expected");
    if (a->GetDataType() != ge::DT_FLOAT || b->GetDataType() != ge::DT_FLOAT)
      return Fail(ctx, "openatc_chain_layout needs float32 operands");
    const Dims ad = ToDims(a->GetStorageShape()), bd = ToDims(b->GetStorageShape());
    const bool a_full = !(ad.size() == 4 && ad[2] == 1 && ad[3] == 1) || (bd.size() == 4 && bd[2] == 1 && bd[3] == 1);
    const gert::Tensor &x = a_full ? *a : *b, &s = a_full ? *b : *a;
    const Dims &xd = a_full ? ad : bd, &sd = a_full ? bd : ad;
    Dims yd;
    const std::string err = ChainScaleDims(xd, sd, block, &yd);
    if (!err.empty()) return Fail(ctx, err);
    gert::Tensor *y = AllocOutput(ctx, 0, yd, ge::DT_FLOAT);
    if (y == nullptr) return ge::GRAPH_FAILED;
    if (NumElements(yd) == 0) return ge::GRAPH_SUCCESS;
    ChainScale(x.GetData<float>(), s.GetData<float>(), sd, yd, block, y->GetData<float>());
    return ge::GRAPH_SUCCESS;
  }
};
REG_AUTO_MAPPING_OP(Mul);

}  // namespace openatc_ops
