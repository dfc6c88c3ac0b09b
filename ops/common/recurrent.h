/**
 * @file ops/common/recurrent.h
 * Shared code of the recurrent built-in ops (ops/RNN.cc, ops/GRU.cc, ops/LSTM.cc): the activation
 * functions, reading and checking the inputs and attributes every one of them has, and the loop
 * over directions, batch rows and time steps. Computation is in double; outputs take X's dtype.
 *
 * ONNX facts (docs/Operators.md, RNN-14 / GRU-14 / LSTM-14):
 *  - inputs X, W, R, B, sequence_lens, initial_h (LSTM: initial_c, P) in that order; B,
 *    sequence_lens and the initial states are optional (zeros / the full length);
 *  - layout 0: X [seq, batch, input], Y [seq, dirs, batch, hidden], Y_h/Y_c [dirs, batch, hidden];
 *    layout 1: X [batch, seq, input], Y [batch, seq, dirs, hidden], Y_h/Y_c [batch, dirs, hidden];
 *  - W [dirs, G*hidden, input], R [dirs, G*hidden, hidden], B [dirs, 2*G*hidden] (Wb then Rb),
 *    G = 1 (RNN), 3 (GRU), 4 (LSTM);
 *  - `clip` bounds every gate pre-activation to [-clip, clip]; absent means no clip;
 *  - activations: Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh,
 *    HardSigmoid, Elu, Softsign, Softplus (names matched case-insensitively, as onnxruntime
 *    does). activation_alpha / activation_beta are consumed in order by the activations that take
 *    an alpha (beta), as onnxruntime does, and surplus values are refused; missing values take
 *    the defaults of the ONNX operator of the same name (LeakyRelu 0.01, ThresholdedRelu 1,
 *    HardSigmoid 0.2 / 0.5, Elu 1; Affine 1 / 0 and ScaledTanh 1 / 1). A bidirectional node may list one direction's activations,
 *    which then serve both directions (onnxruntime's rule), with the same alpha and beta values.
 *  - sequence_lens[b] in [0, seq]: row b runs its first sequence_lens[b] steps (the reverse
 *    direction starts at step sequence_lens[b] - 1); Y is 0 past them; Y_h / Y_c hold the last
 *    state computed (the initial state when the length is 0).
 */
#ifndef OPENATC_OPS_COMMON_RECURRENT_H_
#define OPENATC_OPS_COMMON_RECURRENT_H_

#include <functional>
#include <string>
#include <vector>

#include "common/op_util.h"

namespace openatc_ops::recurrent {

/// One activation function with its alpha and beta.
struct Activation {
  int kind = 0;
  double alpha = 0.0, beta = 0.0;
  double operator()(double x) const;
};

/// Attribute indices shared by the three ops (their REG_OPs list these first, in this order).
enum AttrIndex : size_t { kAlpha = 0, kBeta, kActivations, kClip, kDirection, kHiddenSize, kLayout, kFirstOwnAttr };

/// What a cell needs: sizes, the inputs in layout 0 as doubles, the activations per direction.
struct Problem {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1, gates = 1;
  bool layout1 = false;
  bool reverse = false;  ///< direction "reverse" (bidirectional: direction 1 runs reversed)
  double clip = 0.0;
  bool has_clip = false;
  std::vector<double> x;   ///< [seq][batch][input]
  std::vector<double> w;   ///< [dirs][gates*hidden][input]
  std::vector<double> r;   ///< [dirs][gates*hidden][hidden]
  std::vector<double> b;   ///< [dirs][2*gates*hidden] (zeros when B is absent)
  std::vector<int64_t> lens;  ///< [batch]
  std::vector<double> h0, c0;  ///< [dirs][batch][hidden] (zeros when absent)
  std::vector<double> p;       ///< LSTM peepholes [dirs][3*hidden] (zeros when absent)
  std::vector<Activation> acts;  ///< [dirs][per_dir]
  size_t per_dir = 1;

  double Clip(double v) const { return has_clip ? (v < -clip ? -clip : (v > clip ? clip : v)) : v; }
  const Activation &Act(int64_t dir, size_t i) const { return acts[static_cast<size_t>(dir) * per_dir + i]; }
};

/// The op's own description: its gate count, default activations and whether it has a cell state.
struct OpSpec {
  int64_t gates;
  std::vector<std::string> default_acts;
  bool lstm;
};

/// Reads and checks inputs and attributes of a recurrent node; false after Fail on a bad input.
bool ReadProblem(gert::EagerOpExecutionContext *ctx, const OpSpec &spec, Problem *pb);

/// One time step of one batch row in direction `dir`: `gx` holds W*x_t + Wb (gates*hidden values);
/// the cell updates `h` (and `c` for LSTM) in place.
using Cell = std::function<void(const Problem &pb, int64_t dir, const double *gx, double *h, double *c)>;

/// Runs every direction and batch row through `cell`, writes the node's outputs (Y, Y_h, Y_c as
/// many as the node lists) in X's dtype and layout.
ge::graphStatus Run(gert::EagerOpExecutionContext *ctx, const Problem &pb, const Cell &cell);

/// Output shapes and dtypes at compile time (unknown dims -1).
ge::graphStatus InferShape(gert::InferShapeContext *ctx, const OpSpec &spec);
ge::graphStatus InferDataType(gert::InferDataTypeContext *ctx);

/// sum_k row[k] * v[k] over n values.
inline double Dot(const double *row, const double *v, int64_t n) {
  double s = 0.0;
  for (int64_t k = 0; k < n; ++k) s += row[k] * v[k];
  return s;
}

}  // namespace openatc_ops::recurrent

#endif  // OPENATC_OPS_COMMON_RECURRENT_H_
