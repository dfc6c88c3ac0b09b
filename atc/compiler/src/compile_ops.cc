// Capability collection, parallel Compile scheduling and Serialize (docs/custom-op-lifecycle.md
// §10).
#include "compile_ops.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "compile_services.h"
#include "openatc/common/error.h"
#include "openatc/compiler/op_checks.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/ir/control_flow.h"
#include "openatc/opp/call_guard.h"
#include "openatc/opp/capabilities.h"

namespace openatc::compiler {
namespace {
std::shared_ptr<ge::BaseCustomOp> OpObject(const std::string &type) {
  std::string why;
  auto op = gert_impl::CustomOpRegistry::Global().GetOrCreate(type, &why);
  if (!op) {
    const OpCheckProblem p = CannotCreateProblem(why);
    throw Error(ErrorCategory::kCustomOp, p.code, p.message, p.hint).WithNode("", type);
  }
  return op;
}

void CompileOneNode(const ir::Node &node, ge::CompilableOp *op, CompileServices &services, const std::string &origin) {
  auto info = gert_impl::BuildNodeInfo(node);
  std::deque<gert::Tensor> tensors;
  gert_impl::Frame frame;
  frame.node = info.get();
  frame.services = &services;
  for (size_t anchor : info->input_anchor) {
    tensors.emplace_back();
    gert_impl::InitTensor(tensors.back(), node.input_descs[anchor], nullptr, 0);
    frame.inputs.push_back(&tensors.back());
  }
  for (const auto &d : node.output_descs) {
    tensors.emplace_back();
    gert_impl::InitTensor(tensors.back(), d, nullptr, 0);
    frame.outputs.push_back(&tensors.back());
  }
  auto ctx = gert_impl::ContextAccess::Make<gert::OpCompileContext>(&frame);
  opp::GuardedCall({node.name, node.type, "Compile", origin}, [&] { return op->Compile(ctx.get()); });
}
}  // namespace

std::map<std::string, OpTypeInfo> CollectOpTypes(const ir::Graph &graph, bool require_portable) {
  std::map<std::string, OpTypeInfo> types;
  auto &registry = gert_impl::CustomOpRegistry::Global();
  auto add = [&](const ir::Node &node) -> OpTypeInfo * {
    if (IsFrameworkOp(node.type)) return nullptr;
    OpTypeInfo &t = types[node.type];
    if (t.nodes.empty() && t.nested.empty()) {
      t.capabilities = opp::DetectCapabilities(OpObject(node.type).get());
      t.origin = registry.Origin(node.type);
    }
    return &t;
  };
  // Nodes of subgraphs (If/Loop/Scan bodies) share the op objects of the main graph's types.
  std::function<void(const ir::Graph &)> nested = [&](const ir::Graph &g) {
    for (const auto &node : g.nodes) {
      ir::ForEachSubgraph(node, [&](const std::string &, const ir::Graph &sub) { nested(sub); });
      if (OpTypeInfo *t = add(node)) t->nested.push_back(&node);
    }
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node &node = graph.nodes[i];
    ir::ForEachSubgraph(node, [&](const std::string &, const ir::Graph &sub) { nested(sub); });
    if (OpTypeInfo *t = add(node)) t->nodes.push_back(i);
  }
  for (const auto &[type, t] : types) {
    const std::string where = t.origin.empty() ? "" : " (deliverable '" + t.origin + "')";
    for (const OpCheckProblem &p : CapabilityProblems(t.capabilities, require_portable, where)) {
      const std::string &name = t.nodes.empty() ? t.nested.front()->name : graph.nodes[t.nodes.front()].name;
      throw Error(ErrorCategory::kGraph, p.code, p.message, p.hint).WithNode(name, type);
    }
  }
  return types;
}

void CompileNodes(const ir::Graph &graph, const std::map<std::string, OpTypeInfo> &types, const CompileOptions &opts) {
  std::vector<const std::pair<const std::string, OpTypeInfo> *> work;
  for (const auto &kv : types)
    if (kv.second.capabilities & opp::kCompilable) work.push_back(&kv);
  if (work.empty()) return;
  unsigned jobs = opts.jobs ? opts.jobs : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min<unsigned>(jobs, static_cast<unsigned>(work.size()));

  std::atomic<size_t> next{0};
  std::mutex mu;
  size_t first_failed_node = SIZE_MAX;
  std::exception_ptr first_error;
  auto worker = [&] {
    CompileServices services(opts.target, opts.ge_options);
    for (size_t w = next++; w < work.size(); w = next++) {
      const auto &[type, info] = *work[w];
      try {
        auto op = OpObject(type);
        auto *compilable = dynamic_cast<ge::CompilableOp *>(op.get());
        for (size_t idx : info.nodes) {  // serially: the op object is shared by its nodes
          try {
            CompileOneNode(graph.nodes[idx], compilable, services, info.origin);
          } catch (...) {
            std::lock_guard<std::mutex> lock(mu);
            if (idx < first_failed_node) {
              first_failed_node = idx;
              first_error = std::current_exception();
            }
            break;
          }
        }
        for (const ir::Node *node : info.nested) CompileOneNode(*node, compilable, services, info.origin);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!first_error) first_error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto &t : threads) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

std::map<std::string, std::vector<uint8_t>> SerializeOps(const std::map<std::string, OpTypeInfo> &types) {
  std::map<std::string, std::vector<uint8_t>> out;
  for (const auto &[type, info] : types) {  // std::map: sorted by type name, as GE does
    if (!(info.capabilities & opp::kPortable)) continue;
    auto op = OpObject(type);
    auto *portable = dynamic_cast<ge::PortableOp *>(op.get());
    std::vector<uint8_t> buffer;
    opp::GuardedCall({"", type, "Serialize", info.origin}, [&] { return portable->Serialize(buffer); });
    if (buffer.empty()) {
      throw Error(ErrorCategory::kCustomOp, "OA1403", "Serialize returned an empty buffer",
                  "A PortableOp must serialize its compile results (GE treats an empty buffer as an error)")
          .WithNode("", type);
    }
    out[type] = std::move(buffer);
  }
  return out;
}

}  // namespace openatc::compiler
