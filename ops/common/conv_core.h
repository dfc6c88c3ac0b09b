/**
 * @file ops/common/conv_core.h
 * The oneDNN forward convolution behind ONNX Conv and GE's Conv2D alias. Operands are described
 * by their LOGICAL dims (X [N, C, spatial...], W [M, C/group, k...], Y [N, M, out...]) plus the
 * element strides of those logical dims in memory, so that NCHW, NHWC, OIHW, HWCN and OHWI
 * buffers are all read in place, with no transpose (oneDNN takes arbitrary strides).
 * float32 natively; float16 and double are converted to float32 and back (dnnl_util::AsF32).
 */
#ifndef OPENATC_OPS_COMMON_CONV_CORE_H_
#define OPENATC_OPS_COMMON_CONV_CORE_H_

#include <atomic>
#include <memory>
#include <string>

#include "common/conv_layout.h"
#include "common/dnnl_post_ops.h"
#include "common/dnnl_util.h"
#include "common/dnnl_window.h"
#include "common/nan_verdicts.h"

namespace openatc_ops {

/// One resolved convolution. `x`, `w`, `y` are logical dims; `*_strides` their element strides
/// (same order as the dims; dense row-major when empty).
struct ConvProblem {
  Dims x, w, y;
  Dims x_strides, w_strides, y_strides;
  int64_t group = 1;
  Window win;  ///< strides, dilations (1 = dense), pads_begin/pads_end per spatial axis
  /// Fused post-ops applied to the f32 result in order (dnnl_post_ops.h); a binary_add reads
  /// RunConvolution's `addend`, a dense tensor of Y's dims.
  std::vector<dnnl_util::PostOpSpec> post_ops;
  /// Layout planning's choice (conv_layout.h); honoured for dense 2-D problems, else plain.
  ConvLayout layout;
  /// The ids under which this node recalls or records the value bounds of X, the addend and Y
  /// (openatc/nan_scan_share.h).
  NanScanShare nan_share;
};

/// What one node's constant W and B are, scanned once: whether they hold a non-finite value (the
/// NaN replay of a NaN-losing chain, conv_nan.h, needs it on every run) and their magnitudes (the
/// output's bound). Set at load for a prepared node (conv_prepared.h), else on the first run of an
/// entry made for one set of constant weights.
struct ConstScan {
  enum : int { kUnscanned = 0, kFinite = 1, kNonFinite = 2 };
  std::atomic<int> state{kUnscanned};
  /// With kFinite: the largest sum of |w| over one output channel's weights and the largest |b|
  /// (nan_verdicts.h ConvBound). Stored before `state` (release), read after it (acquire).
  std::atomic<double> w_row_l1{0.0}, b_max{0.0};
};

/// Scans the constant W (`w`, p.w's dims) and B (`b`, p.w[0] values; null: none) into `s`; the
/// row sums only with `sums` (else w_row_l1 is nan_verdicts.h's kNoBound: no output bound).
void ScanConsts(const ConvProblem &p, const float *w, const float *b, ConstScan *s, bool sums = true);

struct BoundArgs;  // conv_blocked.cc

/// A cached primitive and its memory descriptors (one per distinct problem).
struct ConvEntry {
  dnnl::convolution_forward prim;
  dnnl::memory::desc src, wei, bias, dst;
  bool blocked = false;  ///< built by MakeBlockedConv: `sides` holds its reorders
  /// The fused addend is added by oneDNN's sum post-op (ConvLayout::add_in_place): the primitive's
  /// destination must hold the addend when it runs (RunBlockedConv copies it there unless Y already
  /// shares the addend's bytes).
  bool sum = false;
  BlockedSides sides;
  /// > 1: `prim` computes one of `parts` equal slices of the output channels (SplitWinograd), its
  /// descriptors those of a slice; the slices run at once (dnnl_util::RunEach). A slice computes
  /// `part_channels` output channels: `part_weights` elements of W, `part_outputs` of Y (and of
  /// the addend).
  int parts = 1;
  int64_t part_channels = 0, part_weights = 0, part_outputs = 0;
  /// Slices 1.. of a split entry: primitives of `prim`'s descriptor, each its own object (runs of
  /// one object at once share its resources; dnnl_util::RunEach).
  std::vector<dnnl::convolution_forward> slices;
  /// W's and B's scan (shared by the copies of the entry). Kept across runs only where the entry
  /// belongs to one set of constant weights: a prepared node's, or a blocked entry whose cache
  /// key holds openatc_weights_id.
  std::shared_ptr<ConstScan> wb_scan = std::make_shared<ConstScan>();
  /// Set (BindArgs) only on an entry one node owns (a prepared node's): RunBlockedConv then makes
  /// its oneDNN memory objects and argument maps once and points them at each run's buffers
  /// (runs of one node never overlap), instead of creating ~4-8 memory objects and maps a run.
  std::shared_ptr<BoundArgs> bound;
};

using ConvCache = dnnl_util::PrimitiveCache<ConvEntry>;

/// Dense row-major strides of `d` (for the *_strides fields).
Dims DenseStrides(const Dims &d);

/// `d` permuted: result[i] = d[perm[i]] (used to turn physical dims/strides into logical ones).
Dims Permute(const Dims &d, const std::vector<size_t> &perm);

/// Whether a blocked Conv that atc allowed Winograd (ConvLayout::winograd; a 3x3, stride 1,
/// dilation 1, ungrouped 2-D problem) asks oneDNN for its Winograd algorithm when run on `threads`
/// threads. oneDNN 2.6 has it for AVX-512 only (F(4x4, 3x3) for wide outputs, F(2x2, 3x3) for
/// narrow ones); elsewhere the direct algorithm is used. Winograd does 2.25x fewer multiply-adds
/// but splits its work by output tiles and keeps more weights. Measured (2-core AVX-512 AMD EPYC,
/// one oneDNN primitive timed alone, direct vs Winograd): with at least 12 4x4 tiles per thread
/// (14x14 at 1 thread, 28x28 at 2) it took 0.4-0.8x the direct time. With fewer tiles it still
/// took 0.5-0.7x for wide channels (1 thread: 512x512 at 7x7 0.61x, 256x256 at 7x7 0.63x; 2
/// threads: 256x256 at 14x14 0.55x, 512x512 at 7x7 0.66x) and 1.0-2x otherwise (2 threads:
/// 192x256 at 14x14 1.2x, 224x224 at 7x7 1.6x, 160x224 at 7x7 1.8x). So a problem of 256 or more
/// input and output channels takes Winograd on any thread count once one thread's 12 tiles are
/// there (light_resnet50's six 256x256 convolutions at 14x14, 2 threads: 0.66 -> 0.50 ms each,
/// peak RSS 254 -> 303 MiB, what 1 thread already uses; ONNX Runtime 345). The narrower and the
/// 7x7 ones are left direct: taking every 12M-multiply-add problem of 256+ input channels made
/// light_resnet50 2 ms faster at 2 threads but raised its peak RSS to 370 / 371 MiB at 1 / 2
/// threads, and inception_v2's at 1 thread from 180 to 219 (ORT 195).
bool UseWinograd(const ConvProblem &p, int threads);

/// The number of output-channel slices (> 1) in which a blocked Conv on `threads` threads
/// computes with Winograd, each slice a primitive made for one thread and the slices run at once,
/// or 1: not split. For a problem UseWinograd gives Winograd on one thread but not on `threads`
/// (enough tiles for one thread, too few for each of them, and narrower than 256 channels), the
/// direct algorithm on the whole team did 1.3-2x the multiply-adds in about the same time as
/// Winograd on half the channels per thread. Measured (2-core AVX-512 AMD EPYC, oneDNN primitives
/// timed alone, 2 threads, direct on the team vs two Winograd slices): at 14x14, 64x96 65 vs 45
/// us, 96x128 119 vs 89, 128x128 144 vs 108, 160x192 261 vs 184, 192x192 306 vs 251, 192x256 445
/// vs 413 (light_inception_v2's 3x3 convolutions). In the model (omrun --profile, best of 3
/// alternated medians) the slices took 0.77-0.9x the direct time from 96x128 to 192x192, but
/// 1.25x at 64x96 (10.8M multiply-adds: the team's wake weighs more) and 1.04x at 192x256. So
/// only from kSerialConvMacs multiply-adds and for fewer than 256 output channels; only on 2
/// threads (measured there), for N = 1, X, Y and the addend in the chain layout (a slice of whole
/// channel blocks is a slice of bytes), constant weights (packed once per slice) and channels
/// that split into whole blocks. Slices for the wide problems on 7x7 maps (light_resnet50's three
/// 512x512) were tried: peak RSS 302 -> 354 MiB (ONNX Runtime 338-345) and no faster.
int SplitWinograd(const ConvProblem &p, int threads);

/// oneDNN's brgemm convolution (brgconv, nhwc only) instead of its jit kernel on the chain layout,
/// for a dense 2-D problem with a kernel wider than 1x1 on an output map of at most
/// kBrgConvMaxPixels pixels and of at least kBrgConvMacs multiply-adds. Measured (omrun --profile
/// medians, alternated, 2-core AVX-512 AMD EPYC): light_resnet50's three 512x512 3x3 on 7x7 (115M
/// multiply-adds) 5.2-5.7 -> 4.7-4.9 ms together at 1 thread, 3.2-3.4 -> 2.5-2.8 at 2;
/// light_inception_v2's eight 3x3 on 7x7 (11-29M) 3.05 -> 2.31 ms at 1 thread but 1.72 -> 1.97
/// at 2; on 14x14 maps and for 1x1 kernels it was slower at both thread counts. The rule does not
/// look at the thread count on purpose: the weights atc packs into the OM are packed for the
/// kernel it picks, and a load that picked another would repack them (peak RSS of inception_v2 at
/// 1 thread 183 -> 197 MiB when the 1-thread runs took brgconv for its eight).
/// A Conv with a fused residual Add keeps the jit kernel: oneDNN 2.6 offers no brgemm kernel with
/// a binary_add post-op, and one with the sum post-op (openatc/addend_in_place.h) was not measured.
inline constexpr int64_t kBrgConvMaxPixels = 49;
inline constexpr int64_t kBrgConvMacs = int64_t{64} << 20;
bool UseBrgConv(const ConvProblem &p);

/// Fills `e` with a blocked-layout primitive for `p` and the reorders at its plain or chain-layout
/// sides (conv_layout.h); the plain primitive when oneDNN offers only its reference
/// implementation for the blocked one. Throws dnnl::error.
/// `serial`: create it in a dnnl_util::SerialScope (and run it in one: kSerialConvMacs).
void MakeBlockedConv(const ConvProblem &p, bool has_bias, bool serial, ConvEntry *e);

/// Packs plain weights `w` into the entry's packed weights (ConvEntry::parts slices; on the
/// calling thread alone when `serial`). The caller holds the packed weights' lock or owns them.
void PackSlices(const ConvEntry &e, const float *w, bool serial);

/// Makes `e` (a MakeBlockedConv entry of one slice, owned by one node) reuse its memory objects
/// from run to run (ConvEntry::bound).
void BindArgs(ConvEntry *e);

/// Runs a MakeBlockedConv entry on plain-or-chain float32 buffers (`pb`, `pa` may be null). A sum
/// entry reads the addend `pa` only where it is not already `py` (the memory plan put Y on it).
void RunBlockedConv(const ConvEntry &e, const ConvLayout &l, const float *px, const float *pw, const float *pb,
                    const float *pa, int add_index, float *py);

/// True when `p` may take the blocked path (openatc_layout "blocked", dense, 2-D, all float32).
bool ConvBlockable(const ConvProblem &p, bool all_f32);

/// "" or why the chain-layout attributes of `p` cannot be honoured.
std::string CheckConvLayout(const ConvProblem &p, bool blockable);

/// The thread count a primitive for `p` is made for (1 when `*serial`: kSerialConvMacs,
/// kDenseConvMacs).
int ConvThreads(const ConvProblem &p, bool blockable, bool *serial);

/// ConvThreads, except that a convolution it makes serial runs on the whole team while the team
/// is awake (omp_team::TeamAwake: its workers still spin after the previous region, so taking
/// them wakes nobody). The serial rule is for a team that must be woken, or whose core another
/// process holds (then the spin gate sends its workers to sleep at once). Measured on the 2-core
/// Intel VM at 2 threads (omrun medians of 6 alternated rounds, serial rule / on the team for
/// every convolution): ultraface-rfb-320 3.94 / 2.73 ms, ppocr-mobile-v2-cls 0.83 / 0.79; with
/// one core busy the team for every convolution cost ultraface 4.19 -> 4.57 ms (1 thread 3.92),
/// which this per-run choice avoids.
int ConvThreadsNow(const ConvProblem &p, bool blockable, bool *serial);

/// A new primitive entry for `p` (blocked or plain). Throws dnnl::error.
ConvEntry MakeConvEntry(const ConvProblem &p, bool has_bias, bool blockable, bool serial);

/// Runs `entry` (made for `p`) on the tensors; `add_index` = BinaryAddIndex(p.post_ops). A
/// blocked entry whose packed weights are ready reads them instead of `w`'s data.
ge::graphStatus RunConvEntry(const gert::ExtendedKernelContext *ctx, const ConvEntry &entry, const ConvProblem &p,
                             const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b, gert::Tensor &y,
                             const gert::Tensor *addend, int add_index);

/// y = post_ops(conv(x, w) + b), with `b` (nullptr: no bias) a 1-D tensor of M values and
/// `addend` the binary_add operand (required when p.post_ops has one). `x`, `w`, `y` (and
/// `addend`) hold float data of one dtype; `y` is already allocated with NumElements(p.y) elements.
/// Returns GRAPH_SUCCESS, or Fail(ctx, ...) when the data is missing or oneDNN refuses.
ge::graphStatus RunConvolution(const gert::ExtendedKernelContext *ctx, ConvCache *cache, const ConvProblem &p,
                               const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b, gert::Tensor &y,
                               const gert::Tensor *addend = nullptr);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CONV_CORE_H_
