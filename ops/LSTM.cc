// LSTM (ONNX LSTM-14, also LSTM-7): gates i, o, f, c (W, R and B in that order), peepholes
// P = [P_i, P_o, P_f]:
//   i = f(X W_i^T + H R_i^T + P_i . C + Wb_i + Rb_i),  f_t = f(X W_f^T + H R_f^T + P_f . C + Wb_f + Rb_f)
//   c~ = g(X W_c^T + H R_c^T + Wb_c + Rb_c),            C' = f_t . C + i . c~
//   o = f(X W_o^T + H R_o^T + P_o . C' + Wb_o + Rb_o),  H' = o . h(C')
// input_forget 1 couples the input and forget gates: f_t = 1 - i (as onnxruntime does).
// f, g, h = activations (default Sigmoid, Tanh, Tanh); directions, layout, clip (gate
// pre-activations only), sequence_lens, initial_h / initial_c and the optional outputs Y, Y_h,
// Y_c as ops/common/recurrent.h describes. float, float16, double.
#include <cmath>

#include "common/recurrent.h"

namespace ge {
REG_OP(LSTM)
    .INPUT(X, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(W, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .INPUT(R, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(B, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(sequence_lens, TensorType({DT_INT32}))
    .OPTIONAL_INPUT(initial_h, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(initial_c, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OPTIONAL_INPUT(P, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y_h, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .OUTPUT(Y_c, TensorType({DT_FLOAT, DT_FLOAT16, DT_DOUBLE}))
    .ATTR(activation_alpha, ListFloat, {})
    .ATTR(activation_beta, ListFloat, {})
    .ATTR(activations, ListString, {})
    .ATTR(clip, Float, INFINITY)
    .ATTR(direction, String, "forward")
    .ATTR(hidden_size, Int, 0)
    .ATTR(layout, Int, 0)
    .ATTR(input_forget, Int, 0)
    .OP_END_FACTORY_REG(LSTM);
}  // namespace ge

namespace openatc_ops {
namespace {
using recurrent::Problem;

const recurrent::OpSpec kSpec{4, {"Sigmoid", "Tanh", "Tanh"}, true};

void LstmCell(const Problem &pb, int64_t dir, const double *gx, double *h, double *c, bool input_forget) {
  const int64_t H = pb.hidden;
  const double *r = &pb.r[static_cast<size_t>(dir * 4 * H * H)], *rb = &pb.b[static_cast<size_t>(dir * 8 * H + 4 * H)];
  const double *p = &pb.p[static_cast<size_t>(dir * 3 * H)];
  const std::vector<double> prev(h, h + H);
  auto pre = [&](int64_t gate, int64_t j) {
    return gx[gate * H + j] + recurrent::Dot(r + (gate * H + j) * H, prev.data(), H) + rb[gate * H + j];
  };
  for (int64_t j = 0; j < H; ++j) {
    const double i = pb.Act(dir, 0)(pb.Clip(pre(0, j) + p[j] * c[j]));
    const double f = input_forget ? 1.0 - i : pb.Act(dir, 0)(pb.Clip(pre(2, j) + p[2 * H + j] * c[j]));
    const double cand = pb.Act(dir, 1)(pb.Clip(pre(3, j)));
    c[j] = f * c[j] + i * cand;
    const double o = pb.Act(dir, 0)(pb.Clip(pre(1, j) + p[H + j] * c[j]));
    h[j] = o * pb.Act(dir, 2)(c[j]);
  }
}
}  // namespace

class LSTM : public ge::EagerExecuteOp, public ge::ShapeInferOp {
 public:
  ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx) override { return recurrent::InferDataType(ctx); }
  ge::graphStatus InferShape(gert::InferShapeContext *ctx) override { return recurrent::InferShape(ctx, kSpec); }
  ge::graphStatus Execute(gert::EagerOpExecutionContext *ctx) override {
    Problem pb;
    if (!recurrent::ReadProblem(ctx, kSpec, &pb)) return ge::GRAPH_FAILED;
    const int64_t input_forget = AttrInt(ctx, recurrent::kFirstOwnAttr, 0);
    if (input_forget != 0 && input_forget != 1)
      return Fail(ctx, "input_forget " + std::to_string(input_forget) + " is not 0 or 1");
    return recurrent::Run(ctx, pb, [input_forget](const Problem &q, int64_t d, const double *gx, double *h, double *c) {
      LstmCell(q, d, gx, h, c, input_forget == 1);
    });
  }
};
REG_AUTO_MAPPING_OP(LSTM);

}  // namespace openatc_ops
