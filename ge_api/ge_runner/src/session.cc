// ge::Session (ge/ge_api.h): a map of graph ids to GraphEntry, every call wrapped by Guard so
// failures become ge::FAILED plus the thread's error message.
#include <map>
#include <memory>
#include <mutex>

#include "ge/ge_api.h"
#include "ge_state.h"
#include "graph_entry.h"
#include "graph_to_ir.h"
#include "openatc/common/error.h"

namespace ge {

class SessionImpl {
 public:
  openatc::ge_runner::Options options;
  std::mutex mu;
  std::map<uint32_t, std::shared_ptr<openatc::ge_runner::GraphEntry>> graphs;

  /// The graph's entry; kUnknownGraph naming the ids that exist otherwise. Needs GE initialized.
  std::shared_ptr<openatc::ge_runner::GraphEntry> Find(uint32_t id, const std::string &call) {
    (void)openatc::ge_runner::GlobalOptions(call);
    std::lock_guard<std::mutex> lock(mu);
    auto it = graphs.find(id);
    if (it != graphs.end()) return it->second;
    std::string known;
    for (const auto &kv : graphs) known += (known.empty() ? "" : ", ") + std::to_string(kv.first);
    throw openatc::Error(openatc::ErrorCategory::kUsage, openatc::ge_runner::kUnknownGraph,
                         call + ": graph id " + std::to_string(id) + " was never added to this session (graph ids: " +
                             (known.empty() ? "none" : known) + ")",
                         "Call Session::AddGraph(" + std::to_string(id) + ", graph) first");
  }
};

namespace {
using openatc::ge_runner::Guard;
}

Session::Session(const std::map<AscendString, AscendString> &options) : impl_(std::make_unique<SessionImpl>()) {
  openatc::ge_runner::ClearLastError();
  impl_->options = openatc::ge_runner::ToOptions(options);
  if (!openatc::ge_runner::IsInitialized()) {
    (void)Guard([] { (void)openatc::ge_runner::GlobalOptions("creating a ge::Session"); });
  }
  openatc::ge_runner::NoteUnknownOptions(impl_->options, "Session");
}

Session::~Session() = default;

Status Session::AddGraph(uint32_t graph_id, const Graph &graph) { return AddGraph(graph_id, graph, std::map<AscendString, AscendString>{}); }

Status Session::AddGraph(uint32_t graph_id, const Graph &graph, const std::map<AscendString, AscendString> &options) {
  openatc::ge_runner::ClearLastError();
  return Guard([&] {
    auto merged = openatc::ge_runner::GlobalOptions("AddGraph");
    for (const auto &kv : impl_->options) merged[kv.first] = kv.second;
    const auto graph_options = openatc::ge_runner::ToOptions(options);
    openatc::ge_runner::NoteUnknownOptions(graph_options, "AddGraph");
    for (const auto &kv : graph_options) merged[kv.first] = kv.second;
    {
      std::lock_guard<std::mutex> lock(impl_->mu);
      if (impl_->graphs.count(graph_id)) {
        throw openatc::Error(openatc::ErrorCategory::kUsage, openatc::ge_runner::kDuplicateGraph,
                             "AddGraph: graph id " + std::to_string(graph_id) + " is already in this session",
                             "Use another graph id, or RemoveGraph(" + std::to_string(graph_id) + ") first");
      }
    }
    AscendString name;
    std::string where = "graph " + std::to_string(graph_id);
    if (graph.GetName(name) == GRAPH_SUCCESS && name.GetLength() != 0) where += " (" + std::string(name.GetString()) + ")";
    auto entry = std::make_shared<openatc::ge_runner::GraphEntry>(
        graph_id, where, openatc::ge_runner::GraphToIr(graph, where), std::move(merged));
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->graphs.emplace(graph_id, std::move(entry));
  });
}

Status Session::RemoveGraph(uint32_t graph_id) {
  openatc::ge_runner::ClearLastError();
  return Guard([&] {
    (void)impl_->Find(graph_id, "RemoveGraph");
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->graphs.erase(graph_id);
  });
}

Status Session::CompileGraph(uint32_t graph_id) {
  openatc::ge_runner::ClearLastError();
  return Guard([&] { impl_->Find(graph_id, "CompileGraph")->Compile(); });
}

Status Session::LoadGraph(const uint32_t graph_id, const std::map<AscendString, AscendString> &options,
                          void *stream) const {
  openatc::ge_runner::ClearLastError();
  return Guard([&] {
    auto entry = impl_->Find(graph_id, "LoadGraph");
    openatc::ge_runner::NoteUnknownOptions(openatc::ge_runner::ToOptions(options), "LoadGraph");
    entry->Load(stream);
  });
}

Status Session::ExecuteGraphWithStreamAsync(uint32_t graph_id, void *stream, const std::vector<gert::Tensor> &inputs,
                                            std::vector<gert::Tensor> &outputs) {
  openatc::ge_runner::ClearLastError();
  return Guard([&] { impl_->Find(graph_id, "ExecuteGraphWithStreamAsync")->Execute(stream, inputs, outputs); });
}

Status Session::RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs) {
  openatc::ge_runner::ClearLastError();
  return Guard([&] { impl_->Find(graph_id, "RunGraph")->Run(inputs, outputs); });
}

}  // namespace ge
