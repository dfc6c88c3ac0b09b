// MatMulBiasAddFoldPass: Add(MatMul(A, B), C), in either operand order, with C a float32 Const of N
// values (dims all 1 but the last, which is N) and B at least 2-D with N columns, becomes
// MatMul(A, B, bias = C as [N]): oneDNN adds the bias in the product's own pass over the output
// instead of a second node reading and writing it (the linear layers PyTorch exports as
// MatMul + Add: each attention projection of ezkl-multihead-attention). The Add may not broadcast
// the product (its output has the MatMul's shape). The MatMul takes the Add's name and records
// both in openatc_fused_nodes.
#include "openatc/common/log.h"
#include "pass_util.h"
#include "passes.h"

namespace openatc::compiler::passes {
namespace {

bool Fold(PassGraph &pg, int32_t mi) {
  const ir::Node &mm = pg.node(mi);
  if (!pg.Is(mi, "MatMul") || pg.GraphOutput(mi) || mm.inputs.size() != 2) return false;
  const ir::Endpoint &be = mm.inputs[1];
  if (!be.connected()) return false;
  const std::vector<int64_t> &bshape = pg.node(be.node).output_descs[static_cast<size_t>(be.index)].shape;
  const std::vector<int64_t> &y = mm.output_descs[0].shape;
  if (bshape.size() < 2 || y.empty() || bshape.back() < 1 || y.back() != bshape.back()) return false;
  const int32_t ai = pg.SoleConsumer(mi);
  if (!pg.Is(ai, "Add")) return false;
  const ir::Node &add = pg.node(ai);
  if (add.inputs.size() != 2 || add.output_descs[0].shape != y) return false;
  const size_t k = add.inputs[0].node == mi ? 1 : 0;
  std::vector<double> c;
  std::vector<int64_t> cs;
  if (!ConstF32(pg.g, add.inputs[k], &c, &cs) || cs.empty() || cs.size() > y.size() || cs.back() != y.back() ||
      static_cast<int64_t>(c.size()) != y.back())
    return false;
  const int64_t n = y.back();
  const std::string mm_name = mm.name, add_name = add.name;
  std::vector<std::string> fused = FusedNames(mm);
  fused.push_back(add_name);
  const ir::Endpoint old_c = add.inputs[k];
  pg.SetInput(mi, 2, {pg.AddConst(mm_name + "/bias", {n}, c), 0});
  Absorb(pg, mi, ai, fused);
  DropUnreadConsts(pg, {old_c});
  LogInfo("pass " + std::string(kMatMulBiasAdd) + ": folded Add '" + add_name + "' into MatMul '" + mm_name +
          "' as its bias (fused node '" + add_name + "': " + JoinNames(fused) + ")");
  return true;
}

}  // namespace

size_t RunMatMulBiasAddFold(PassGraph &pg) {
  size_t changes = 0;
  const size_t n = pg.g.nodes.size();
  for (size_t i = 0; i < n; ++i)
    if (pg.g.nodes[i].type == "MatMul" && Fold(pg, static_cast<int32_t>(i))) ++changes;
  return changes;
}

}  // namespace openatc::compiler::passes
