// Deciding a model whose output is a Softmax on well-conditioned values.
//
// onnx-light's models (../shared/models/onnx-light) replace every weight by a constant, so their
// logits can reach ~1e9 while differing between classes only by rounding. Softmax then turns a few
// ulps of its input into probabilities of 0.25 against 0.001: which kernel oneDNN picks for this CPU
// decides the result, and a comparison of probabilities decides nothing. What the reference does
// determine well is the log-probability: log p_i = x_i - logsumexp(x), which fixes the logits up to
// one constant per row. So the test exposes the Softmax's input as an extra graph output, computes
// log-softmax of OpenATC's logits in double, and compares it with log(reference) to a tolerance set
// by the precision the fp32 logits can carry (rel x max|x| per row, plus abs). Probabilities are
// compared directly as well, but only where that comparison is well-conditioned: when the logit
// tolerance is below the probability tolerance.
#ifndef OPENATC_TESTS_MODELS_SOFTMAX_CHECK_H_
#define OPENATC_TESTS_MODELS_SOFTMAX_CHECK_H_

#include <cstdint>
#include <string>

#include "openatc/tensor_io/tensor_io.h"

namespace openatc::testing {

/// Where the softmax runs, as a [rows, classes] view of the contiguous output.
struct SoftmaxHead {
  int64_t rows = 0, classes = 0;
};

/// When the model's only graph output is produced by a Softmax whose reduction is a contiguous
/// run of the output (opset < 13: the dims from `axis` on, flattened; opset >= 13: `axis` with
/// only 1s after it), writes a copy of the model to `out_path` with the Softmax's input appended
/// as a second graph output and returns true with `*head` set. Otherwise returns false and
/// writes nothing.
bool ExposeSoftmaxInput(const std::string &model_path, const std::string &out_path, SoftmaxHead *head);

struct SoftmaxTolerance {
  double logit_rtol = 1e-5;  ///< of max |logit| per row: a few hundred fp32 ulps of accumulation
  double logit_atol = 1e-4;  ///< absolute, in log-probability
  double prob_atol = 1e-4, prob_rtol = 1e-3;
};

/// "" when `logits` (float32, viewed as `head`) agree with `reference` probabilities in log space
/// and, where well-conditioned, `probs` agree with `reference`; else what differs. `*note` says
/// whether the probabilities were compared or why not.
std::string CompareSoftmaxHead(const SoftmaxHead &head, const tensor_io::HostTensor &logits,
                               const tensor_io::HostTensor &probs,
                               const tensor_io::HostTensor &reference, const SoftmaxTolerance &tol,
                               std::string *note);

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_MODELS_SOFTMAX_CHECK_H_
