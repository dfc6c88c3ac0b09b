// omrun --profile (profile_trace.h).
#include "profile_trace.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "openatc/common/atomic_file.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/dump/node_dump.h"

namespace openatc::omrun {
namespace {

std::string Describe(const runtime::TensorView &t) {
  return DataTypeShortName(t.dtype) + ShapeToString(t.shape) + " " + FormatName(t.format);
}

std::vector<std::string> Describe(const std::vector<runtime::TensorView> &ts) {
  std::vector<std::string> out;
  out.reserve(ts.size());
  for (const auto &t : ts) out.push_back(Describe(t));
  return out;
}

std::string DeliverableOf(const om::Model &m, const std::string &op_type) {
  for (const auto &a : m.artifacts) {
    if (a.op_type != op_type) continue;
    if (a.deliverable < 0 || static_cast<size_t>(a.deliverable) >= m.deliverables.size()) return "built-in";
    return m.deliverables[static_cast<size_t>(a.deliverable)].file_name;
  }
  return "built-in";
}

}  // namespace

ProfileTrace::ProfileTrace(const om::Model &model) : model_(model), origin_(Clock::now()) {}

double ProfileTrace::Now() const {
  return std::chrono::duration<double, std::micro>(Clock::now() - origin_).count();
}

void ProfileTrace::BeginRun(const std::string &label) { runs_.push_back({label, Now(), 0}); }

void ProfileTrace::EndRun() {
  if (!runs_.empty()) runs_.back().dur_us = Now() - runs_.back().start_us;
}

void ProfileTrace::Started(size_t) {
  node_kernel_.clear();
  node_start_ = Clock::now();
}

void ProfileTrace::Kernel(size_t, const std::string &implementations) { node_kernel_ = implementations; }

void ProfileTrace::Finished(size_t index, const std::vector<runtime::TensorView> &inputs,
                            const std::vector<runtime::TensorView> &outputs) {
  Event e;
  e.node = index;
  e.run = runs_.empty() ? 0 : runs_.size() - 1;
  e.start_us = std::chrono::duration<double, std::micro>(node_start_ - origin_).count();
  e.dur_us = std::chrono::duration<double, std::micro>(Clock::now() - node_start_).count();
  e.inputs = Describe(inputs);
  e.outputs = Describe(outputs);
  e.kernel = std::exchange(node_kernel_, std::string());
  events_.push_back(std::move(e));
}

void ProfileTrace::Write(const std::string &path) const {
  using nlohmann::json;
  json events = json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "omrun"}}}});
  events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 0}, {"args", {{"name", "runs"}}}});
  events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", 1}, {"args", {{"name", "nodes"}}}});
  for (size_t r = 0; r < runs_.size(); ++r) {
    events.push_back({{"name", "run " + std::to_string(r) + " (" + runs_[r].label + ")"},
                      {"cat", "run"}, {"ph", "X"}, {"pid", 1}, {"tid", 0},
                      {"ts", runs_[r].start_us}, {"dur", runs_[r].dur_us}});
  }
  const auto &nodes = model_.graph.nodes;
  for (const Event &e : events_) {
    const ir::Node &n = nodes[e.node];
    json args = {{"op_type", n.type}, {"run", e.run}, {"inputs", e.inputs}, {"outputs", e.outputs},
                 {"deliverable", DeliverableOf(model_, n.type)}};
    const std::vector<std::string> fused = dump::FusedNodes(n);
    if (!fused.empty()) args["fused_nodes"] = fused;
    const int64_t block = dump::ChainLayoutBlock(n);
    args["layout"] = block > 0 ? "nChw" + std::to_string(block) + "c (oneDNN blocked)" : "plain";
    if (!e.kernel.empty()) args["kernel"] = e.kernel;
    events.push_back({{"name", n.name}, {"cat", n.type}, {"ph", "X"}, {"pid", 1}, {"tid", 1},
                      {"ts", e.start_us}, {"dur", e.dur_us}, {"args", args}});
  }
  const std::string text = json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump(1) + "\n";
  if (const auto failure = WriteFileAtomic(path, text.data(), text.size())) {
    throw Error(ErrorCategory::kIo, "OA2304",
                "cannot write the --profile file '" + path + "': " + std::strerror(failure->err),
                "Pass a path in a folder omrun can write");
  }
}

std::string ProfileTrace::Summary(size_t top) const {
  bool any_timed = false;
  for (const auto &r : runs_) any_timed = any_timed || r.label == "timed";
  std::map<std::string, double> by_type;
  std::map<size_t, double> by_node;
  double total = 0;
  size_t counted_runs = 0;
  for (size_t r = 0; r < runs_.size(); ++r) counted_runs += !any_timed || runs_[r].label == "timed";
  for (const Event &e : events_) {
    if (any_timed && runs_[e.run].label != "timed") continue;
    by_type[model_.graph.nodes[e.node].type] += e.dur_us;
    by_node[e.node] += e.dur_us;
    total += e.dur_us;
  }
  const double runs = static_cast<double>(std::max<size_t>(counted_runs, 1));
  auto largest = [](const auto &m) {
    std::vector<std::pair<double, typename std::decay_t<decltype(m)>::key_type>> v;
    for (const auto &[k, us] : m) v.push_back({us, k});
    std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    return v;
  };
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line, "profile: %zu node events, %.3f ms in op nodes per %s\n", events_.size(),
                total / runs / 1000.0, any_timed ? "timed run" : "run");
  out += line;
  size_t shown = 0;
  for (const auto &[us, type] : largest(by_type)) {
    if (shown++ == top) break;
    std::snprintf(line, sizeof line, "  %-24s %9.3f ms %5.1f%%\n", type.c_str(), us / runs / 1000.0,
                  total > 0 ? 100.0 * us / total : 0.0);
    out += line;
  }
  shown = 0;
  out += "slowest nodes:\n";
  for (const auto &[us, node] : largest(by_node)) {
    if (shown++ == top) break;
    const ir::Node &n = model_.graph.nodes[node];
    std::snprintf(line, sizeof line, "  %-32s %-16s %9.3f ms\n", n.name.c_str(), n.type.c_str(), us / runs / 1000.0);
    out += line;
  }
  return out;
}

}  // namespace openatc::omrun
