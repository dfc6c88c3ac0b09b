// omrun --profile FILE: one Chrome trace event per op node per run (chrome://tracing, Perfetto),
// and a summary of where the time went. See README.md "omrun", "Profiling and dumps".
#ifndef OPENATC_OMRUN_SRC_PROFILE_TRACE_H_
#define OPENATC_OMRUN_SRC_PROFILE_TRACE_H_

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "openatc/om/model.h"
#include "openatc/runtime/model.h"

namespace openatc::omrun {

class ProfileTrace : public runtime::NodeObserver {
 public:
  explicit ProfileTrace(const om::Model &model);

  /// Brackets one Run; `label` ("first", "warmup", "timed") names the run's own event.
  void BeginRun(const std::string &label);
  void EndRun();

  void Started(size_t index) override;
  void Finished(size_t index, const std::vector<runtime::TensorView> &inputs,
                const std::vector<runtime::TensorView> &outputs) override;
  void Kernel(size_t index, const std::string &implementations) override;

  /// The trace as Chrome's JSON object format ({"traceEvents": [...]}); written atomically.
  void Write(const std::string &path) const;
  /// Lines for stdout: time per op type over the timed runs (all runs when there were none),
  /// largest first, and the slowest nodes.
  std::string Summary(size_t top) const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Event {
    size_t node = 0;
    size_t run = 0;
    double start_us = 0;
    double dur_us = 0;
    std::vector<std::string> inputs, outputs;  ///< "float32[1,3,8,8] NCHW"
    std::string kernel;                        ///< the deliverable's kernel trace; "" when none
  };
  struct RunSpan {
    std::string label;
    double start_us = 0;
    double dur_us = 0;
  };
  double Now() const;

  const om::Model &model_;
  Clock::time_point origin_;
  Clock::time_point node_start_;
  std::string node_kernel_;  ///< Kernel's text for the node that is running
  std::vector<Event> events_;
  std::vector<RunSpan> runs_;
};

}  // namespace openatc::omrun

#endif  // OPENATC_OMRUN_SRC_PROFILE_TRACE_H_
