// Graph optimisation passes of built-in ops (docs/architecture.md, the compiler pipeline): run by CompileGraph after constant folding and before the memory plan. Each pass
// rewrites only nodes whose type the built-in OPP package provides (custom ops are never
// rewritten), keeps every graph output's producing node name, logs one info line per change and
// can be switched off by name in a fusion switch file (atc --fusion_switch_file).
#ifndef OPENATC_COMPILER_PASSES_PASSES_H_
#define OPENATC_COMPILER_PASSES_PASSES_H_

#include <map>
#include <set>
#include <string>

#include "openatc/ir/graph.h"

namespace openatc::compiler::passes {

class WeightCache;

/// The pass names (what a fusion switch file names).
inline constexpr const char *kHardSwishPattern = "HardSwishPatternPass";
inline constexpr const char *kGeluPattern = "GeluPatternPass";
inline constexpr const char *kLayerNormPattern = "LayerNormPatternPass";
inline constexpr const char *kConvBnFold = "ConvBatchNormFoldPass";
inline constexpr const char *kConvBiasAdd = "ConvBiasAddFoldPass";
inline constexpr const char *kBnScaleFold = "BatchNormScaleFoldPass";
inline constexpr const char *kMatMulBiasAdd = "MatMulBiasAddFoldPass";
inline constexpr const char *kConvActivation = "ConvActivationFusionPass";
inline constexpr const char *kConvAdd = "ConvAddFusionPass";
inline constexpr const char *kReshapeChain = "ReshapeChainPass";
inline constexpr const char *kTransposePair = "TransposePairPass";
inline constexpr const char *kStridedPointwiseConv = "StridedPointwiseConvPass";
/// The attribute of a node a pass added that copies values exactly (StridedPointwiseConvPass's
/// subsampling MaxPool): the precision modes leave it in its dtype (precision.cc).
inline constexpr const char *kExactCopyAttr = "_openatc_exact_copy";
inline constexpr const char *kLayoutPlan = "LayoutPlanningPass";
/// Not a rewrite: marks blocked 3x3 Convs that may use Winograd at run time (conv_winograd.cc).
inline constexpr const char *kConvWinograd = "ConvWinogradPass";
/// Not a rewrite: built-in WeightPackingOp nodes store packed copies of constant inputs in the
/// OM (weight_prepack.cc); off, the OM holds plain weights only and ops pack them at load.
inline constexpr const char *kWeightPrepack = "WeightPrepackPass";
/// Not a rewrite: Convs learn a tensor's value bound from the node before them that recorded it
/// instead of reading the tensor for non-finite values (nan_scan_share.cc; openatc/nan_scan_share.h).
inline constexpr const char *kNanScanShare = "NanScanSharePass";
/// Not a rewrite: the memory plan lets a Conv with a fused residual Add write into its addend's
/// bytes (atc/compiler/src/memory_plan.cc; openatc/addend_in_place.h).
inline constexpr const char *kAddendInPlace = "AddendInPlacePass";

/// Which passes run: all by default; a switch file turns any of them off (fusion_switch.cc).
struct PassSwitches {
  std::map<std::string, bool> on;  ///< pass name -> enabled
  PassSwitches();
  bool enabled(const char *name) const;
};

/// Reads a fusion switch file in ATC's JSON form ({"Switch": {"GraphFusion": {"<pass>": "on" |
/// "off", "ALL": ...}, "UBFusion": {...}}}) or its line form (`<pass>:on` / `<pass>:off`, '#'
/// comments). "ALL" sets every pass first, then the named ones apply. A name that is not one of
/// our passes is a warning (it has no effect here). Throws kUsage E10001 naming the file for an
/// unreadable or malformed file or a value other than on/off.
PassSwitches ReadFusionSwitchFile(const std::string &path);

/// Runs the enabled passes on a topologically sorted graph with inferred descriptors; the graph
/// stays topologically sorted. `builtin` = the op types the built-in package provides.
/// Returns the number of changes made.
size_t RunGraphPasses(ir::Graph &graph, const PassSwitches &switches, const std::set<std::string> &builtin);

/// WeightPrepackPass (weight_prepack.cc): for each node of a `builtin` type whose op is an
/// openatc::WeightPackingOp, the op's packed copies of its constant inputs go into
/// Node::packed_weights. Runs last, after the precision passes, on the final graph. Returns the
/// number of copies stored. Each node's copies come from `cache` when it holds them
/// (weight_cache.h), else from PackWeights (then stored there). Throws openatc::Error when an
/// op's PackWeights fails.
size_t RunWeightPrepack(ir::Graph &graph, const std::set<std::string> &builtin, WeightCache &cache);

/// NanScanSharePass (nan_scan_share.cc) on the final graph (after the precision passes): gives
/// the Convs of `builtin` type their tensors' bound ids. Returns how many inputs take a bound from
/// an earlier node.
size_t RunNanScanShare(ir::Graph &graph, const std::set<std::string> &builtin);

}  // namespace openatc::compiler::passes

#endif  // OPENATC_COMPILER_PASSES_PASSES_H_
