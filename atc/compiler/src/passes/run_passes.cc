// RunGraphPasses: the pass order (passes.h). Decomposed activations (and layer normalisations) recognised first (so that
// they fuse), bias-Add, Mul, BatchNormalization-scale and BatchNormalization folding next, to a fixed point (they need the
// Conv's bias slot and no post-ops yet), the MatMul bias-Add, then post-op fusion, then the layout no-ops, the strided 1x1
// Convs' subsampling, then layout planning and the Winograd marks it allows.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {

size_t RunHardSwishPattern(PassGraph &pg);
size_t RunGeluPattern(PassGraph &pg);
size_t RunLayerNormPattern(PassGraph &pg);
size_t RunConvBnFold(PassGraph &pg);
size_t RunConvBiasAddFold(PassGraph &pg);
size_t RunBnScaleFold(PassGraph &pg);
size_t RunMatMulBiasAddFold(PassGraph &pg);
size_t RunConvPostOpFusion(PassGraph &pg, bool activations, bool adds);
size_t RunReshapeChain(PassGraph &pg);
size_t RunTransposePair(PassGraph &pg);
size_t RunStridedPointwiseConv(PassGraph &pg);
size_t RunLayoutPlanning(PassGraph &pg);
size_t RunConvWinograd(PassGraph &pg);

size_t RunGraphPasses(ir::Graph &graph, const PassSwitches &switches, const std::set<std::string> &builtin) {
  PassGraph pg(graph, builtin);
  size_t changes = 0;
  if (switches.enabled(kHardSwishPattern)) changes += RunHardSwishPattern(pg);
  if (switches.enabled(kGeluPattern)) changes += RunGeluPattern(pg);
  if (switches.enabled(kLayerNormPattern)) changes += RunLayerNormPattern(pg);
  // Folding to a fixed point: a BatchNormalization folded into a Conv may leave a Mul or Add of
  // per-channel constants after it that now folds too (Caffe exports: Conv -> BatchNormalization
  // -> Mul -> Add, light_densenet121), and the other way round.
  const bool bias = switches.enabled(kConvBiasAdd), bn = switches.enabled(kConvBnFold),
             bn_scale = switches.enabled(kBnScaleFold);
  for (size_t step = 1; step > 0; changes += step)
    step = (bias ? RunConvBiasAddFold(pg) : 0) + (bn_scale ? RunBnScaleFold(pg) : 0) + (bn ? RunConvBnFold(pg) : 0);
  if (switches.enabled(kMatMulBiasAdd)) changes += RunMatMulBiasAddFold(pg);
  const bool act = switches.enabled(kConvActivation), add = switches.enabled(kConvAdd);
  if (act || add) changes += RunConvPostOpFusion(pg, act, add);
  if (switches.enabled(kReshapeChain)) changes += RunReshapeChain(pg);
  if (switches.enabled(kTransposePair)) changes += RunTransposePair(pg);
  if (switches.enabled(kStridedPointwiseConv)) changes += RunStridedPointwiseConv(pg);
  if (changes > 0) pg.Finish();
  if (switches.enabled(kLayoutPlan)) {  // last: it only annotates the final nodes
    PassGraph lp(graph, builtin);
    changes += RunLayoutPlanning(lp);
    if (switches.enabled(kConvWinograd)) changes += RunConvWinograd(lp);  // reads the planned layout
  }
  for (const auto &[name, on] : switches.on)
    if (!on) LogInfo("pass " + name + ": switched off");
  return changes;
}

}  // namespace openatc::compiler::passes
