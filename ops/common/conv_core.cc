// The oneDNN forward convolution shared by Conv and Conv2D (see conv_core.h).
#include "common/conv_core.h"

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

// True when the constant W or B of `entry` holds a non-finite value: scanned on the first call
// and remembered where the entry belongs to one set of constant weights (ConvEntry::wb_scan).
bool ConstNonFinite(const ConvEntry &entry, const ConvProblem &p, const float *pw, const float *pb) {
  int state = entry.wb_scan->state.load(std::memory_order_acquire);
  if (state != ConstScan::kUnscanned) return state == ConstScan::kNonFinite;
  state = AnyNonFinite(pw, NumElements(p.w)) || AnyNonFinite(pb, p.w[0]) ? ConstScan::kNonFinite : ConstScan::kFinite;
  if (entry.blocked && p.layout.weights_id != 0) entry.wb_scan->state.store(state, std::memory_order_release);
  return state == ConstScan::kNonFinite;
}

// Whether a chain oneDNN evaluates NaN-losing (conv_nan.h) meets non-finite data: X and the addend
// are checked on every run, or their verdicts recalled from the Conv that checked the same tensor
// earlier in this run (p.nan_share; openatc/nan_scan_share.h), W and B once (ConstNonFinite).
// `own_x` / `own_a`: `px` / `pa` are the tensors' own bytes, not float32 copies (a copy's
// verdict is neither recorded nor recalled). Called before the convolution runs.
bool MeetsNonFinite(const ConvEntry &entry, const ConvProblem &p, const float *px, bool own_x, const float *pw,
                    const float *pb, const float *pa, bool own_a) {
  const int64_t nx = NumElements(p.x);
  int x = own_x ? RecalledNanVerdict(p.nan_share.x_from, px, nx) : -1;
  if (x < 0) x = AnyNonFiniteOnTeam(px, nx) ? 1 : 0;
  if (own_x) RecordNanVerdict(p.nan_share.id, px, nx, x != 0);
  if (x != 0) return true;
  if (pa != nullptr) {
    const int64_t ny = NumElements(p.y);
    int a = own_a ? RecalledNanVerdict(p.nan_share.addend_from, pa, ny) : -1;
    if (a < 0) a = AnyNonFiniteOnTeam(pa, ny) ? 1 : 0;
    if (a != 0) return true;
  }
  return ConstNonFinite(entry, p, pw, pb);
}

// For a chain that met non-finite data (MeetsNonFinite): computes the plain convolution (a
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
  // Packed weights of a prepared entry are all the primitive reads: the plain ones stay unread
  // (but for the NaN check of a NaN-losing chain).
  const bool packed = entry.blocked && entry.sides.wei_reorder && p.layout.weights_id != 0 &&
                      entry.sides.packed->ready.load(std::memory_order_acquire);
  const bool keep_nan = ChainDropsNaN(p.post_ops);
  const float *pw = packed && !keep_nan ? nullptr : dnnl_util::AsF32(w, &sw);
  if (px == nullptr || (pw == nullptr && !(packed && !keep_nan)))
    return Fail(ctx, "the input and the filter must be float tensors with data");
  const float *pb = b != nullptr ? dnnl_util::AsF32(*b, &sb) : nullptr;
  if (b != nullptr && pb == nullptr) return Fail(ctx, "the bias must be a float tensor with data");
  const float *pa = add_index >= 0 ? dnnl_util::AsF32(*addend, &sa) : nullptr;
  if (add_index >= 0 && pa == nullptr) return Fail(ctx, "the fused addend must be a float tensor with data");
  float *py = dnnl_util::OutF32(y, &sy);
  try {
    // The scan runs first: it leaves the start of X (read last, conv_nan.h) in cache for the
    // convolution, which reads it first.
    const bool nonfinite = keep_nan && MeetsNonFinite(entry, p, px, sx.empty(), pw, pb, pa, sa.empty());
    RunEntryOnce(entry, p, px, pw, pb, pa, add_index, py);
    if (nonfinite) KeepNaN(entry, p, px, pw, pb, pa, py);
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
        .Add("L", blockable ? 1 + 2 * l.x_blocked + 4 * l.y_blocked + 8 * l.add_blocked : 0).Add("cb", l.block)
        .Add("wid", blockable ? l.weights_id : 0);
    entry = cache->Get(key, [&] { return MakeConvEntry(p, b != nullptr, blockable, serial); });
  } catch (const dnnl::error &e) {
    return Fail(ctx, std::string("oneDNN convolution failed: ") + e.what());
  }
  return RunConvEntry(ctx, *entry, p, x, w, b, y, addend, add_index);
}

}  // namespace openatc_ops
