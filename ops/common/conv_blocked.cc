// The blocked-layout convolution: primitive with oneDNN-chosen layouts, reorders at plain sides,
// weights packed once (conv_layout.h, conv_core.h: MakeBlockedConv, RunBlockedConv).
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/conv_core.h"
#include "openatc/chain_block.h"

namespace openatc_ops {

int64_t ChainBlock(int64_t widest) { return openatc::RunChainBlock(widest); }

dnnl::memory::desc ChainF32(const Dims &d, int64_t block) {
  const auto tag = block == 16 ? dnnl::memory::format_tag::nChw16c : dnnl::memory::format_tag::nChw8c;
  return dnnl::memory::desc(dnnl_util::DnnlDims(d), dnnl::memory::data_type::f32, tag);
}

namespace {

// Reorders of at most this many bytes run on the calling thread alone (dnnl_util::RunSerial).
constexpr size_t kSerialReorderBytes = 256 * 1024;

// `r` on prebuilt arguments (DNNL_ARG_FROM, DNNL_ARG_TO).
void Reorder(const dnnl::reorder &r, const std::unordered_map<int, dnnl::memory> &args, bool serial) {
  if (serial || args.at(DNNL_ARG_TO).get_desc().get_size() <= kSerialReorderBytes)
    dnnl_util::RunSerial(r, args);
  else
    dnnl_util::Run(r, args);
}

void Reorder(const dnnl::reorder &r, const dnnl::memory &from, const dnnl::memory &to, bool serial) {
  Reorder(r, {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}}, serial);
}

// `user` (a buffer of `user_md`), reordered into a scratch buffer of `md` when `reorder` is set.
dnnl::memory Side(dnnl_util::ScratchSide side, const dnnl::memory::desc &user_md, const float *user, bool reorder,
                  const dnnl::reorder &r, const dnnl::memory::desc &md, bool serial) {
  dnnl::memory m = dnnl_util::Wrap(user_md, user);
  if (!reorder) return m;
  dnnl::memory t = dnnl_util::Wrap(md, dnnl_util::Scratch(side, md));
  Reorder(r, m, t, serial);
  return t;
}

}  // namespace

namespace {
// For a sum entry (ConvEntry::sum): puts the addend `pa` (the addend's layout) into `dst`, the
// buffer the primitive writes (its destination layout), unless it is already there.
void LoadAddend(const ConvEntry &e, const float *pa, float *dst) {
  const BlockedSides &s = e.sides;
  if (s.add_reorder) {
    // A reorder must not write over its own source (the memory plan shares bytes only between
    // tensors of one layout, which need no reorder).
    std::vector<float> copy;
    if (pa == dst) {
      copy.assign(pa, pa + s.add_user.get_size() / sizeof(float));
      pa = copy.data();
    }
    Reorder(s.add_in, dnnl_util::Wrap(s.add_user, pa), dnnl_util::Wrap(e.dst, dst), s.serial);
  } else if (pa != dst) {
    std::memcpy(dst, pa, e.dst.get_size() * static_cast<size_t>(e.parts));
  }
}
}  // namespace

namespace {
// The forward convolution of `p` with algorithm `alg` on descriptors `src`, `wei`, `dst` (oneDNN's
// post-op operand takes the destination's layout; with `sum` the addend is added by a sum post-op
// from the destination, dnnl_post_ops.h).
dnnl::convolution_forward::primitive_desc ConvPd(const ConvProblem &p, dnnl::algorithm alg,
                                                 const dnnl::memory::desc &src, const dnnl::memory::desc &wei,
                                                 const dnnl::memory::desc &bias, const dnnl::memory::desc &dst,
                                                 bool sum) {
  Dims dil = p.win.dilations;
  for (auto &v : dil) v -= 1;  // oneDNN counts the gaps: 0 = dense
  dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, alg, src, wei, bias, dst,
                                    dnnl_util::DnnlDims(p.win.strides), dnnl_util::DnnlDims(dil),
                                    dnnl_util::DnnlDims(p.win.pads_begin), dnnl_util::DnnlDims(p.win.pads_end));
  dnnl::primitive_attr attr = dnnl_util::UserScratchpad();
  if (!p.post_ops.empty()) attr.set_post_ops(dnnl_util::BuildPostOps(p.post_ops, dst, sum));
  return dnnl::convolution_forward::primitive_desc(d, attr, dnnl_util::Engine());
}

// The Winograd output tiles a thread needs before Winograd pays (conv_core.h).
constexpr int64_t kWinogradTilesPerThread = 12;
// The input and output channels from which one thread's tiles are enough (conv_core.h).
constexpr int64_t kWideWinogradChannels = 256;
}  // namespace

namespace {
// A 3x3, stride-1, dilation-1, ungrouped 2-D problem atc allowed Winograd for.
bool WinogradEligible(const ConvProblem &p) {
  return p.layout.winograd && p.group == 1 && p.w.size() == 4 && p.w[2] == 3 && p.w[3] == 3 &&
         p.win.strides == Dims{1, 1} && p.win.dilations == Dims{1, 1} && p.y.size() == 4;
}
}  // namespace

bool UseBrgConv(const ConvProblem &p) {
  if (p.group != 1 || p.y.size() != 4 || p.w[2] * p.w[3] == 1 || p.y[2] * p.y[3] > kBrgConvMaxPixels) return false;
  return NumElements(p.y) * NumElements(p.w) / std::max<int64_t>(p.w[0], 1) >= kBrgConvMacs;
}

bool UseWinograd(const ConvProblem &p, int threads) {
  if (!WinogradEligible(p)) return false;
  const int64_t tiles = p.y[0] * ((p.y[2] + 3) / 4) * ((p.y[3] + 3) / 4);
  if (tiles >= kWinogradTilesPerThread * std::max(threads, 1)) return true;
  return tiles >= kWinogradTilesPerThread && p.x[1] >= kWideWinogradChannels && p.w[0] >= kWideWinogradChannels;
}

int SplitWinograd(const ConvProblem &p, int threads) {
  constexpr int kParts = 2;  // measured on 2 threads only (conv_core.h)
  if (threads != kParts || !WinogradEligible(p) || UseWinograd(p, threads)) return 1;
  const bool fits = UseWinograd(p, 1) && p.w[0] > 0 && p.w[0] < kWideWinogradChannels &&
                    NumElements(p.y) * NumElements(p.w) / p.w[0] >= kSerialConvMacs && p.y[0] == 1 &&
                    p.layout.x_blocked && p.layout.y_blocked &&
                    p.layout.weights_id != 0 && (dnnl_util::BinaryAddIndex(p.post_ops) < 0 || p.layout.add_blocked) &&
                    p.w[0] % (kParts * p.layout.block) == 0;
  return fits ? kParts : 1;
}

namespace {
// Fills `e` with the primitive for one of SplitWinograd's slices of `p`, made for one thread
// (`sum`: ConvPd's); false (and `e` untouched) when oneDNN has no Winograd kernel for it in the
// chain layout.
bool MakeSplitConv(const ConvProblem &p, bool has_bias, int parts, bool sum, ConvEntry *e) {
  ConvProblem part = p;
  part.w[0] /= parts;
  part.y[1] /= parts;
  const dnnl::memory::desc x = ChainF32(part.x, p.layout.block), y = ChainF32(part.y, p.layout.block);
  const dnnl::memory::desc bias = has_bias ? dnnl_util::PlainF32({part.w[0]}) : dnnl::memory::desc();
  dnnl_util::SerialScope scope;
  dnnl::convolution_forward::primitive_desc pd;
  try {
    pd = ConvPd(part, dnnl::algorithm::convolution_winograd, x,
                dnnl::memory::desc(dnnl_util::DnnlDims(part.w), dnnl::memory::data_type::f32,
                                   dnnl::memory::format_tag::any),
                bias, y, sum);
  } catch (const dnnl::error &) {
    return false;
  }
  if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0 || pd.src_desc() != x || pd.dst_desc() != y) return false;
  BlockedSides &s = e->sides;
  s.serial = true;
  s.src_user = x;
  s.dst_user = s.add_user = y;
  s.wei_user = dnnl_util::PlainF32(part.w);
  e->prim = dnnl::convolution_forward(pd);
  for (int k = 1; k < parts; ++k) e->slices.emplace_back(pd);
  e->src = x;
  e->dst = y;
  e->wei = pd.weights_desc();
  e->bias = bias;
  s.wei_reorder = dnnl_util::MakeReorder(s.wei_user, e->wei, &s.wei_in);
  e->parts = parts;
  e->part_weights = NumElements(part.w);
  e->part_outputs = NumElements(part.y);
  e->part_channels = part.w[0];
  e->blocked = true;
  e->sum = sum;
  return true;
}

// MakeBlockedConv for one choice of `sum` (ConvPd). Throws dnnl::error.
void MakeWholeConv(const ConvProblem &p, bool has_bias, bool serial, bool sum, ConvEntry *e) {
  std::unique_ptr<dnnl_util::SerialScope> scope;
  if (serial) scope = std::make_unique<dnnl_util::SerialScope>();
  e->sides.serial = serial;
  const auto f32 = dnnl::memory::data_type::f32;
  const auto any = dnnl::memory::format_tag::any;
  Dims wg = p.w;
  if (p.group > 1) {  // oneDNN's grouped weights: [G, M/G, C/G, k...]
    wg[0] = p.w[0] / p.group;
    wg.insert(wg.begin(), p.group);
  }
  BlockedSides &s = e->sides;
  s.src_user = p.layout.x_blocked ? ChainF32(p.x, p.layout.block) : dnnl_util::PlainF32(p.x);
  s.wei_user = dnnl_util::PlainF32(wg);
  s.dst_user = p.layout.y_blocked ? ChainF32(p.y, p.layout.block) : dnnl_util::PlainF32(p.y);
  s.add_user = p.layout.add_blocked ? ChainF32(p.y, p.layout.block) : dnnl_util::PlainF32(p.y);
  e->bias = has_bias ? dnnl_util::PlainF32({p.w[0]}) : dnnl::memory::desc();
  const dnnl::memory::desc src = p.layout.x_blocked ? s.src_user : dnnl::memory::desc(dnnl_util::DnnlDims(p.x), f32, any);
  // The primitive computes into the chain layout: the chain's block, or this CPU's widest when
  // no side is in a chain (Y is then reordered out).
  const bool in_chain = p.layout.x_blocked || p.layout.y_blocked || p.layout.add_blocked;
  const dnnl::memory::desc dst = ChainF32(p.y, in_chain ? p.layout.block : ChainBlock(16));
  // Winograd where UseWinograd asks for it and this CPU has it, else direct.
  std::vector<dnnl::algorithm> algs = {dnnl::algorithm::convolution_direct};
  if (UseWinograd(p, dnnl_util::ThreadsFor(serial))) algs.insert(algs.begin(), dnnl::algorithm::convolution_winograd);
  dnnl::convolution_forward::primitive_desc pd;
  bool blocked_pd = false;
  // oneDNN's brgemm kernel where UseBrgConv asks for it: it takes nhwc only, so X and Y are
  // reordered from and to the chain layout around it (small maps: a few us). Not for a fused
  // addend: oneDNN 2.6 has no brgemm kernel with binary_add, and one with sum was not measured.
  if (algs.size() == 1 && UseBrgConv(p) && dnnl_util::BinaryAddIndex(p.post_ops) < 0) {
    const auto nhwc = dnnl::memory::format_tag::nhwc;
    try {
      pd = ConvPd(p, dnnl::algorithm::convolution_direct, dnnl::memory::desc(dnnl_util::DnnlDims(p.x), f32, nhwc),
                  dnnl::memory::desc(dnnl_util::DnnlDims(wg), f32, any), e->bias,
                  dnnl::memory::desc(dnnl_util::DnnlDims(p.y), f32, nhwc), sum);
      blocked_pd = std::string(pd.impl_info_str()).rfind("brg", 0) == 0;
    } catch (const dnnl::error &) {
      blocked_pd = false;  // this CPU or ISA limit has no brgemm kernel for it: the jit one below
    }
  }
  for (dnnl::algorithm alg : algs) {
    if (blocked_pd) break;
    try {
      pd = ConvPd(p, alg, src, dnnl::memory::desc(dnnl_util::DnnlDims(wg), f32, any), e->bias, dst, sum);
      blocked_pd = std::string(pd.impl_info_str()).rfind("ref", 0) != 0;
    } catch (const dnnl::error &) {
      blocked_pd = false;
    }
    if (blocked_pd) break;
  }
  // No implementation, or only the (slow) reference one, for these layouts: the plain problem
  // instead, with reorders from and to the chain layout where a side is blocked.
  if (!blocked_pd)
    pd = ConvPd(p, dnnl::algorithm::convolution_direct, dnnl_util::PlainF32(p.x), s.wei_user, e->bias,
                dnnl_util::PlainF32(p.y), sum);
  e->prim = dnnl::convolution_forward(pd);
  e->src = pd.src_desc();
  e->wei = pd.weights_desc();
  e->dst = pd.dst_desc();
  s.src_reorder = dnnl_util::MakeReorder(s.src_user, e->src, &s.src_in);
  s.wei_reorder = dnnl_util::MakeReorder(s.wei_user, e->wei, &s.wei_in);
  s.dst_reorder = dnnl_util::MakeReorder(e->dst, s.dst_user, &s.dst_out);
  s.add_reorder = dnnl_util::MakeReorder(s.add_user, e->dst, &s.add_in);
  e->blocked = true;
  e->sum = sum;
}
}  // namespace

void MakeBlockedConv(const ConvProblem &p, bool has_bias, bool serial, ConvEntry *e) {
  // The addend by a sum post-op where the memory plan put Y on it (openatc/addend_in_place.h),
  // binary_add where oneDNN refuses that.
  const bool sum = p.layout.add_in_place && dnnl_util::BinaryAddIndex(p.post_ops) >= 0;
  if (!serial && p.group == 1) {
    const int parts = SplitWinograd(p, dnnl_util::ThreadsFor(false));
    if (parts > 1 &&
        ((sum && MakeSplitConv(p, has_bias, parts, true, e)) || MakeSplitConv(p, has_bias, parts, false, e)))
      return;
  }
  if (sum) {
    try {
      MakeWholeConv(p, has_bias, serial, true, e);
      return;
    } catch (const dnnl::error &) {
      *e = ConvEntry();
    }
  }
  MakeWholeConv(p, has_bias, serial, false, e);
}

void PackSlices(const ConvEntry &e, const float *w, bool serial) {
  PackedWeights &pk = *e.sides.packed;
  pk.more.clear();
  for (int k = 0; k < e.parts; ++k) {
    dnnl::memory m(e.wei, dnnl_util::Engine());
    dnnl_util::Run(e.sides.wei_in, {{DNNL_ARG_FROM, dnnl_util::Wrap(e.sides.wei_user, w + k * e.part_weights)}, {DNNL_ARG_TO, m}},
                   serial);
    (k == 0 ? pk.mem : pk.more.emplace_back()) = m;
  }
}

namespace {
// The entry's packed weights, packed from plain `w` by the first run that needs them.
const PackedWeights &PackedOnce(const ConvEntry &e, const float *w) {
  PackedWeights &pk = *e.sides.packed;
  if (!pk.ready.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(pk.mu);
    if (!pk.ready.load(std::memory_order_relaxed)) {
      PackSlices(e, w, /*serial=*/false);
      pk.ready.store(true, std::memory_order_release);
    }
  }
  return pk;
}

// A split entry (ConvEntry::parts): every slice at once on its own thread, reading its weights,
// bias, output and addend slices.
void RunSplitConv(const ConvEntry &e, const float *px, const float *pw, const float *pb, const float *pa,
                  int add_index, float *py) {
  const PackedWeights &pk = PackedOnce(e, pw);
  if (e.sum) LoadAddend(e, pa, py);  // the slices' destinations are slices of Y (chain layout)
  std::vector<std::unordered_map<int, dnnl::memory>> runs(static_cast<size_t>(e.parts));
  std::vector<const dnnl::primitive *> prims = {&e.prim};
  for (const auto &slice : e.slices) prims.push_back(&slice);
  const dnnl::memory x = dnnl_util::Wrap(e.src, px);
  for (int k = 0; k < e.parts; ++k) {
    auto &args = runs[static_cast<size_t>(k)];
    args[DNNL_ARG_SRC] = x;
    args[DNNL_ARG_WEIGHTS] = k == 0 ? pk.mem : pk.more[static_cast<size_t>(k - 1)];
    if (pb != nullptr) args[DNNL_ARG_BIAS] = dnnl_util::Wrap(e.bias, pb + k * e.part_channels);
    if (add_index >= 0 && !e.sum)
      args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(add_index) | DNNL_ARG_SRC_1] = dnnl_util::Wrap(e.dst, pa + k * e.part_outputs);
    args[DNNL_ARG_DST] = dnnl_util::Wrap(e.dst, py + k * e.part_outputs);
  }
  dnnl_util::RunEach(prims, runs);
}
}  // namespace

// A node-owned entry's memory objects (ConvEntry::bound): made without data on the first run,
// their handles set on every run. `*_t`: the primitive's side when that side is reordered (its
// handle a scratch buffer, which may move between runs).
struct BoundArgs {
  bool made = false;
  int add_index = -1;
  dnnl::memory src_user, src_t, wei, bias, add_user, add_t, dst_t, dst_user;
  std::unordered_map<int, dnnl::memory> conv, src_in, add_in, dst_out;
};

void BindArgs(ConvEntry *e) {
  if (e->blocked && e->parts == 1) e->bound = std::make_shared<BoundArgs>();
}

namespace {
void MakeBound(const ConvEntry &e, bool packed, int add_index, BoundArgs *a) {
  const BlockedSides &s = e.sides;
  const dnnl::engine &engine = dnnl_util::Engine();
  auto none = [&](const dnnl::memory::desc &md) { return dnnl::memory(md, engine, DNNL_MEMORY_NONE); };
  a->src_user = none(s.src_user);
  a->conv[DNNL_ARG_SRC] = a->src_user;
  if (s.src_reorder) {
    a->src_t = none(e.src);
    a->src_in = {{DNNL_ARG_FROM, a->src_user}, {DNNL_ARG_TO, a->src_t}};
    a->conv[DNNL_ARG_SRC] = a->src_t;
  }
  a->wei = packed ? e.sides.packed->mem : none(e.wei);
  a->conv[DNNL_ARG_WEIGHTS] = a->wei;
  if (e.bias) {
    a->bias = none(e.bias);
    a->conv[DNNL_ARG_BIAS] = a->bias;
  }
  a->add_index = add_index;
  if (add_index >= 0 && !e.sum) {
    a->add_user = none(s.add_user);
    dnnl::memory add = a->add_user;
    if (s.add_reorder) {
      a->add_t = none(e.dst);
      a->add_in = {{DNNL_ARG_FROM, a->add_user}, {DNNL_ARG_TO, a->add_t}};
      add = a->add_t;
    }
    a->conv[DNNL_ARG_ATTR_MULTIPLE_POST_OP(add_index) | DNNL_ARG_SRC_1] = add;
  }
  a->dst_t = none(e.dst);
  a->conv[DNNL_ARG_DST] = a->dst_t;
  if (s.dst_reorder) {
    a->dst_user = none(s.dst_user);
    a->dst_out = {{DNNL_ARG_FROM, a->dst_t}, {DNNL_ARG_TO, a->dst_user}};
  }
  a->made = true;
}

// RunBlockedConv of a bound entry whose weights are packed or read as stored.
void RunBound(const ConvEntry &e, bool packed, const float *px, const float *pw, const float *pb, const float *pa,
              int add_index, float *py) {
  BoundArgs &a = *e.bound;
  const BlockedSides &s = e.sides;
  if (!a.made || a.add_index != add_index) MakeBound(e, packed, add_index, &a);
  // oneDNN takes non-const handles; sources are only read.
  a.src_user.set_data_handle(const_cast<float *>(px));
  if (s.src_reorder) {
    a.src_t.set_data_handle(dnnl_util::Scratch(dnnl_util::ScratchSide::kSource, e.src));
    Reorder(s.src_in, a.src_in, s.serial);
  }
  if (!packed) a.wei.set_data_handle(const_cast<float *>(pw));
  if (e.bias) a.bias.set_data_handle(const_cast<float *>(pb));
  if (add_index >= 0 && !e.sum) {
    a.add_user.set_data_handle(const_cast<float *>(pa));
    if (s.add_reorder) {
      a.add_t.set_data_handle(dnnl_util::Scratch(dnnl_util::ScratchSide::kAddend, e.dst));
      Reorder(s.add_in, a.add_in, s.serial);
    }
  }
  float *dst = s.dst_reorder ? dnnl_util::Scratch(dnnl_util::ScratchSide::kDestination, e.dst) : py;
  if (add_index >= 0 && e.sum) LoadAddend(e, pa, dst);
  a.dst_t.set_data_handle(dst);
  dnnl_util::Run(e.prim, a.conv, s.serial);
  if (s.dst_reorder) {
    a.dst_user.set_data_handle(py);
    Reorder(s.dst_out, a.dst_out, s.serial);
  }
}
}  // namespace

void RunBlockedConv(const ConvEntry &e, const ConvLayout &l, const float *px, const float *pw, const float *pb,
                    const float *pa, int add_index, float *py) {
  if (e.parts > 1) {
    RunSplitConv(e, px, pw, pb, pa, add_index, py);
    return;
  }
  const BlockedSides &s = e.sides;
  const bool packed = s.wei_reorder && l.weights_id != 0;
  if (e.bound && (packed || !s.wei_reorder) && (pb != nullptr) == static_cast<bool>(e.bias)) {
    if (packed) PackedOnce(e, pw);
    RunBound(e, packed, px, pw, pb, pa, add_index, py);
    return;
  }
  std::unordered_map<int, dnnl::memory> args;
  args[DNNL_ARG_SRC] = Side(dnnl_util::ScratchSide::kSource, s.src_user, px, s.src_reorder, s.src_in, e.src, s.serial);
  if (s.wei_reorder && l.weights_id != 0) {
    args[DNNL_ARG_WEIGHTS] = PackedOnce(e, pw).mem;
  } else {
    args[DNNL_ARG_WEIGHTS] =
        Side(dnnl_util::ScratchSide::kWeights, s.wei_user, pw, s.wei_reorder, s.wei_in, e.wei, s.serial);
  }
  if (pb != nullptr) args[DNNL_ARG_BIAS] = dnnl_util::Wrap(e.bias, pb);
  if (add_index >= 0 && !e.sum)
    args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(add_index) | DNNL_ARG_SRC_1] =
        Side(dnnl_util::ScratchSide::kAddend, s.add_user, pa, s.add_reorder, s.add_in, e.dst, s.serial);
  float *dst = s.dst_reorder ? dnnl_util::Scratch(dnnl_util::ScratchSide::kDestination, e.dst) : py;
  if (add_index >= 0 && e.sum) LoadAddend(e, pa, dst);
  dnnl::memory t = dnnl_util::Wrap(e.dst, dst);
  args[DNNL_ARG_DST] = t;
  if (s.serial)
    dnnl_util::RunSerial(e.prim, args);
  else
    dnnl_util::Run(e.prim, args);
  if (s.dst_reorder) Reorder(s.dst_out, t, dnnl_util::Wrap(s.dst_user, py), s.serial);
}

}  // namespace openatc_ops
