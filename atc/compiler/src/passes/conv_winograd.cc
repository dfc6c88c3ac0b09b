// ConvWinogradPass: a Conv that layout planning put in the blocked layout and that is a 3x3,
// stride 1, dilation 1, ungrouped 2-D float32 convolution gets openatc_winograd = 1: the run time
// may then compute it with oneDNN's Winograd F(4x4, 3x3) algorithm, where that is faster on the
// thread count it runs with (ops/common/conv_core.h UseWinograd; oneDNN 2.6 has it on AVX-512 CPUs
// only). Winograd rounds differently from the direct sum: results stay within float32's usual
// convolution error (tests/ops/ops_winograd_test.cc bounds it), not bit-identical to the direct
// algorithm, so the switch file can turn it off.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {

size_t RunConvWinograd(PassGraph &pg) {
  size_t marked = 0;
  for (size_t i = 0; i < pg.g.nodes.size(); ++i) {
    ir::Node &n = pg.g.nodes[i];
    if (!pg.Is(static_cast<int32_t>(i), "Conv") || n.input_descs.size() < 2) continue;
    auto layout = n.attrs.find("openatc_layout");
    if (layout == n.attrs.end() || layout->second.kind != ir::AttrKind::kString || layout->second.s != "blocked") continue;
    const std::vector<int64_t> &w = n.input_descs[1].shape;
    if (w.size() != 4 || w[2] != 3 || w[3] != 3 || n.input_descs[1].dtype != ge::DT_FLOAT) continue;
    if (IntAttr(n, "group", 1) != 1 || !AllEqual(IntsAttr(n, "strides"), 1) || !AllEqual(IntsAttr(n, "dilations"), 1)) continue;
    SetInt(n, "openatc_winograd", 1);
    LogInfo("pass " + std::string(kConvWinograd) + ": Conv '" + n.name + "' may compute with Winograd");
    ++marked;
  }
  return marked;
}

}  // namespace openatc::compiler::passes
