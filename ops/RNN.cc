// RNN (ONNX RNN-14, also RNN-7): the simple recurrent cell H_t = f(X_t W^T + H_{t-1} R^T + Wb + Rb)
// with f = activations[0] (default Tanh), directions forward / reverse / bidirectional, layout 0/1,
// clip, sequence_lens and initial_h; outputs Y and Y_h (each optional). Shared reading, loop and
// output code: ops/common/recurrent.{h,cc}. float, float16 and double.
#include <cmath>

#include "common/recurrent.h"

namespace ge {
REG_OP(RNN)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(W, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(R, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(sequence_lens, TensorType({DT_INT32}))
    .OPTIONAL_INPUT(initial_h, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y_h, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(activation_alpha, ListFloat, {})
    .ATTR(activation_beta, ListFloat, {})
    .ATTR(activations, ListString, {})
    .ATTR(clip, Float, INFINITY)
    .ATTR(direction, String, "forward")
    .ATTR(hidden_size, Int, 0)
    .ATTR(layout, Int, 0)
    .OP_END_FACTORY_REG(RNN);
}  // namespace ge

namespace openatc_ops {
namespace {
using recurrent::Problem;

const recurrent::OpSpec kSpec{1, {"Tanh"}, false};

void RnnCell(const Problem &pb, int64_t dir, const double *gx, double *h, double *) {
  const int64_t H = pb.hidden;
  const double *r = &pb.r[static_cast<size_t>(dir * H * H)], *rb = &pb.b[static_cast<size_t>(dir * 2 * H + H)];
  const std::vector<double> prev(h, h + H);
  for (int64_t j = 0; j < H; ++j) h[j] = pb.Act(dir, 0)(pb.Clip(gx[j] + recurrent::Dot(r + j * H, prev.data(), H) + rb[j]));
}
}  // namespace

class RNN : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return recurrent::InferDataType(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return recurrent::InferShape(ctx, kSpec); }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    Problem pb;
    if (!recurrent::ReadProblem(ctx, kSpec, &pb)) return ge::GRAPH_FAILED;
    return recurrent::Run(ctx, pb, RnnCell);
  }
};
REG_AUTO_MAPPING_OP(RNN);

}  // namespace openatc_ops
