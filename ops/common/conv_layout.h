/**
 * @file ops/common/conv_layout.h
 * The blocked-layout convolution (issue 13 layout planning; docs/architecture.md, the compiler
 * pipeline). atc's LayoutPlanningPass (atc/compiler/src/passes/layout_plan.cc) marks 2-D float32
 * Convs with constant weights `openatc_layout = "blocked"`: such a Conv lets oneDNN choose the
 * source and weight layouts (format_tag::any, which selects the direct jit convolutions instead
 * of gemm on plain NCHW) and computes into the chain layout, reordering only where a side is
 * plain. The pass also marks which edges stay in the chain layout between layout-aware nodes:
 *   openatc_x_blocked = 1: input X arrives in the chain layout (no reorder in),
 *   openatc_y_blocked = 1: output Y is stored in the chain layout,
 *   openatc_addend_blocked = 1: the fused binary_add operand (input openatc_addend) arrives in it.
 * The chain layout is oneDNN's nChw8c, or nChw16c where the chain allows it and the CPU runs
 * AVX-512 (attribute openatc_chain_block; openatc/chain_block.h says which, so the OM does
 * not depend on the CPU it was compiled on). The pass keeps an edge blocked only when its
 * channel count is a multiple of the block, so a chain tensor has exactly the
 * bytes of its plain NCHW form (no channel padding; the memory plan is unchanged), and
 * Relu-like, same-shape Add/Sum and axis-1 Concat nodes between blocked nodes move its bytes
 * unchanged. Inside a Conv whose sides are plain, oneDNN picks the layout for the CPU it runs on.
 * openatc_weights_id (compile-time FNV-1a hash of W's and B's bytes, non-zero) lets the Conv keep
 * its reordered weights: packed once on the first run for the ISA oneDNN runs on, per entry.
 */
#ifndef OPENATC_OPS_COMMON_CONV_LAYOUT_H_
#define OPENATC_OPS_COMMON_CONV_LAYOUT_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "common/dnnl_util.h"

namespace openatc_ops {

/// What the layout attributes of one Conv node ask for.
struct ConvLayout {
  bool blocked = false;    ///< openatc_layout == "blocked"
  bool x_blocked = false;  ///< openatc_x_blocked
  bool y_blocked = false;  ///< openatc_y_blocked
  bool add_blocked = false;  ///< openatc_addend_blocked: the fused addend is in the chain layout
  int64_t weights_id = 0;  ///< openatc_weights_id; 0: weights are repacked on every run
  int64_t block = 8;       ///< the chain block on this CPU (openatc_chain_block, RunChainBlock)
  bool winograd = false;   ///< openatc_winograd: atc allows Winograd (UseWinograd decides per run time)
  /// openatc_addend_in_place: atc's memory plan gave Y the fused addend's bytes, so the blocked
  /// primitive adds it with oneDNN's sum post-op (openatc/addend_in_place.h)
  bool add_in_place = false;
};

/// Blocked convolutions of fewer multiply-adds than this are created and run on the calling
/// thread alone (dnnl_util::SerialScope): below it, waking the OpenMP team costs more than the
/// second thread saves (ppocr-mobile-v2-cls at 2 threads: its 1x1 convolutions ran 10x slower
/// than at 1 thread on a loaded 2-core machine). Measured on the quiet 2-core machine at 2
/// threads (omrun median, limit 4M / 16M / 32M): ultraface-rfb-320 4.89 / 3.49 / 3.50 ms (1
/// thread 3.5), ppocr-v4-det 47.6 / 38.6 / 50.9, ppocr-mobile-v2-cls 1.11 / 1.09 / 1.12.
inline constexpr int64_t kSerialConvMacs = 16 << 20;

/// ... except a dense one: at least kDenseConvMacs multiply-adds and kDenseConvMacsPerByte of them
/// per byte of input, weights and output (1x1 convolutions of 192..1024 channels on 7x7..28x28
/// maps: 9..17). Its second thread computes more than it moves, while a thin convolution of the
/// same size (16..32 channels on a 120x160 map: 2.7..3.9) moves its halves between the cores'
/// caches and ran slower at 2 threads than at 1. Measured on the quiet 2-core machine at 2
/// threads (best of 3 omrun medians, ms, without / with the dense rule): inception_v2 16.3 / 14.9,
/// ultraface-rfb-320 3.24 / 3.29, ppocr-v4-det 22.8 / 22.5; lowering kSerialConvMacs itself to 4M
/// instead cost ultraface 50 % (3.37 -> 4.87). Those were libgomp's passive team; the ops' own
/// team (omp_team.h) spins between regions on a quiet machine, and the dense rule went from 8M to
/// 2M (alternated omrun medians of medians at 2 threads, 8M / 2M): inception_v2 12.17 / 11.70 ms,
/// densenet121 22.42 / 21.99, ppocr-v4-det 20.16 / 19.96, ultraface-rfb-320 2.80 / 2.79; with one
/// core kept busy, 2-thread / 1-thread: inception_v2 1.05 / 1.02, densenet121 1.00 / 1.01.
inline constexpr int64_t kDenseConvMacs = 2 << 20;
inline constexpr int64_t kDenseConvMacsPerByte = 8;

/// The chain block of a node whose openatc_chain_block attribute is `widest` (absent: 8), on
/// this CPU (openatc/chain_block.h).
int64_t ChainBlock(int64_t widest);

/// The chain block of a pool or squeeze-excitation Mul whose openatc_chain_layout attribute is at
/// index `chain_attr` and openatc_chain_block at `block_attr`; 0: it computes in plain NCHW.
inline int64_t NodeChainBlock(const gert::ExtendedKernelContext *ctx, size_t chain_attr, size_t block_attr) {
  return AttrInt(ctx, chain_attr, 0) != 0 ? ChainBlock(AttrInt(ctx, block_attr, 8)) : 0;
}

/// The chain layout descriptor of 4-D dims `d` in blocks of `block` (8: nChw8c, 16: nChw16c).
dnnl::memory::desc ChainF32(const Dims &d, int64_t block);

/// Weights reordered into the primitive's layout once (first run) and kept.
struct PackedWeights {
  std::mutex mu;
  std::atomic<bool> ready{false};
  dnnl::memory mem;
  std::vector<dnnl::memory> more;  ///< parts 1.. of a split entry (ConvEntry::parts); `mem` is part 0
};

/// The reorders around a blocked convolution primitive (empty primitive: that side needs none).
struct BlockedSides {
  bool serial = false;  ///< created in a SerialScope: run in one too
  dnnl::memory::desc src_user, wei_user, dst_user, add_user;
  dnnl::reorder src_in, wei_in, dst_out, add_in;
  bool src_reorder = false, wei_reorder = false, dst_reorder = false, add_reorder = false;
  std::shared_ptr<PackedWeights> packed = std::make_shared<PackedWeights>();
};

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CONV_LAYOUT_H_
