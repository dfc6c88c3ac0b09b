// ConvActivationFusionPass and ConvAddFusionPass: the chain of single-consumer float32 nodes
// after a Conv becomes oneDNN post-ops of the Conv (ops/Conv.cc applies them in order):
//   Relu -> eltwise_relu(0); LeakyRelu(alpha) -> eltwise_relu(alpha); Clip(min, max constant,
//   min <= max) -> eltwise_clip(min, max); HardSigmoid(alpha, beta) -> eltwise_linear(alpha,
//   beta), eltwise_clip(0, 1); HardSwish -> eltwise_hardswish; Sigmoid -> eltwise_logistic;
//   Tanh -> eltwise_tanh; Elu(alpha) -> eltwise_elu(alpha); Mul / Add / Sub by a one-element
//   float32 Const -> eltwise_linear (see Eltwise);
//   Add / two-input Sum with a same-shaped float32 tensor produced before the Conv (so no cycle)
//   -> binary_add, that tensor becoming the Conv's input 3 (openatc_addend; one per Conv).
// Attributes set on the Conv: openatc_post_ops (algorithm names), openatc_post_alpha,
// openatc_post_beta (one value each per post-op) and openatc_fused_nodes (original node names,
// the Conv first). The Conv takes the name of the last fused node.
// An inference BatchNormalization (training_mode 0, one output, float32) takes the activations
// the same way (ConvActivationFusionPass; no binary_add): ops/BatchNormalization.cc applies them
// in its one pass (light_densenet121: BatchNormalization -> Relu before each Conv).
#include <cmath>
#include <limits>

#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

constexpr size_t kMaxPostOps = 8;

struct PostOp {
  std::string alg;
  float alpha = 0.0f, beta = 0.0f;
};

bool ScalarConst(const ir::Graph &g, const ir::Node &n, size_t anchor, float def, float *v) {
  if (anchor >= n.inputs.size() || !n.inputs[anchor].connected()) {
    *v = def;
    return true;
  }
  std::vector<double> vals;
  std::vector<int64_t> shape;
  if (!ConstF32(g, n.inputs[anchor], &vals, &shape) || vals.size() != 1) return false;
  *v = static_cast<float>(vals[0]);
  return true;
}

// The eltwise post-ops computing node `n`, which reads the chain `cur`, or false: an activation
// (input 0 is the chain), or a Mul / Add / Sub of the chain and a one-element Const (x * c ->
// eltwise_linear(c, 0), x + c -> eltwise_linear(1, c), x - c -> eltwise_linear(1, -c): the same
// roundings; PP-LCNet's learnable affine y = s * hardswish(x) + b in ppocr-v4-det).
bool Eltwise(const PassGraph &pg, const ir::Node &n, int32_t cur, std::vector<PostOp> *ops) {
  const std::string &t = n.type;
  if ((t == "Mul" || t == "Add" || t == "Sub") && n.inputs.size() == 2) {
    const size_t k = n.inputs[0].node == cur && n.inputs[0].index == 0 ? 0 : 1;
    if (n.inputs[k].node != cur || n.inputs[k].index != 0 || (t == "Sub" && k != 0)) return false;
    float c = 0.0f;
    if (!n.inputs[1 - k].connected() || !ScalarConst(pg.g, n, 1 - k, 0.0f, &c) || !std::isfinite(c)) return false;
    if (t == "Mul") ops->push_back({"eltwise_linear", c, 0.0f});
    else ops->push_back({"eltwise_linear", 1.0f, t == "Add" ? c : -c});
    return true;
  }
  if (n.inputs.empty() || n.inputs[0].node != cur || (t != "Clip" && n.inputs.size() != 1)) return false;
  if (t == "Relu") ops->push_back({"eltwise_relu", 0.0f, 0.0f});
  else if (t == "LeakyRelu") ops->push_back({"eltwise_relu", FloatAttr(n, "alpha", 0.01f), 0.0f});
  else if (t == "Sigmoid") ops->push_back({"eltwise_logistic", 0.0f, 0.0f});
  else if (t == "Tanh") ops->push_back({"eltwise_tanh", 0.0f, 0.0f});
  else if (t == "Elu") ops->push_back({"eltwise_elu", FloatAttr(n, "alpha", 1.0f), 0.0f});
  else if (t == "HardSwish") ops->push_back({"eltwise_hardswish", 0.0f, 0.0f});
  else if (t == "HardSigmoid") {
    ops->push_back({"eltwise_linear", FloatAttr(n, "alpha", 0.2f), FloatAttr(n, "beta", 0.5f)});
    ops->push_back({"eltwise_clip", 0.0f, 1.0f});
  } else if (t == "Clip") {
    float lo = 0.0f, hi = 0.0f;
    if (!ScalarConst(pg.g, n, 1, std::numeric_limits<float>::lowest(), &lo) ||
        !ScalarConst(pg.g, n, 2, std::numeric_limits<float>::max(), &hi) || !(lo <= hi))
      return false;
    ops->push_back({"eltwise_clip", lo, hi});
  } else {
    return false;
  }
  return true;
}

// The other operand of an Add/Sum `n` reading `cur`, when it can be a binary_add post-op.
bool Addend(const PassGraph &pg, const ir::Node &n, int32_t cur, int32_t conv, ir::Endpoint *other) {
  if ((n.type != "Add" && n.type != "Sum") || n.inputs.size() != 2) return false;
  const size_t k = n.inputs[0].node == cur ? 1 : 0;
  const ir::Endpoint e = n.inputs[k];
  if (!e.connected() || e.node == cur || e.node >= conv) return false;  // produced before the Conv
  const ir::TensorDesc &d = pg.g.nodes[static_cast<size_t>(e.node)].output_descs.at(static_cast<size_t>(e.index));
  const ir::TensorDesc &y = pg.g.nodes[static_cast<size_t>(conv)].output_descs[0];
  for (int64_t v : y.shape)
    if (v < 0) return false;
  if (d.dtype != ge::DT_FLOAT || d.shape != y.shape || n.output_descs[0].shape != y.shape) return false;
  *other = e;
  return true;
}

// True when the eltwise algorithms of `ops` are distinct after merging a trailing pair of
// eltwise_linear into one (a2 (a1 x + b1) + b2 = (a2 a1) x + (a2 b1 + b2), rounded once in float):
// oneDNN 2.6's jit convolutions apply the first post-op's alpha and beta to a later one of the
// same algorithm (ops/common/dnnl_post_ops.h), so such a chain stops before the repeat.
bool Distinct(std::vector<PostOp> *ops) {
  const size_t n = ops->size();
  if (n >= 2 && (*ops)[n - 1].alg == "eltwise_linear" && (*ops)[n - 2].alg == "eltwise_linear") {
    const PostOp a = (*ops)[n - 2], b = (*ops)[n - 1];
    (*ops)[n - 2] = {"eltwise_linear", b.alpha * a.alpha, b.alpha * a.beta + b.beta};
    ops->pop_back();
  }
  for (size_t i = 0; i < ops->size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if ((*ops)[i].alg == (*ops)[j].alg && (*ops)[i].alg != "binary_add") return false;
  return true;
}

void SetPostOpAttrs(ir::Node &c, const std::vector<PostOp> &ops, const std::vector<std::string> &fused) {
  ir::AttrValue algs, alpha, beta;
  algs.kind = ir::AttrKind::kListString;
  alpha.kind = beta.kind = ir::AttrKind::kListFloat;
  for (const auto &op : ops) {
    algs.list_s.push_back(op.alg);
    alpha.list_f.push_back(op.alpha);
    beta.list_f.push_back(op.beta);
  }
  c.attrs["openatc_post_ops"] = algs;
  c.attrs["openatc_post_alpha"] = alpha;
  c.attrs["openatc_post_beta"] = beta;
  SetFusedNames(c, fused);
}

bool FusesBn(const PassGraph &pg, int32_t i) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  return pg.Is(i, "BatchNormalization") && n.inputs.size() == 5 && n.output_descs.size() == 1 &&
         n.output_descs[0].dtype == ge::DT_FLOAT && IntAttr(n, "training_mode", 0) == 0;
}

bool FuseChain(PassGraph &pg, int32_t ci, bool act_on, bool add_on) {
  const ir::Node &conv = pg.node(ci);
  const bool bn = FusesBn(pg, ci);
  if (bn) add_on = false;
  if (!bn && (!pg.Is(ci, "Conv") || conv.inputs.size() < 2 || conv.inputs.size() > 3)) return false;
  if (conv.attrs.count("openatc_post_ops")) return false;
  std::vector<PostOp> ops;
  std::vector<int32_t> chain;
  ir::Endpoint addend;
  int32_t cur = ci;
  while (ops.size() < kMaxPostOps && !pg.GraphOutput(cur)) {  // an intermediate output must stay internal
    const int32_t next = pg.SoleConsumer(cur);
    if (next < 0 || !pg.Is(next, pg.node(next).type.c_str())) break;
    const ir::Node &n = pg.node(next);
    if (n.output_descs.size() != 1 || n.output_descs[0].shape != conv.output_descs[0].shape) break;
    std::vector<PostOp> next_ops = ops;
    if (act_on && Eltwise(pg, n, cur, &next_ops) && Distinct(&next_ops)) {
      ops = next_ops;
    } else if (add_on && !addend.connected() && Addend(pg, n, cur, ci, &addend)) {
      ops.push_back({"binary_add", 0.0f, 0.0f});
    } else {
      break;
    }
    chain.push_back(next);
    cur = next;
  }
  if (chain.empty()) return false;
  std::vector<std::string> fused = FusedNames(conv);
  std::vector<std::string> chain_names;
  for (int32_t i : chain) {
    chain_names.push_back(pg.node(i).name);
    for (const std::string &name : FusedNames(pg.node(i))) fused.push_back(name);  // a HardSwishPatternPass node's 4
  }
  const std::string conv_name = conv.name, tail = pg.node(chain.back()).name;
  ir::Node &c = pg.node(ci);
  SetPostOpAttrs(c, ops, fused);
  if (addend.connected()) pg.SetInput(ci, 3, addend);
  pg.Redirect({chain.back(), 0}, {ci, 0});
  for (int32_t i : chain) pg.Erase(i);
  c.name = tail;
  std::string algs;
  for (const auto &op : ops) algs += (algs.empty() ? "" : ", ") + op.alg;
  LogInfo("pass " + std::string(addend.connected() ? kConvAdd : kConvActivation) + ": fused " +
          JoinNames(chain_names) + " into " + c.type + " '" + conv_name +
          "' as post-ops " + algs + " (fused node '" + tail + "')");
  return true;
}

}  // namespace

size_t RunConvPostOpFusion(PassGraph &pg, bool activations, bool adds) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    if ((pg.g.nodes[i].type == "Conv" || pg.g.nodes[i].type == "BatchNormalization") &&
        FuseChain(pg, static_cast<int32_t>(i), activations, adds))
      ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
