// GRU (ONNX GRU-14, also GRU-7): gates z, r, h (W, R and B in that order):
//   z = f(X W_z^T + H R_z^T + Wb_z + Rb_z),  r = f(X W_r^T + H R_r^T + Wb_r + Rb_r)
//   linear_before_reset 0: h~ = g(X W_h^T + (r . H) R_h^T + Rb_h + Wb_h)
//   linear_before_reset 1: h~ = g(X W_h^T + r . (H R_h^T + Rb_h) + Wb_h)
//   H' = (1 - z) . h~ + z . H
// f, g = activations (default Sigmoid, Tanh); directions, layout, clip, sequence_lens, initial_h
// and the optional outputs Y, Y_h as ops/common/recurrent.h describes. float, float16, double.
#include <cmath>

#include "common/recurrent.h"

namespace ge {
REG_OP(GRU)
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
    .ATTR(linear_before_reset, Int, 0)
    .OP_END_FACTORY_REG(GRU);
}  // namespace ge

namespace openatc_ops {
namespace {
using recurrent::Problem;

const recurrent::OpSpec kSpec{3, {"Sigmoid", "Tanh"}, false};

void GruCell(const Problem &pb, int64_t dir, const double *gx, double *h, bool linear_before_reset) {
  const int64_t H = pb.hidden;
  const double *r = &pb.r[static_cast<size_t>(dir * 3 * H * H)], *rb = &pb.b[static_cast<size_t>(dir * 6 * H + 3 * H)];
  const std::vector<double> prev(h, h + H);
  std::vector<double> z(H), rg(H), rh(H);
  for (int64_t j = 0; j < H; ++j) {
    z[j] = pb.Act(dir, 0)(pb.Clip(gx[j] + recurrent::Dot(r + j * H, prev.data(), H) + rb[j]));
    rg[j] = pb.Act(dir, 0)(pb.Clip(gx[H + j] + recurrent::Dot(r + (H + j) * H, prev.data(), H) + rb[H + j]));
    rh[j] = rg[j] * prev[j];
  }
  for (int64_t j = 0; j < H; ++j) {
    const double *rrow = r + (2 * H + j) * H;
    const double lin = linear_before_reset ? rg[j] * (recurrent::Dot(rrow, prev.data(), H) + rb[2 * H + j])
                                           : recurrent::Dot(rrow, rh.data(), H) + rb[2 * H + j];
    const double cand = pb.Act(dir, 1)(pb.Clip(gx[2 * H + j] + lin));
    h[j] = (1.0 - z[j]) * cand + z[j] * prev[j];
  }
}
}  // namespace

class GRU : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return recurrent::InferDataType(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return recurrent::InferShape(ctx, kSpec); }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    Problem pb;
    if (!recurrent::ReadProblem(ctx, kSpec, &pb)) return ge::GRAPH_FAILED;
    const int64_t lbr = AttrInt(ctx, recurrent::kFirstOwnAttr, 0);
    if (lbr != 0 && lbr != 1) return Fail(ctx, "linear_before_reset " + std::to_string(lbr) + " is not 0 or 1");
    return recurrent::Run(ctx, pb, [lbr](const Problem &p, int64_t d, const double *gx, double *h, double *) {
      GruCell(p, d, gx, h, lbr == 1);
    });
  }
};
REG_AUTO_MAPPING_OP(GRU);

}  // namespace openatc_ops
