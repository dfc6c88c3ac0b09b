// The oneDNN forward convolution shared by Conv and Conv2D (see conv_core.h).
#include "common/conv_core.h"

#include <cmath>

#include "common/conv_nan.h"
#include "common/omp_team.h"

namespace openatc_ops {

Dims DenseStrides(const Dims &d) {
  Dims s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * std::max<int64_t>(d[i], 1);
  return s;
}

Dims Permute(const Dims &d, const std::vector<size_t> &perm) {
  Dims out(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) out[i] = d[perm[i]];
  return out;
}

namespace {
Dims OrDense(const Dims &strides, const Dims &dims) { return strides.empty() ? DenseStrides(dims) : strides; }

// The plain-layout primitive on the strided descriptors of `p`.
void MakePlainConv(const ConvProblem &p, const Dims &xs, const Dims &ws, const Dims &ys, bool has_bias, ConvEntry *e) {
  Dims wg = p.w, wgs = ws;
  if (p.group > 1) {  // oneDNN's grouped weights: [G, M/G, C/G, k...]
    wg[0] = p.w[0] / p.group;
    wg.insert(wg.begin(), p.group);
    wgs.insert(wgs.begin(), ws[0] * wg[1]);
  }
  e->src = dnnl_util::StridedF32(p.x, xs);
  e->wei = dnnl_util::StridedF32(wg, wgs);
  e->bias = has_bias ? dnnl_util::PlainF32({p.w[0]}) : dnnl::memory::desc();
  e->dst = dnnl_util::StridedF32(p.y, ys);
  Dims dil = p.win.dilations;
  for (auto &v : dil) v -= 1;  // oneDNN counts the gaps: 0 = dense
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, e->src,
                                    e->wei, e->bias, e->dst, dnnl_util::DnnlDims(p.win.strides), dnnl_util::DnnlDims(dil),
                                    dnnl_util::DnnlDims(p.win.pads_begin), dnnl_util::DnnlDims(p.win.pads_end));
  dnnl::primitive_attr attr = dnnl_util::UserScratchpad();
  if (!p.post_ops.empty()) attr.set_post_ops(dnnl_util::BuildPostOps(p.post_ops, dnnl_util::PlainF32(p.y)));
  e->prim = dnnl::convolution_forward(dnnl::convolution_forward::primitive_desc(d, attr, dnnl_util::Engine()));
}
}  // namespace

bool ConvBlockable(const ConvProblem &p, bool all_f32) {
  const bool dense = p.x_strides.empty() && p.w_strides.empty() && p.y_strides.empty();
  return p.layout.blocked && dense && p.x.size() == 4 && all_f32;
}

std::string CheckConvLayout(const ConvProblem &p, bool blockable) {
  const ConvLayout &l = p.layout;
  if ((l.x_blocked || l.y_blocked || l.add_blocked) && !blockable)
    return "openatc_x_blocked/openatc_y_blocked/openatc_addend_blocked need openatc_layout \"blocked\" on a "
           "dense 2-D float32 convolution";
  if ((l.x_blocked && p.x[1] % l.block != 0) || ((l.y_blocked || l.add_blocked) && p.y[1] % l.block != 0))
    return "a chain-layout tensor's channel count must be a multiple of " + std::to_string(l.block);
  return "";
}

int ConvThreads(const ConvProblem &p, bool blockable, bool *serial) {
  int threads = dnnl_util::ApplyThreadCount();
  const int64_t macs = NumElements(p.y) * NumElements(p.w) / std::max<int64_t>(p.w[0], 1);
  const int64_t bytes = int64_t{sizeof(float)} * (NumElements(p.x) + NumElements(p.w) + NumElements(p.y));
  const bool dense = macs >= kDenseConvMacs && macs >= kDenseConvMacsPerByte * bytes;
  *serial = blockable && threads > 1 && macs < kSerialConvMacs && !dense;
  return *serial ? 1 : threads;  // a serial primitive is made for one thread
}

int ConvThreadsNow(const ConvProblem &p, bool blockable, bool *serial) {
  const int threads = ConvThreads(p, blockable, serial);
  if (!*serial) return threads;
  const int team = dnnl_util::ApplyThreadCount();
  if (!omp_team::TeamAwake(team)) return threads;
  *serial = false;
  return team;
}

ConvEntry MakeConvEntry(const ConvProblem &p, bool has_bias, bool blockable, bool serial) {
  ConvEntry e;
  if (blockable) {
    MakeBlockedConv(p, has_bias, serial, &e);
    return e;
  }
  MakePlainConv(p, OrDense(p.x_strides, p.x), OrDense(p.w_strides, p.w), OrDense(p.y_strides, p.y), has_bias, &e);
  return e;
}

namespace {
// Runs `entry` once: dst `py`, binary_add operand `pa` (add_index >= 0). Throws dnnl::error.
void RunEntryOnce(const ConvEntry &entry, const ConvProblem &p, const float *px, const float *pw, const float *pb,
                  const float *pa, int add_index, float *py) {
  if (entry.blocked) {
    RunBlockedConv(entry, p.layout, px, pw, pb, pa, add_index, py);
    return;
  }
  std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, dnnl_util::Wrap(entry.src, px)},
                                                {DNNL_ARG_WEIGHTS, dnnl_util::Wrap(entry.wei, pw)}};
  if (pb != nullptr) args[DNNL_ARG_BIAS] = dnnl_util::Wrap(entry.bias, pb);
  if (pa != nullptr)
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(add_index) | DNNL_ARG_SRC_1] = dnnl_util::Wrap(dnnl_util::PlainF32(p.y), pa);
  args[DNNL_ARG_DST] = dnnl_util::Wrap(entry.dst, py);
  dnnl_util::Run(entry.prim, args);
}

}  // namespace

void ScanConsts(const ConvProblem &p, const float *w, const float *b, ConstScan *s, bool sums) {
  const int64_t rows = std::max<int64_t>(p.w[0], 1), per = NumElements(p.w) / rows;
  bool finite = !AnyNonFinite(w, NumElements(p.w)) && !AnyNonFinite(b, p.w[0]);
  double r = sums ? 0.0 : kNoBound, bm = 0.0;
  for (int64_t o = 0; sums && finite && o < rows; ++o) {
    double sum = 0.0;
    for (int64_t i = 0; i < per; ++i) sum += std::fabs(double(w[o * per + i]));
    r = std::max(r, sum);
    if (b != nullptr) bm = std::max(bm, std::fabs(double(b[o])));
  }
  s->w_row_l1.store(r, std::memory_order_relaxed);
  s->b_max.store(bm, std::memory_order_relaxed);
  s->state.store(finite ? ConstScan::kFinite : ConstScan::kNonFinite, std::memory_order_release);
}

namespace {

// W's and B's facts (ConstScan): scanned on the first call and remembered where the entry
// belongs to one set of constant weights (ConvEntry::wb_scan), else scanned into `local` on every
// call, the row sums only when `sums` (the output's bound is wanted). Null when the plain weights
// are not at hand (a prepared node's packed copy alone).
const ConstScan *ConstFacts(const ConvEntry &entry, const ConvProblem &p, const float *pw, const float *pb,
                            bool sums, ConstScan *local) {
  if (entry.wb_scan->state.load(std::memory_order_acquire) != ConstScan::kUnscanned) return entry.wb_scan.get();
  if (pw == nullptr) return nullptr;
  const bool once = entry.blocked && p.layout.weights_id != 0;
  ConstScan *s = once ? entry.wb_scan.get() : local;
  ScanConsts(p, pw, pb, s, once || sums);
  return s;
}

// The bound of the `n` floats at `ptr` (an input of the Conv; nan_verdicts.h): recalled under
// `id` > 0, else found by a scan when `scan` is set, else kNoBound. Records what a scan found
// under |id|, and, where this node is the first to learn it (`id` < 0), records every run (a
// later node recalls it in this run only). `own`: `ptr` is the tensor's own bytes.
double InputBound(int64_t id, const float *ptr, int64_t n, bool own, bool scan) {
  double b = own && id > 0 ? RecalledBound(id, ptr, n) : kNoBound;
  if (b == kNoBound && scan) {
    b = MaxAbsOnTeam(ptr, n);
    if (own && id != 0) RecordBound(id > 0 ? id : -id, ptr, n, b);
  } else if (own && id < 0) {
    RecordBound(-id, ptr, n, b);
  }
  return b;
}

// The bound of the Conv's output (nan_verdicts.h), kNoBound unless X, the addend, W and B are
// all bounded and finite.
double OutputBound(const ConvProblem &p, const ConstScan *c, double bx, double ba) {
  if (c == nullptr || c->state.load(std::memory_order_acquire) != ConstScan::kFinite) return kNoBound;
  double b = ConvBound(c->w_row_l1.load(std::memory_order_relaxed), c->b_max.load(std::memory_order_relaxed), bx);
  for (const auto &op : p.post_ops) b = PostOpBound(op.alg, op.alpha, op.beta, b, ba);
  return b;
}

// For a chain that met non-finite data (RunConvEntry): computes the plain convolution (a
// primitive made for this call only: non-finite inputs are the rare case) and writes NaN back
// where the ONNX chain gives NaN. `pw`: the plain weights.
void KeepNaN(const ConvEntry &entry, const ConvProblem &p, const float *px, const float *pw, const float *pb,
             const float *pa, float *py) {
  ConvProblem raw = p;
  raw.post_ops.clear();
  raw.layout.add_blocked = false;
  raw.layout.weights_id = 0;
  bool serial = false;
  ConvThreads(raw, entry.blocked, &serial);
  const ConvEntry plain_entry = MakeConvEntry(raw, pb != nullptr, entry.blocked, serial);
  std::vector<float> plain(static_cast<size_t>(NumElements(p.y)));
  RunEntryOnce(plain_entry, raw, px, pw, pb, nullptr, -1, plain.data());
  RestoreNaN(p, plain.data(), pa, py);
}
}  // namespace

ge::graphStatus RunConvEntry(const gert::ExtendedKernelContext *ctx, const ConvEntry &entry, const ConvProblem &p,
                             const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b, gert::Tensor &y,
                             const gert::Tensor *addend, int add_index) {
  std::vector<float> sx, sw, sb, sy, sa;
  const float *px = dnnl_util::AsF32(x, &sx);
  // Packed weights of a prepared entry are all the primitive reads: the plain ones are read
  // only to learn their facts once (ConstFacts).
  const bool packed = entry.blocked && entry.sides.wei_reorder && p.layout.weights_id != 0 &&
                      entry.sides.packed->ready.load(std::memory_order_acquire);
  const bool keep_nan = ChainDropsNaN(p.post_ops);
  const float *pw = dnnl_util::AsF32(w, &sw);
  if (px == nullptr || (pw == nullptr && !(packed && !keep_nan)))
    return Fail(ctx, "the input and the filter must be float tensors with data");
  const float *pb = b != nullptr ? dnnl_util::AsF32(*b, &sb) : nullptr;
  if (b != nullptr && pb == nullptr) return Fail(ctx, "the bias must be a float tensor with data");
  const float *pa = add_index >= 0 ? dnnl_util::AsF32(*addend, &sa) : nullptr;
  if (add_index >= 0 && pa == nullptr) return Fail(ctx, "the fused addend must be a float tensor with data");
  float *py = dnnl_util::OutF32(y, &sy);
  try {
    // Bounds of X and the addend (nan_verdicts.h): recalled from a node that ran before in this
    // run, else, for a NaN-losing chain, found by a scan before the convolution runs (it leaves
    // the start of X, read last, conv_nan.h, in cache for the convolution, which reads it first).
    const NanScanShare &ids = p.nan_share;
    const int64_t ny = NumElements(p.y);
    const double bx = InputBound(ids.x_id, px, NumElements(p.x), sx.empty(), keep_nan);
    const double ba = pa == nullptr ? 0.0 : InputBound(ids.addend_id, pa, ny, sa.empty(), keep_nan && bx != kNoBound);
    ConstScan local;
    const bool bounded_in = bx != kNoBound && ba != kNoBound;
    const bool want_bound = ids.y_id > 0 && bounded_in;
    const ConstScan *consts = keep_nan || want_bound ? ConstFacts(entry, p, pw, pb, want_bound, &local) : nullptr;
    const bool nonfinite = keep_nan && (!bounded_in || consts == nullptr ||
                                        consts->state.load(std::memory_order_acquire) != ConstScan::kFinite);
    // Y on the addend's bytes (openatc/addend_in_place.h): the run overwrites the addend, which
    // binary_add (and KeepNaN after the run) must still read.
    if (pa != nullptr && pa == py && (!entry.sum || nonfinite)) {
      sa.assign(pa, pa + ny);
      pa = sa.data();
    }
    RunEntryOnce(entry, p, px, pw, pb, pa, add_index, py);
    if (nonfinite) KeepNaN(entry, p, px, pw, pb, pa, py);
    if (ids.y_id > 0)
      RecordBound(ids.y_id, py, ny, sy.empty() && bounded_in && !nonfinite ? OutputBound(p, consts, bx, ba) : kNoBound);
    if (!entry.blocked) dnnl_util::StoreF32(sy, y);  // blocked: float32 only, nothing to store back
  } catch (const dnnl::error &e) {
    return Fail(ctx, std::string("oneDNN convolution failed: ") + e.what());
  }
  return ge::GRAPH_SUCCESS;
}

ge::graphStatus RunConvolution(const gert::ExtendedKernelContext *ctx, ConvCache *cache, const ConvProblem &p,
                               const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b, gert::Tensor &y,
                               const gert::Tensor *addend) {
  const int add_index = dnnl_util::BinaryAddIndex(p.post_ops);
  if (add_index >= 0 && (addend == nullptr || ToDims(addend->GetStorageShape()) != p.y))
    return Fail(ctx, "the fused addend (input openatc_addend) must be a tensor of Y's shape " + DimsToString(p.y));
  const ConvLayout &l = p.layout;
  const bool blockable = ConvBlockable(p, x.GetDataType() == ge::DT_FLOAT && w.GetDataType() == ge::DT_FLOAT &&
                                              y.GetDataType() == ge::DT_FLOAT);
  const std::string bad = CheckConvLayout(p, blockable);
  if (!bad.empty()) return Fail(ctx, bad);
  std::shared_ptr<ConvEntry> entry;
  try {
    bool serial = false;
    const int threads = ConvThreadsNow(p, blockable, &serial);
    const Dims xs = OrDense(p.x_strides, p.x), ws = OrDense(p.w_strides, p.w), ys = OrDense(p.y_strides, p.y);
    dnnl_util::Key key;
    key.Add("x", p.x).Add("xs", xs).Add("w", p.w).Add("ws", ws).Add("ys", ys).Add("g", p.group)
        .Add("b", b != nullptr).Add("s", p.win.strides).Add("d", p.win.dilations).Add("pb", p.win.pads_begin)
        .Add("pe", p.win.pads_end).Add("t", threads).Add("po", dnnl_util::PostOpsKey(p.post_ops))
        .Add("L", blockable ? 1 + 2 * l.x_blocked + 4 * l.y_blocked + 8 * l.add_blocked + 16 * l.add_in_place : 0)
        .Add("cb", l.block)
        .Add("wid", blockable ? l.weights_id : 0);
    entry = cache->Get(key, [&] { return MakeConvEntry(p, b != nullptr, blockable, serial); });
  } catch (const dnnl::error &e) {
    return Fail(ctx, std::string("oneDNN convolution failed: ") + e.what());
  }
  return RunConvEntry(ctx, *entry, p, x, w, b, y, addend, add_index);
}

}  // namespace openatc_ops
