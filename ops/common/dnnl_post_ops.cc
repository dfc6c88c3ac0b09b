// oneDNN post-ops from the fusion attributes (dnnl_post_ops.h).
#include "common/dnnl_post_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>

namespace openatc_ops::dnnl_util {
namespace {

const std::map<std::string, dnnl::algorithm> &Eltwise() {
  static const std::map<std::string, dnnl::algorithm> m = {
      {"eltwise_relu", dnnl::algorithm::eltwise_relu},           {"eltwise_clip", dnnl::algorithm::eltwise_clip},
      {"eltwise_linear", dnnl::algorithm::eltwise_linear},       {"eltwise_logistic", dnnl::algorithm::eltwise_logistic},
      {"eltwise_tanh", dnnl::algorithm::eltwise_tanh},           {"eltwise_elu", dnnl::algorithm::eltwise_elu},
      {"eltwise_hardswish", dnnl::algorithm::eltwise_hardswish},
  };
  return m;
}

// The exact bits of `f` (a key must tell every float apart).
uint32_t Bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

}  // namespace

std::string ParsePostOps(const std::vector<std::string> &algs, const std::vector<float> &alpha,
                         const std::vector<float> &beta, std::vector<PostOpSpec> *out) {
  if (alpha.size() != algs.size() || beta.size() != algs.size())
    return "openatc_post_ops has " + std::to_string(algs.size()) + " entries but openatc_post_alpha " +
           std::to_string(alpha.size()) + " and openatc_post_beta " + std::to_string(beta.size());
  out->clear();
  int adds = 0;
  for (size_t i = 0; i < algs.size(); ++i) {
    if (algs[i] == "binary_add") {
      ++adds;
    } else if (!Eltwise().count(algs[i])) {
      return "unknown post-op '" + algs[i] + "' in openatc_post_ops";
    }
    for (size_t j = 0; j < i; ++j)
      if (algs[j] == algs[i] && algs[i] != "binary_add")
        return "openatc_post_ops names " + algs[i] + " twice: oneDNN 2.6's jit convolutions apply the first one's "
               "parameters to both (a wrong result), so atc never fuses a second one; recompile the model";
    out->push_back({algs[i], alpha[i], beta[i]});
  }
  if (adds > 1) return "openatc_post_ops has more than one binary_add";
  return "";
}

dnnl::post_ops BuildPostOps(const std::vector<PostOpSpec> &ops, const dnnl::memory::desc &addend, bool sum) {
  dnnl::post_ops po;
  for (const auto &op : ops) {
    if (op.alg == "binary_add" && sum) {
      po.append_sum(1.0f);
    } else if (op.alg == "binary_add") {
      po.append_binary(dnnl::algorithm::binary_add, addend);
    } else {
      po.append_eltwise(1.0f, Eltwise().at(op.alg), op.alpha, op.beta);
    }
  }
  return po;
}

int BinaryAddIndex(const std::vector<PostOpSpec> &ops) {
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].alg == "binary_add") return static_cast<int>(i);
  return -1;
}

Dims PostOpsKey(const std::vector<PostOpSpec> &ops) {
  Dims k;
  k.reserve(3 * ops.size());
  for (const auto &op : ops) {
    const auto it = Eltwise().find(op.alg);
    k.push_back(static_cast<int64_t>(it == Eltwise().end() ? dnnl::algorithm::binary_add : it->second));
    k.push_back(Bits(op.alpha));
    k.push_back(Bits(op.beta));
  }
  return k;
}

float ApplyPostOp(const PostOpSpec &op, float v, float add) {
  const std::string &a = op.alg;
  if (std::isnan(v)) return v;
  if (a == "eltwise_relu") return v > 0 ? v : (op.alpha == 0.0f ? 0.0f : op.alpha * v);  // Relu(-inf) = 0
  if (a == "eltwise_clip") return std::min(std::max(v, op.alpha), op.beta);
  if (a == "eltwise_linear") return op.alpha * v + op.beta;
  if (a == "eltwise_logistic") return 1.0f / (1.0f + std::exp(-v));
  if (a == "eltwise_tanh") return std::tanh(v);
  if (a == "eltwise_elu") return v >= 0 ? v : op.alpha * std::expm1(v);
  if (a == "eltwise_hardswish") return v * std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f;
  return v + add;  // binary_add
}

}  // namespace openatc_ops::dnnl_util
