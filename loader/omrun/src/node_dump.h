// omrun --dump DIR: every op node's outputs of the first run as DIR/<node>.<output>.npy, named by
// the graph node that produced them, and DIR/index.json listing, in execution order, each node's
// op type, output files, dtypes and shapes, and the original nodes the compiler fused into it
// (the openatc_fused_nodes attribute of atc/compiler/src/passes/), and what a precision mode made
// of it: compute_dtype, output_dtype, precision_cast (atc/compiler/src/passes/precision.h). See
// README.md "omrun".
//
// The folder appears whole or not at all: files go to a sibling staging folder that replaces DIR
// at the end. DIR must be absent, empty, or an earlier dump (it holds index.json of this format).
#ifndef OPENATC_OMRUN_SRC_NODE_DUMP_H_
#define OPENATC_OMRUN_SRC_NODE_DUMP_H_

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "openatc/om/model.h"
#include "openatc/runtime/model.h"

namespace openatc::omrun {

/// The original nodes the compiler fused into `n` (attr openatc_fused_nodes of
/// atc/compiler/src/passes/; empty when none): what --dump and --profile list.
std::vector<std::string> FusedNodes(const ir::Node &n);

/// The "format" value of index.json.
inline constexpr const char *kDumpFormat = "openatc-dump/1";

class NodeDump : public runtime::NodeObserver {
 public:
  /// Checks `dir` (OA2304 when it cannot become a dump) and makes the staging folder.
  NodeDump(const om::Model &model, const std::string &model_path, std::string dir);
  ~NodeDump() override;

  void Started(size_t) override {}
  void Finished(size_t index, const std::vector<runtime::TensorView> &inputs,
                const std::vector<runtime::TensorView> &outputs) override;
  /// Writes index.json and puts the folder in place; later runs are not dumped.
  void Commit();

 private:
  std::string FileFor(size_t node, size_t output);

  const om::Model &model_;
  std::string model_path_;
  std::string dir_;
  std::string staging_;
  bool done_ = false;
  nlohmann::json nodes_ = nlohmann::json::array();
  std::set<std::string> used_names_;
  std::string error_;  ///< the first write failure (Finished must not throw); Commit reports it
};

}  // namespace openatc::omrun

#endif  // OPENATC_OMRUN_SRC_NODE_DUMP_H_
