/**
 * @file ge/ge_api.h
 * GE's online flow on the host target (libge_runner.so): build a ge::Graph in C++, then compile
 * and run it in this process through ge::Session (GE `inc/external/ge/ge_api.h`; the calls GE's
 * online samples make, docs/acl.md §5).
 *
 * Lifecycle (docs/custom-op-lifecycle.md §10, online flow): AddGraph snapshots the graph;
 * CompileGraph runs the same passes as `atc --soc_version host` (shape inference, Compile per node,
 * memory plan, DeclareLaunchArgs) on the process-wide op objects and keeps the compiled model in
 * memory: the objects that compiled also execute, so no PortableOp, Serialize or Deserialize is
 * involved. LoadGraph prepares the compiled graph to run (a static graph runs in sink mode: Execute
 * once, launches replayed, ArgsUpdater/AnnotatedArgsOp slots retargeted);
 * ExecuteGraphWithStreamAsync runs it on caller memory. RunGraph does all of this on first use;
 * with ge.graphRunMode "0" it calls Execute on every run (GE's dynamic path).
 *
 * Custom ops come from ASCEND_CUSTOM_OPP_PATH (read by GEInitialize, GE's search order) and the
 * built-in operator library, plus any op type the program registers itself.
 *
 * Errors: every call returns ge::SUCCESS or ge::FAILED, never throws and never aborts; the message
 * of the last failure on the calling thread (what, which graph id and node, what to do) is
 * GEGetErrorMsgV2() / GEGetErrorMsg(). Threading: one Session may be used from one thread at a
 * time per graph; graphs of different sessions are independent.
 */
#ifndef OPENATC_GE_GE_API_H_
#define OPENATC_GE_GE_API_H_

#include <cstdint>
// GE's ge_api.h brings <iostream> in through its includes; GE's TileLang session_run programs use
// std::cout / std::cerr with no include of their own (README.md "TileLang flows with a stand-in
// kernel producer").
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_tensor.h"
#include "ge/ge_api_error_codes.h"
#include "ge/ge_api_types.h"
#include "graph/ascend_string.h"
#include "graph/graph.h"
#include "graph/tensor.h"

#define OPENATC_GE_API __attribute__((visibility("default")))

namespace ge {

/// Starts GE for this process: reads ASCEND_CUSTOM_OPP_PATH and loads every custom-op deliverable
/// and the built-in operators (a deliverable that fails to load fails the call). `options` are
/// the global options every session sees (ge/ge_api_types.h); unknown keys are accepted and
/// logged. Calling it again while initialized is accepted (GE returns SUCCESS too).
OPENATC_GE_API Status GEInitialize(const std::map<AscendString, AscendString> &options);
/// Ends GE for this process. Every later Session call fails (OA2401) until GEInitialize runs
/// again; op objects and compiled kernels stay alive until the process exits.
OPENATC_GE_API Status GEFinalize();
/// The message of the calling thread's last failed ge/ge_api.h call ("" if none).
OPENATC_GE_API AscendString GEGetErrorMsgV2();
/// The calling thread's warnings since the last call (e.g. unknown options), "" if none.
OPENATC_GE_API AscendString GEGetWarningMsgV2();

/// Deprecated std::string forms (kept header-inline so no std::string crosses the library ABI).
[[deprecated("use GEInitialize(const std::map<AscendString, AscendString> &)")]] inline Status GEInitialize(
    const std::map<std::string, std::string> &options) {
  std::map<AscendString, AscendString> converted;
  for (const auto &kv : options) converted[AscendString(kv.first.c_str())] = AscendString(kv.second.c_str());
  return GEInitialize(converted);
}
inline std::string GEGetErrorMsg() { return GEGetErrorMsgV2().GetString(); }
inline std::string GEGetWarningMsg() { return GEGetWarningMsgV2().GetString(); }

class SessionImpl;

class OPENATC_GE_API Session {
 public:
  /// A session with `options` (ge/ge_api_types.h; merged over GEInitialize's). Without
  /// GEInitialize the session is unusable: every later call fails with a message saying so.
  explicit Session(const std::map<AscendString, AscendString> &options);
  [[deprecated("use Session(const std::map<AscendString, AscendString> &)")]] explicit Session(
      const std::map<std::string, std::string> &options)
      : Session(Convert(options)) {}
  /// Releases every graph (loaded models, their memory); op objects stay process-wide.
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// Snapshots `graph` under `graph_id` (later edits of `graph` are not seen). Fails on an id
  /// already added, an empty graph, a graph with no outputs or a cycle, or an attribute kind the
  /// IR cannot hold. Data nodes become model inputs by their `index` attr; when those are not
  /// exactly 0..n-1 (the default leaves them all 0) they are numbered in Graph::SetInputs order.
  Status AddGraph(uint32_t graph_id, const Graph &graph);
  /// As AddGraph, with per-graph options (merged over the session's).
  Status AddGraph(uint32_t graph_id, const Graph &graph, const std::map<AscendString, AscendString> &options);
  [[deprecated("use AddGraph(uint32_t, const Graph &, const std::map<AscendString, AscendString> &)")]] Status
  AddGraph(uint32_t graph_id, const Graph &graph, const std::map<std::string, std::string> &options) {
    return AddGraph(graph_id, graph, Convert(options));
  }
  /// Forgets the graph (and its compiled/loaded model). Unknown id: FAILED.
  Status RemoveGraph(uint32_t graph_id);

  /// Compiles the graph for the host target (once; again is a no-op). Errors name the node, its
  /// op type and the callback that failed.
  Status CompileGraph(uint32_t graph_id);
  /// Prepares a compiled graph to run (GE: only after CompileGraph, and only once). `options` are
  /// accepted and logged; `stream` is an aclrtStream (or null) the graph will be run on.
  Status LoadGraph(const uint32_t graph_id, const std::map<AscendString, AscendString> &options, void *stream) const;
  /// Runs a loaded graph once on caller memory: `inputs` in model input order (dtype and shape
  /// must equal the graph's; address non-null), `outputs` one tensor per graph output with a
  /// non-null address of at least the output's byte size, or empty: then one host tensor per
  /// output is allocated (owned by the returned gert::Tensor; needs static output shapes).
  /// Work already queued on `stream` completes first; on return the outputs are written (the host
  /// target runs synchronously), so aclrtSynchronizeStream(stream) afterwards returns at once.
  Status ExecuteGraphWithStreamAsync(uint32_t graph_id, void *stream, const std::vector<gert::Tensor> &inputs,
                                     std::vector<gert::Tensor> &outputs);
  /// Compiles and loads on first use, then runs once on host tensors: `inputs` in model input
  /// order; `outputs` is replaced by one ge::Tensor per graph output (shape, dtype and data the
  /// ops produced, e.g. a data-dependent shape).
  Status RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);

 private:
  static std::map<AscendString, AscendString> Convert(const std::map<std::string, std::string> &options) {
    std::map<AscendString, AscendString> converted;
    for (const auto &kv : options) converted[AscendString(kv.first.c_str())] = AscendString(kv.second.c_str());
    return converted;
  }
  std::unique_ptr<SessionImpl> impl_;
};

}  // namespace ge

#endif  // OPENATC_GE_GE_API_H_
