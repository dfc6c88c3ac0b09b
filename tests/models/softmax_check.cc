// See softmax_check.h.
#include "softmax_check.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace openatc::testing {

namespace {

std::vector<float> Floats(const tensor_io::HostTensor &t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), v.size() * sizeof(float));
  return v;
}

std::string Shape(const tensor_io::HostTensor &t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : "") + std::to_string(t.shape[i]);
  return s + "]";
}

}  // namespace

bool ExposeSoftmaxInput(const std::string &model_path, const std::string &out_path, SoftmaxHead *head) {
  onnx::ModelProto model;
  {
    std::ifstream in(model_path, std::ios::binary);
    if (!in || !model.ParseFromIstream(&in)) return false;
  }
  int64_t opset = 0;
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  onnx::GraphProto *graph = model.mutable_graph();
  if (graph->output_size() != 1) return false;
  const onnx::ValueInfoProto &out = graph->output(0);
  std::vector<int64_t> dims;
  for (const auto &d : out.type().tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return false;
    dims.push_back(d.dim_value());
  }
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (rank == 0) return false;
  for (const auto &node : graph->node()) {
    if (node.output_size() < 1 || node.output(0) != out.name()) continue;
    if (node.op_type() != "Softmax" || !(node.domain().empty() || node.domain() == "ai.onnx")) return false;
    int64_t axis = opset < 13 ? 1 : -1;
    for (const auto &a : node.attribute())
      if (a.name() == "axis") axis = a.i();
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return false;
    int64_t rows = 1, classes = 1;
    for (int64_t k = 0; k < axis; ++k) rows *= dims[k];
    for (int64_t k = axis; k < rank; ++k) {
      if (opset >= 13 && k > axis && dims[k] != 1) return false;  // a strided reduction: not handled
      classes *= dims[k];
    }
    onnx::ValueInfoProto *logits = graph->add_output();
    *logits = out;
    logits->set_name(node.input(0));
    std::ofstream o(out_path, std::ios::binary);
    if (!model.SerializeToOstream(&o) || !o.good()) return false;
    *head = {rows, classes};
    return true;
  }
  return false;
}

std::string CompareSoftmaxHead(const SoftmaxHead &head, const tensor_io::HostTensor &logits,
                               const tensor_io::HostTensor &probs, const tensor_io::HostTensor &reference,
                               const SoftmaxTolerance &tol, std::string *note) {
  if (logits.dtype != ge::DT_FLOAT || reference.dtype != ge::DT_FLOAT || probs.dtype != ge::DT_FLOAT)
    return "logits, probabilities and reference must be float32";
  if (logits.shape != reference.shape || probs.shape != reference.shape)
    return "shapes differ: logits " + Shape(logits) + ", probabilities " + Shape(probs) + ", reference " +
           Shape(reference);
  const size_t rows = static_cast<size_t>(head.rows), cols = static_cast<size_t>(head.classes);
  const std::vector<float> x = Floats(logits), ref = Floats(reference);
  if (x.size() != rows * cols || ref.size() != rows * cols)
    return "the output is not " + std::to_string(rows) + " x " + std::to_string(cols);
  const double log_tiny = std::log(static_cast<double>(FLT_MIN));
  double worst_excess = -1, max_logit = 0;
  std::ostringstream why;
  for (size_t r = 0; r < rows; ++r) {
    const float *row = x.data() + r * cols;
    double m = -INFINITY, mag = 0;
    for (size_t i = 0; i < cols; ++i) {
      if (!std::isfinite(row[i])) return "logit " + std::to_string(r * cols + i) + " is not finite";
      m = std::max(m, static_cast<double>(row[i]));
      mag = std::max(mag, std::fabs(static_cast<double>(row[i])));
    }
    max_logit = std::max(max_logit, mag);
    double sum = 0;
    for (size_t i = 0; i < cols; ++i) sum += std::exp(static_cast<double>(row[i]) - m);
    const double lse = m + std::log(sum);
    const double allowed = tol.logit_rtol * mag + tol.logit_atol;
    for (size_t i = 0; i < cols; ++i) {
      const double ours = static_cast<double>(row[i]) - lse;
      const double p = ref[r * cols + i];
      // A reference probability below FLT_MIN carries no usable log: ours must be as small.
      const double excess = p >= FLT_MIN ? std::fabs(ours - std::log(p)) - allowed : ours - (log_tiny + allowed);
      if (excess > worst_excess) {
        worst_excess = excess;
        if (excess > 0) {
          why.str("");
          why << "log-probability of element " << r * cols + i << ": ours " << ours << ", reference log(" << p
              << "); allowed difference " << allowed << " (" << tol.logit_rtol << " x max|logit| " << mag << " + "
              << tol.logit_atol << ")";
        }
      }
    }
  }
  if (worst_excess > 0) return why.str();
  // Relative change of p_i from logit errors of size d is at most ~2d: compare only when that is
  // within the probability tolerance.
  const double d = tol.logit_rtol * max_logit + tol.logit_atol;
  if (2 * d > tol.prob_rtol) {
    std::ostringstream n;
    n << "probabilities not compared: ill-conditioned (max|logit| " << max_logit << ")";
    *note = n.str();
    return "";
  }
  const tensor_io::Comparison c = tensor_io::Compare(probs, reference, tol.prob_atol, tol.prob_rtol);
  if (!c.ok) {
    std::ostringstream w;
    w << "probabilities differ: max abs err " << c.max_abs << " (first at element " << c.first_bad_index << ")";
    return w.str();
  }
  *note = "probabilities compared too";
  return "";
}

}  // namespace openatc::testing
