// Helpers shared by the graph passes (passes.h): consumer counts, Const values in double,
// attributes with their prototype defaults, new Const nodes, bypassing and erasing nodes.
#ifndef OPENATC_COMPILER_PASSES_PASS_UTIL_H_
#define OPENATC_COMPILER_PASSES_PASS_UTIL_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "openatc/ir/graph.h"

namespace openatc::compiler::passes {

/// The graph being rewritten and what the passes need to know about it.
struct PassGraph {
  ir::Graph &g;
  const std::set<std::string> &builtin;
  std::vector<bool> erased;  ///< nodes to drop in Finish()

  PassGraph(ir::Graph &graph, const std::set<std::string> &builtin_types);
  ir::Node &node(int32_t i) { return g.nodes[static_cast<size_t>(i)]; }
  /// Edges that read output `index` of node `i` (NetOutput's included), over live nodes.
  size_t Consumers(int32_t i, int32_t index = 0) const;
  /// The one live node reading output 0 of `i` (through exactly one edge), else -1.
  int32_t SoleConsumer(int32_t i) const;
  /// True when `i` has or is a control dependency (never rewritten).
  bool Pinned(int32_t i) const;
  /// True when an output of `i` is a graph output.
  bool GraphOutput(int32_t i) const;
  /// A built-in, live, unpinned node of `type` with float32 output 0 (it may be a graph output).
  bool Is(int32_t i, const char *type) const;
  /// Sets input `anchor` of node `c` to `e` (growing inputs and input_descs as needed).
  void SetInput(int32_t c, size_t anchor, ir::Endpoint e);
  /// Every edge reading (from, from_index) now reads `to`.
  void Redirect(ir::Endpoint from, ir::Endpoint to);
  /// Marks `i` erased, and every Const that only `i` (and erased nodes) read.
  void Erase(int32_t i);
  /// A name not used by any node, from `base`.
  std::string FreshName(const std::string &base) const;
  /// Appends `n` (its name made fresh; its inputs recorded) and returns its index.
  int32_t AddNode(ir::Node n);
  /// Appends a float32 Const node and returns its index.
  int32_t AddConst(const std::string &name, const std::vector<int64_t> &shape, const std::vector<double> &v);
  /// Drops the erased nodes (indices renumbered) and re-sorts topologically.
  void Finish();

 private:
  std::vector<bool> control_;  ///< has or is a control dependency
  /// Per node: the (consumer, input anchor) edges that read it (some may be stale, also past a
  /// rewritten consumer's inputs: checked on use).
  std::vector<std::vector<std::pair<int32_t, size_t>>> users_;
};

/// Float32 values of the Const feeding `e` (nullptr result: not a float32 Const with data).
bool ConstF32(const ir::Graph &g, const ir::Endpoint &e, std::vector<double> *out, std::vector<int64_t> *shape);
/// Attribute values with the defaults of the op's prototype.
float FloatAttr(const ir::Node &n, const char *name, float def);
int64_t IntAttr(const ir::Node &n, const char *name, int64_t def);
std::vector<int64_t> IntsAttr(const ir::Node &n, const char *name);
/// The per-channel values of a Const `c` (shape `cs`) that broadcasts along the channel axis
/// only, for a tensor of rank `rank` with `m` channels (axis 1): `cs` aligned from the right has
/// 1 everywhere but at most axis 1, which is m or 1. False when `c` broadcasts otherwise.
bool PerChannel(const std::vector<double> &c, const std::vector<int64_t> &cs, size_t rank, int64_t m,
                std::vector<double> *out);
/// True when input `k` of `n` is a one-element float32 Const equal to `want` (relative 2^-20):
/// how the pattern passes recognise the constants exporters write.
bool ConstIs(const PassGraph &pg, const ir::Node &n, size_t k, double want);
/// Marks erased each Const read through `old` that nothing live reads any more.
void DropUnreadConsts(PassGraph &pg, const std::vector<ir::Endpoint> &old);
/// True when every element of `v` is `x` (also when `v` is empty: an absent list attribute).
bool AllEqual(const std::vector<int64_t> &v, int64_t x);
/// Sets attribute `name` of `n` to an int, a list of ints or a string.
void SetInt(ir::Node &n, const char *name, int64_t v);
void SetInts(ir::Node &n, const char *name, std::vector<int64_t> v);
void SetStr(ir::Node &n, const char *name, const std::string &v);
/// Sets attr openatc_fused_nodes of `n` (the original nodes it now computes).
void SetFusedNames(ir::Node &n, std::vector<std::string> names);
/// Node `keep` now computes what `absorbed` (reading it) did: `absorbed`'s readers read `keep`,
/// `absorbed` is erased, and `keep` takes its name, with `fused` recorded.
void Absorb(PassGraph &pg, int32_t keep, int32_t absorbed, std::vector<std::string> fused);
/// The fused-node list of `n` (attr openatc_fused_nodes), or {n.name} when it has none.
std::vector<std::string> FusedNames(const ir::Node &n);
/// "a, b, c"
std::string JoinNames(const std::vector<std::string> &names);

}  // namespace openatc::compiler::passes

#endif  // OPENATC_COMPILER_PASSES_PASS_UTIL_H_
