// The omrun dump layout (README.md "omrun", docs/acl.md §8): one run's op nodes as
// DIR/<node>.<output>.npy (outputs) and DIR/<node>.input.<input>.npy (inputs), named by the graph
// node that produced or read them, and DIR/index.json (format openatc-dump/1) listing, in
// execution order, each node's op type, files, dtypes and shapes, the original nodes the compiler
// fused into it (the openatc_fused_nodes attribute of atc/compiler/src/passes/), and what a
// precision mode made of it: compute_dtype, output_dtype, precision_cast
// (atc/compiler/src/passes/precision.h). Written by omrun --dump (its first run) and by the
// aclmdl dump config (loader/mdl/src/dump_run.h, one folder per dumped step); read by omrun
// --compare (loader/omrun/src/dump_compare.h).
//
// The folder appears whole or not at all: files go to a sibling staging folder that replaces DIR
// at the end. DIR must be absent, empty, or an earlier dump (it holds index.json of this format).
#ifndef OPENATC_DUMP_NODE_DUMP_H_
#define OPENATC_DUMP_NODE_DUMP_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "openatc/om/model.h"
#include "openatc/runtime/model.h"

namespace openatc::dump {

/// The original nodes the compiler fused into `n` (attr openatc_fused_nodes of
/// atc/compiler/src/passes/; empty when none): what --dump and --profile list.
std::vector<std::string> FusedNodes(const ir::Node &n);

/// The block of the chain layout `n` stores its output 0 in on this CPU (8: nChw8c, 16: nChw16c;
/// attrs _openatc_layout and openatc_chain_block of atc/compiler/src/passes/layout_plan.cc, read as
/// openatc/chain_block.h says), or 0 when it is plain: what --dump and --profile show.
int64_t ChainLayoutBlock(const ir::Node &n);

/// The "format" value of index.json.
inline constexpr const char *kDumpFormat = "openatc-dump/1";

/// What a NodeDump writes. The default is omrun --dump's: every node's outputs as tensor files.
struct NodeDumpOptions {
  bool outputs = true;
  bool inputs = false;
  /// Only nodes whose name, or the name of a node fused into them, is listed (empty: all nodes).
  std::set<std::string> layers;
  /// Instead of tensor files, statistics per tensor in index.json (tensor_stats.h).
  bool stats = false;
  /// index.json's "run": which run of the model this is ("first", or "step <n>").
  std::string run = "first";
  /// How OA2304 (the folder cannot be written) names the folder, and what it advises.
  std::string folder_label = "--dump folder";
  std::string folder_hint = "Pass a folder that is absent, empty or an earlier omrun dump, in a place omrun can write";
};

class NodeDump : public runtime::NodeObserver {
 public:
  /// Checks `dir` (OA2304 when it cannot become a dump) and makes the staging folder (and the
  /// folders above it).
  NodeDump(const om::Model &model, const std::string &model_path, std::string dir, NodeDumpOptions options = {});
  ~NodeDump() override;

  void Started(size_t) override {}
  void Finished(size_t index, const std::vector<runtime::TensorView> &inputs,
                const std::vector<runtime::TensorView> &outputs) override;
  /// Writes index.json and puts the folder in place (OA2304 when a write failed); later runs
  /// are not dumped.
  void Commit();

 private:
  std::string FileFor(size_t node, const std::string &slot);
  bool Selected(const ir::Node &n) const;
  const ir::Node &Producer(const ir::Node &n, size_t k) const;
  nlohmann::json Tensors(size_t index, const std::vector<runtime::TensorView> &views, const char *slot);

  const om::Model &model_;
  std::string model_path_;
  std::string dir_;
  NodeDumpOptions options_;
  std::string staging_;
  bool done_ = false;
  nlohmann::json nodes_ = nlohmann::json::array();
  std::set<std::string> used_names_;
  std::string error_;  ///< the first write failure (Finished must not throw); Commit reports it
};

}  // namespace openatc::dump

#endif  // OPENATC_DUMP_NODE_DUMP_H_
