// One graph of a ge::Session: its IR snapshot, compiled model and loaded model, and the calls
// that move it through AddGraph -> CompileGraph -> LoadGraph -> Execute (internal).
#ifndef OPENATC_GE_RUNNER_GRAPH_ENTRY_H_
#define OPENATC_GE_RUNNER_GRAPH_ENTRY_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_tensor.h"
#include "ge_state.h"
#include "graph/tensor.h"
#include "openatc/common/target.h"
#include "openatc/ir/graph.h"
#include "openatc/om/model.h"
#include "openatc/runtime/model.h"

namespace openatc::ge_runner {

class GraphEntry {
 public:
  /// `where` names the graph in errors ("graph 3 (g)"); `options` are the merged global, session
  /// and graph options.
  GraphEntry(uint32_t id, std::string where, ir::Graph graph, Options options);

  /// Compiles once (later calls are no-ops); OA2407 for a ge.socVersion other than host.
  void Compile();
  /// The target the online flow compiles for (OPENATC_EMULATION, ge.socVersion).
  Target OnlineTarget() const;
  /// LoadGraph: needs Compile first (OA2405) and runs once (a second call is OA2405, as GE).
  void Load(void *stream);
  /// ExecuteGraphWithStreamAsync: needs Load (OA2405); tensors checked against the model (OA2406).
  void Execute(void *stream, const std::vector<gert::Tensor> &inputs, std::vector<gert::Tensor> &outputs);
  /// RunGraph: compiles and loads on first use.
  void Run(const std::vector<ge::Tensor> &inputs, std::vector<ge::Tensor> &outputs);

 private:
  void LoadLocked();
  bool EagerMode() const;

  std::mutex mu_;
  uint32_t id_;
  std::string where_;
  Options options_;
  std::optional<ir::Graph> graph_;  ///< until compiled
  std::optional<om::Model> model_;  ///< compiled, in memory, never serialized
  std::unique_ptr<runtime::LoadedModel> loaded_;
  bool load_graph_called_ = false;
};

}  // namespace openatc::ge_runner

#endif  // OPENATC_GE_RUNNER_GRAPH_ENTRY_H_
