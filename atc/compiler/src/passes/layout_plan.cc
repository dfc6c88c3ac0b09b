// LayoutPlanningPass: which Convs compute in oneDNN's blocked layouts and which tensors stay in
// the chain layout between layout-aware nodes (ops/common/conv_layout.h says what the run time
// does with each attribute).
//   A Conv is blockable when it is 2-D, float32, with known channel counts, and its W and B (if any) are
//   Consts: it gets openatc_layout = "blocked" and openatc_weights_id (FNV-1a of W's and B's
//   bytes, never 0), so its reordered weights are packed once.
//   A tensor (output 0) stays in the chain layout when it is 4-D float32 with a known
//   channel count that is a multiple of 8, is no graph output, its producer is a blockable Conv
//   or a layout-neutral node (Relu-like unary ops, Add/Sum/Sub/Mul/Div/Max/Min of same-shape
//   operands or with a one-element operand, Concat on axis 1), a squeeze-excitation Mul of a
//   4-D tensor by per-channel weights [N|1, C, 1, 1] (openatc_chain_layout = 1; the weights'
//   bytes are the same in both layouts), an inference BatchNormalization (float32 [C] parameters;
//   openatc_chain_layout = 1) or a float32 MaxPool (no Indices) / AveragePool / GlobalAveragePool /
//   GlobalMaxPool, whose data input(s) all stay in the chain layout, and every reader is a
//   blockable Conv (as X, or as the fused addend of a Conv whose Y is blocked) or such a node
//   whose output stays in the chain layout. A global pool's output [N, C, 1, 1], and any pool's
//   whose static H and W are 1 (an AveragePool or MaxPool whose window covers the map, as
//   exporters write the global pool of ResNet and Inception), has the same bytes in both
//   layouts, so any node may read it, and it may be a graph output. So reorders happen only inside the Convs at a
//   chain's boundary (plain input or plain output) and never on graph edges.
// Attributes: Convs get openatc_x_blocked / openatc_y_blocked / openatc_addend_blocked; pools,
// BatchNormalizations and squeeze-excitation Muls in a chain openatc_chain_layout = 1; every node whose output stays in the chain layout gets
// _openatc_layout = "blocked" (informational). A chain is a connected set of chain tensors with the
// nodes that write and read them; when every one of its tensors has a multiple of 16 channels,
// each of those nodes gets openatc_chain_block = 16 (the run time may then use nChw16c).
#include <cstring>

#include "openatc/chain_block.h"
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

// The run time's chain layout is nChw8c or nChw16c (openatc/chain_block.h): a chain tensor's
// channel count is a multiple of 8, and a chain is marked 16-wide when all of its are multiples of 16.
constexpr int64_t kChainBlock = 8, kWideChainBlock = 16;

// 4-D float32 with a known channel count (N, H, W may be known only at run time: a chain
// tensor's bytes equal its plain form's whatever they are).
bool Rank4(const ir::TensorDesc &d) { return d.dtype == ge::DT_FLOAT && d.shape.size() == 4 && d.shape[1] > 0; }

bool Static(const ir::TensorDesc &d) {
  for (int64_t v : d.shape)
    if (v < 0) return false;
  return true;
}

// The bytes of the Const feeding `e`, or nullptr.
const ir::Bytes *ConstBytes(const ir::Graph &g, const ir::Endpoint &e) {
  if (!e.connected()) return nullptr;
  const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return nullptr;
  auto it = p.attrs.find("value");
  if (it == p.attrs.end() || it->second.kind != ir::AttrKind::kTensor || !it->second.t) return nullptr;
  return &it->second.t->data;
}

uint64_t Fnv(uint64_t h, const ir::Bytes &b) {
  for (size_t i = 0; i < b.size; ++i) h = (h ^ b.data[i]) * 1099511628211ull;
  return h;
}

bool BlockableConv(const PassGraph &pg, int32_t i) {
  if (!pg.Is(i, "Conv")) return false;
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  if (n.inputs.size() < 2 || n.inputs.size() > 4 || n.input_descs.empty() || !Rank4(n.input_descs[0]) ||
      !Rank4(n.output_descs[0]) || ConstBytes(pg.g, n.inputs[1]) == nullptr)
    return false;
  return n.inputs.size() < 3 || !n.inputs[2].connected() || ConstBytes(pg.g, n.inputs[2]) != nullptr;
}

bool IsPool(const std::string &t) {
  return t == "MaxPool" || t == "AveragePool" || t == "GlobalAveragePool" || t == "GlobalMaxPool";
}

bool GlobalPool(const std::string &t) { return t == "GlobalAveragePool" || t == "GlobalMaxPool"; }

// A pool whose output [N, C, 1, 1] reads the same in the plain and the blocked layouts (N and C
// any, C a multiple of the block as every chain tensor's): a global pool, or one whose output's
// H and W are 1 at compile time.
bool DualLayoutPool(const ir::Node &n) {
  if (GlobalPool(n.type)) return true;
  if (!IsPool(n.type) || n.output_descs.empty()) return false;
  const std::vector<int64_t> &y = n.output_descs[0].shape;
  return y.size() == 4 && y[2] == 1 && y[3] == 1;
}

bool Scalar(const ir::TensorDesc &d) {
  for (int64_t v : d.shape)
    if (v != 1) return false;
  return true;
}

// The anchor of the 4-D operand of a squeeze-excitation product (a float32 Mul of X, which has
// the output's shape, by S [N|1, C, 1, 1] with the same static C, a multiple of 8), else -1. S's
// bytes are the same in both layouts, so only X is a data input; the Mul computes in the chain
// layout when told so (openatc_chain_layout; ops/common/chain_scale.h).
int PerChannelMul(const PassGraph &pg, int32_t i) {
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  if (!pg.Is(i, "Mul") || n.inputs.size() != 2 || n.input_descs.size() != 2 || n.output_descs.size() != 1 ||
      !Rank4(n.output_descs[0]) || n.output_descs[0].shape[1] % kChainBlock != 0)
    return -1;
  for (int k = 0; k < 2; ++k) {
    const ir::TensorDesc &x = n.input_descs[static_cast<size_t>(k)], &sc = n.input_descs[static_cast<size_t>(1 - k)];
    if (!n.inputs[0].connected() || !n.inputs[1].connected() || n.inputs[static_cast<size_t>(k)].index != 0) continue;
    if (x.shape != n.output_descs[0].shape || !Rank4(sc) || sc.shape[1] != x.shape[1] || sc.shape[2] != 1 ||
        sc.shape[3] != 1 || (x.shape[2] == 1 && x.shape[3] == 1))
      continue;
    return k;
  }
  return -1;
}

// True when Conv `n` keeps its input's N, H and W (stride 1 and pads of dilation * (k - 1) per
// spatial axis, or SAME_* padding), whatever they are at run time: its output then has the same
// run-time (N, H, W) as its input, and its static channel count.
bool KeepsSpatialDims(const ir::Node &n) {
  if (n.inputs.size() < 2 || n.input_descs.size() < 2 || n.input_descs[1].shape.size() != 4) return false;
  const std::vector<int64_t> strides = IntsAttr(n, "strides"), dil = IntsAttr(n, "dilations"), pads = IntsAttr(n, "pads");
  auto ap = n.attrs.find("auto_pad");
  const std::string auto_pad = ap != n.attrs.end() && ap->second.kind == ir::AttrKind::kString ? ap->second.s : "NOTSET";
  for (size_t a = 0; a < 2; ++a) {
    const int64_t k = n.input_descs[1].shape[2 + a], d = dil.size() == 2 ? dil[a] : 1;
    if (k <= 0 || (strides.size() == 2 && strides[a] != 1) || (!strides.empty() && strides.size() != 2)) return false;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") continue;
    const int64_t total = pads.size() == 4 ? pads[a] + pads[a + 2] : 0;
    if ((auto_pad != "NOTSET" && auto_pad != "" && !(auto_pad == "VALID" && k == 1)) || total != d * (k - 1)) return false;
  }
  return true;
}

// The data input anchors of a layout-neutral node or pool (empty: `i` is neither). `root`: per
// node before `i`, the node whose output 0 provably has the same run-time N, H and W as its
// output 0 (through unary and scalar-operand elementwise nodes, squeeze-excitation Muls and
// Convs that keep the spatial dims), so two operands of one root and one static channel count
// never broadcast even when their other dims are known only at run time (residual Adds). A one-element operand
// broadcasts the same in either layout and is no data input.
std::vector<size_t> NeutralInputs(const PassGraph &pg, int32_t i, const std::vector<int32_t> &root) {
  static const char *const kUnary[] = {"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Elu", "HardSwish", "HardSigmoid", "Clip"};
  static const char *const kBinary[] = {"Add", "Sum", "Sub", "Mul", "Div", "Max", "Min"};
  const ir::Node &n = pg.g.nodes[static_cast<size_t>(i)];
  const size_t outs = n.type == "MaxPool" ? 2 : 1;  // MaxPool's Indices: checked below
  if (!pg.Is(i, n.type.c_str()) || n.inputs.empty() || n.output_descs.empty() || n.output_descs.size() > outs ||
      !Rank4(n.output_descs[0]))
    return {};
  for (const char *t : kUnary)
    if (n.type == t) return n.inputs[0].connected() ? std::vector<size_t>{0} : std::vector<size_t>{};
  std::vector<size_t> all;
  for (size_t k = 0; k < n.inputs.size(); ++k) {
    if (!n.inputs[k].connected() || k >= n.input_descs.size()) return {};
    all.push_back(k);
  }
  if (const int k = PerChannelMul(pg, i); k >= 0) return {static_cast<size_t>(k)};
  for (const char *t : kBinary)
    if (n.type == t) {
      std::vector<size_t> data;
      bool known = true, one_root = true;
      for (size_t k : all) {
        const ir::TensorDesc &d = n.input_descs[k];
        if (Scalar(d) && Static(d)) continue;
        if (d.shape != n.output_descs[0].shape || n.inputs[k].index != 0) return {};
        known = known && Static(d);
        one_root = one_root && (data.empty() || root[static_cast<size_t>(n.inputs[k].node)] ==
                                                    root[static_cast<size_t>(n.inputs[data[0]].node)]);
        data.push_back(k);
      }
      if (data.empty() || (data.size() > 1 && !known && !one_root)) return {};  // no broadcasting, also at run time
      return data;
    }
  if (n.type == "BatchNormalization") {  // inference: its [C] parameters read the same in both layouts
    if (n.inputs.size() != 5 || n.output_descs.size() != 1 || IntAttr(n, "training_mode", 0) != 0 ||
        !Rank4(n.input_descs[0]) || n.inputs[0].index != 0)
      return {};
    for (size_t k = 1; k < 5; ++k)
      if (n.input_descs[k].dtype != ge::DT_FLOAT) return {};
    return {0};
  }
  if (IsPool(n.type)) {
    if (n.inputs.size() != 1 || !Rank4(n.input_descs[0])) return {};
    if (n.type == "MaxPool" && (pg.Consumers(i, 1) > 0 || IntAttr(n, "storage_order", 0) != 0)) return {};
    if (n.type == "AveragePool" && n.attrs.count("dilations"))  // dilated: ops/AveragePool.cc's plain loop
      for (int64_t d : n.attrs.at("dilations").list_i)
        if (d != 1) return {};
    return {0};
  }
  if (n.type == "Concat" && (IntAttr(n, "axis", 1) == 1 || IntAttr(n, "axis", 1) == -3)) {
    for (const auto &d : n.input_descs)
      if (!Rank4(d) || d.shape[1] % kChainBlock != 0) return {};
    return all;
  }
  return {};
}

// Readers of output 0 of every node: (consumer, anchor).
std::vector<std::vector<std::pair<int32_t, size_t>>> Readers(const PassGraph &pg) {
  std::vector<std::vector<std::pair<int32_t, size_t>>> r(pg.g.nodes.size());
  for (size_t c = 0; c < pg.g.nodes.size(); ++c) {
    if (pg.erased[c]) continue;
    const auto &in = pg.g.nodes[c].inputs;
    for (size_t k = 0; k < in.size(); ++k)
      if (in[k].connected() && in[k].index == 0) r[static_cast<size_t>(in[k].node)].emplace_back(static_cast<int32_t>(c), k);
  }
  return r;
}

struct Plan {
  std::vector<bool> conv, chain;
  std::vector<std::vector<size_t>> neutral;
};

// One removal sweep; true when something left the chain set.
bool Sweep(const PassGraph &pg, const std::vector<std::vector<std::pair<int32_t, size_t>>> &readers, Plan &pl) {
  bool changed = false;
  for (size_t i = 0; i < pl.chain.size(); ++i) {
    if (!pl.chain[i]) continue;
    const bool dual = DualLayoutPool(pg.g.nodes[i]);  // its output reads the same in both layouts
    bool ok = dual || !pg.GraphOutput(static_cast<int32_t>(i));
    for (size_t k : pl.neutral[i]) {
      const ir::Endpoint e = pg.g.nodes[i].inputs[k];
      ok = ok && e.index == 0 && pl.chain[static_cast<size_t>(e.node)];
    }
    for (const auto &[c, anchor] : readers[i]) {
      if (dual) break;
      const size_t cu = static_cast<size_t>(c);
      const bool as_x = pl.conv[cu] && anchor == 0, as_add = pl.conv[cu] && anchor == 3 && pl.chain[cu];
      bool as_neutral = pl.chain[cu] && !pl.neutral[cu].empty();
      if (as_neutral) {
        as_neutral = false;
        for (size_t k : pl.neutral[cu]) as_neutral = as_neutral || k == anchor;
      }
      if (ok && !(as_x || as_add || as_neutral))
        LogDebug("pass " + std::string(kLayoutPlan) + ": '" + pg.g.nodes[i].name + "' stays plain: read by '" +
                 pg.g.nodes[cu].name + "' (" + pg.g.nodes[cu].type + ") input " + std::to_string(anchor));
      ok = ok && (as_x || as_add || as_neutral);
    }
    if (!ok) {
      pl.chain[i] = false;
      changed = true;
    }
  }
  return changed;
}

void MarkConv(PassGraph &pg, int32_t i, const Plan &pl) {
  ir::Node &n = pg.node(i);
  uint64_t h = Fnv(14695981039346656037ull, *ConstBytes(pg.g, n.inputs[1]));
  if (n.inputs.size() > 2 && n.inputs[2].connected()) h = Fnv(h, *ConstBytes(pg.g, n.inputs[2]));
  auto blocked_in = [&](size_t k) {
    return k < n.inputs.size() && n.inputs[k].connected() && n.inputs[k].index == 0 &&
           pl.chain[static_cast<size_t>(n.inputs[k].node)];
  };
  SetStr(n, "openatc_layout", "blocked");
  SetInt(n, "openatc_weights_id", static_cast<int64_t>(h == 0 ? 1 : h));
  SetInt(n, "openatc_x_blocked", blocked_in(0));
  SetInt(n, "openatc_y_blocked", pl.chain[static_cast<size_t>(i)]);
  SetInt(n, "openatc_addend_blocked", blocked_in(3));
  LogInfo("pass " + std::string(kLayoutPlan) + ": Conv '" + n.name + "' computes in a blocked layout (input " +
          (blocked_in(0) ? "blocked" : "plain") + ", output " + (pl.chain[static_cast<size_t>(i)] ? "blocked" : "plain") + ")");
}

int32_t Find(std::vector<int32_t> &up, int32_t i) {
  while (up[static_cast<size_t>(i)] != i) i = up[static_cast<size_t>(i)] = up[static_cast<size_t>(up[static_cast<size_t>(i)])];
  return i;
}

// openatc_chain_block = 16 on every layout-aware node of each chain whose tensors all have a
// multiple of 16 channels (the chain's nodes must agree on the block: they pass its bytes on
// unchanged). Returns the number of nodes marked.
size_t MarkWideChains(PassGraph &pg, const std::vector<std::vector<std::pair<int32_t, size_t>>> &readers,
                      const Plan &pl) {
  const size_t n = pl.chain.size();
  std::vector<int32_t> up(n);
  for (size_t i = 0; i < n; ++i) up[i] = static_cast<int32_t>(i);
  for (size_t i = 0; i < n; ++i) {
    if (!pl.chain[i]) continue;
    for (const auto &[c, anchor] : readers[i]) {
      (void)anchor;
      if (pl.conv[static_cast<size_t>(c)] || pl.chain[static_cast<size_t>(c)])
        up[static_cast<size_t>(Find(up, c))] = Find(up, static_cast<int32_t>(i));
    }
  }
  std::vector<char> narrow(n, 0), member(n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (!pl.chain[i]) continue;
    const size_t r = static_cast<size_t>(Find(up, static_cast<int32_t>(i)));
    member[r] = 1;
    if (pg.g.nodes[i].output_descs[0].shape[1] % kWideChainBlock != 0) narrow[r] = 1;
  }
  size_t marked = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t r = static_cast<size_t>(Find(up, static_cast<int32_t>(i)));
    if (!member[r] || narrow[r] || !(pl.chain[i] || pl.conv[i])) continue;
    SetInt(pg.node(static_cast<int32_t>(i)), openatc::kChainBlockAttr, kWideChainBlock);
    ++marked;
  }
  return marked;
}

}  // namespace

size_t RunLayoutPlanning(PassGraph &pg) {
  const size_t n = pg.g.nodes.size();
  Plan pl{std::vector<bool>(n), std::vector<bool>(n), std::vector<std::vector<size_t>>(n)};
  // root: see NeutralInputs. batch: the node whose output 0 provably has the same run-time N
  // (through every node root follows, every Conv and every pool), which lets root pass a
  // squeeze-excitation Mul whose weights come from the same batch as its X (they never broadcast X).
  std::vector<int32_t> root(n), batch(n);
  auto from = [&](const ir::Node &node, size_t k) { return static_cast<size_t>(node.inputs[k].node); };
  for (size_t i = 0; i < n; ++i) {
    const int32_t ii = static_cast<int32_t>(i);
    const ir::Node &node = pg.g.nodes[i];
    pl.conv[i] = BlockableConv(pg, ii);
    pl.neutral[i] = pl.conv[i] ? std::vector<size_t>{} : NeutralInputs(pg, ii, root);
    root[i] = batch[i] = ii;
    const int se = PerChannelMul(pg, ii);
    const bool x0 = !node.inputs.empty() && node.inputs[0].connected() && node.inputs[0].index == 0;
    if (se >= 0) {
      const size_t x = from(node, static_cast<size_t>(se)), w = from(node, static_cast<size_t>(1 - se));
      if (batch[x] == batch[w]) root[i] = root[x], batch[i] = batch[x];
    } else if (!pl.neutral[i].empty() && !IsPool(node.type) && node.type != "Concat") {
      root[i] = root[from(node, pl.neutral[i][0])];
      batch[i] = batch[from(node, pl.neutral[i][0])];
    } else if (pg.Is(ii, "Conv") && x0) {
      batch[i] = batch[from(node, 0)];
      if (KeepsSpatialDims(node)) root[i] = root[from(node, 0)];
    } else if (IsPool(node.type) && x0 && pg.Is(ii, node.type.c_str())) {
      batch[i] = batch[from(node, 0)];
    }
    pl.chain[i] = (pl.conv[i] || !pl.neutral[i].empty()) && node.output_descs[0].shape[1] % kChainBlock == 0;
  }
  const auto readers = Readers(pg);
  while (Sweep(pg, readers, pl)) {
  }
  size_t changes = 0;
  for (size_t i = 0; i < n; ++i) {
    if (pl.conv[i]) {
      MarkConv(pg, static_cast<int32_t>(i), pl);
      ++changes;
    }
    if (!pl.chain[i]) continue;
    ir::Node &node = pg.node(static_cast<int32_t>(i));
    SetStr(node, "_openatc_layout", "blocked");
    if (IsPool(node.type) || node.type == "BatchNormalization" || PerChannelMul(pg, static_cast<int32_t>(i)) >= 0) {
      SetInt(node, "openatc_chain_layout", 1);
      ++changes;
    }
  }
  const size_t wide = MarkWideChains(pg, readers, pl);
  if (wide > 0) LogInfo("pass " + std::string(kLayoutPlan) + ": " + std::to_string(wide) + " nodes in 16-wide chains");
  return changes + wide;
}

}  // namespace openatc::compiler::passes
