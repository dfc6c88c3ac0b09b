// Static ("sink") execution state (internal to the runtime): GE runs a static model's Execute
// once per node while the stream records the launches, and replays the recording on every later
// run, calling ArgsUpdater::UpdateHostArgs when a node's input/output addresses changed
// (docs/custom-op-lifecycle.md §10, docs/architecture.md "Static (sink) execution"). Here the
// recording happens during the first run (with real inputs, so no Execute ever sees garbage); nodes
// whose Execute launched nothing (host-side ops) keep calling Execute on every run.
#ifndef OPENATC_RUNTIME_SINK_H_
#define OPENATC_RUNTIME_SINK_H_

#include <memory>
#include <vector>

#include "exec_services.h"
#include "openatc/rt/runtime.h"

namespace openatc::runtime {

struct SinkRecord {
  bool captured = false;   ///< Execute ran once under the launch observer
  bool sunk = false;       ///< replayed from `launches` instead of calling Execute
  bool patchable = false;  ///< every launch reads an args block from MallocReadOnlyDevArgs (V2)
  std::vector<rt::LaunchRecord> launches;
  std::unique_ptr<ExecServices> services;  ///< workspaces and args blocks the launches point into
  std::vector<const void *> addrs;         ///< input then output addresses the launches use
};

struct SinkState {
  std::vector<SinkRecord> records;                     ///< per node
  std::vector<std::unique_ptr<HostBuffer>> inputs;     ///< fixed input buffers, per model input
  std::vector<std::unique_ptr<HostBuffer>> outputs;    ///< fixed output buffers, per model output
};

/// Replays a sunk node's launches on `stream`. Throws openatc::Error on a launch failure.
void ReplayLaunches(const SinkRecord &record, void *stream);

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_SINK_H_
