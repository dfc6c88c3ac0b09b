/**
 * @file ops/common/conv_prepared.h
 * A convolution node prepared at load (openatc/weight_packing.h): its problem, its primitive and,
 * for a blocked Conv with constant weights (openatc_weights_id), its weights in the primitive's
 * layout, taken from the OM's packed copy when that was made for this CPU's ISA and layout, else
 * repacked from the plain weights. Execute then runs the entry directly: no cache key, no lock.
 * At compile time PackConvWeights makes the copy atc stores in the OM.
 */
#ifndef OPENATC_OPS_COMMON_CONV_PREPARED_H_
#define OPENATC_OPS_COMMON_CONV_PREPARED_H_

#include <memory>
#include <string>
#include <vector>

#include "common/conv_core.h"
#include "openatc/weight_packing.h"

namespace openatc_ops {

struct ConvPrepared {
  ConvProblem p;
  bool has_bias = false;
  ge::DataType dtype = ge::DT_FLOAT;  ///< X's, W's and Y's dtype the entry was made for
  int host_threads = 1;               ///< dnnl_util::ApplyThreadCount() when it was made
  int add_index = -1;                 ///< BinaryAddIndex(p.post_ops)
  bool from_om = false;               ///< the packed weights are the OM's copy (not repacked)
  ConvEntry entry;
  /// For an entry made serial (ConvThreads): the same convolution made for the whole team, run
  /// instead while the team is awake (ConvThreadsNow). Shares the entry's packed weights where
  /// both primitives read one layout.
  std::unique_ptr<ConvEntry> team;
};

/// The entry of `s` to run now: `team` while the team is awake, else `entry`.
const ConvEntry &EntryNow(const ConvPrepared &s);

/// The packed copy of `w` (plain float32 weights of `p`) for this CPU, with its ISA and layout
/// tags; false when `p`'s primitive reads the plain weights as they are (nothing to pack).
/// Throws dnnl::error.
bool PackConvWeights(const ConvProblem &p, bool has_bias, const float *w, std::string *isa, std::string *layout,
                     std::vector<uint8_t> *bytes);

/// The prepared node for `p`: `w` (nullptr: not constant) the plain weights, `b` the bias
/// (nullptr: none, or not constant), `packed` the OM's copy of W (nullptr: none). When W and
/// the bias (if any) are constant float32, they are scanned for non-finite values here, once
/// (ConvEntry::wb_scan). Null when `p` cannot be prepared (Execute then reports why).
/// Throws dnnl::error.
std::shared_ptr<ConvPrepared> PrepareConv(const ConvProblem &p, bool has_bias, ge::DataType dtype, const float *w,
                                          const float *b, const openatc::PackedWeightView *packed);

/// True when `x`, `w`, `b` are what `s` was prepared for (dims, dtype, bias presence, threads).
bool PreparedMatches(const ConvPrepared &s, const gert::Tensor &x, const gert::Tensor &w, const gert::Tensor *b);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_CONV_PREPARED_H_
