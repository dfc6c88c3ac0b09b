// ge::Graph (graph/graph.h): an in-memory graph = name + input, output and target operators.
// Nodes are reached through the operators' input links. AIR files: air_writer.cc, air_reader.cc.
#include "graph_impl.h"
#include "operator_impl.h"

#include <set>
#include <stdexcept>

#include "openatc/register/graph_view.h"

namespace ge {

namespace {
using openatc::reg::SetSdkError;

bool CheckGraph(const std::shared_ptr<GraphImpl> &impl, const char *what) {
  if (impl) return true;
  SetSdkError(std::string(what) + ": the graph has no name (default-constructed); construct it as Graph(\"name\")");
  return false;
}

bool CheckOp(const Operator &op, const char *what, size_t i) {
  if (!op.IsEmpty()) return true;
  SetSdkError(std::string(what) + ": operator " + std::to_string(i) + " of the list is empty; build it first");
  return false;
}
}  // namespace

Graph::Graph(const char_t *name) : impl_(std::make_shared<GraphImpl>()) {
  impl_->name = name != nullptr ? name : "";
}

Graph &Graph::SetInputs(const std::vector<Operator> &inputs) {
  if (!CheckGraph(impl_, "Graph::SetInputs")) return *this;
  impl_->inputs.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (CheckOp(inputs[i], "Graph::SetInputs", i)) impl_->inputs.push_back(inputs[i]);
  }
  return *this;
}

Graph &Graph::SetOutputs(const std::vector<Operator> &outputs) {
  std::vector<std::pair<Operator, std::vector<size_t>>> all;
  for (const auto &op : outputs) {
    std::vector<size_t> idx;
    for (size_t k = 0; k < op.GetOutputsSize(); ++k) idx.push_back(k);
    all.emplace_back(op, idx);
  }
  return SetOutputs(all);
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &output_indexs) {
  if (!CheckGraph(impl_, "Graph::SetOutputs")) return *this;
  impl_->outputs.clear();
  for (size_t i = 0; i < output_indexs.size(); ++i) {
    const Operator &op = output_indexs[i].first;
    if (!CheckOp(op, "Graph::SetOutputs", i)) continue;
    std::vector<size_t> kept;
    for (size_t k : output_indexs[i].second) {
      if (k >= op.GetOutputsSize()) {
        AscendString n;
        (void)op.GetName(n);
        SetSdkError("Graph::SetOutputs: node '" + std::string(n.GetString()) + "' has " +
                    std::to_string(op.GetOutputsSize()) + " outputs, so output index " + std::to_string(k) +
                    " is skipped; list existing output indices only");
        continue;
      }
      kept.push_back(k);
    }
    impl_->outputs.emplace_back(op, kept);
  }
  return *this;
}

Graph &Graph::SetTargets(const std::vector<Operator> &targets) {
  if (!CheckGraph(impl_, "Graph::SetTargets")) return *this;
  impl_->targets.clear();
  for (size_t i = 0; i < targets.size(); ++i) {
    if (CheckOp(targets[i], "Graph::SetTargets", i)) impl_->targets.push_back(targets[i]);
  }
  return *this;
}

bool Graph::IsValid() const { return static_cast<bool>(impl_); }

graphStatus Graph::GetName(AscendString &name) const {
  if (!CheckGraph(impl_, "Graph::GetName")) return GRAPH_FAILED;
  name = AscendString(impl_->name.c_str(), impl_->name.size());
  return GRAPH_SUCCESS;
}

size_t Graph::GetOpCount() const {
  if (!impl_) return 0U;
  try {
    return openatc::reg::ViewGraph(*this).nodes.size();
  } catch (const std::exception &) {
    return 0U;  // cycle: the message is already the last SDK error
  }
}

}  // namespace ge

// ---------------------------------------------------------------- internal graph view
namespace openatc::reg {
namespace {
using ge::OperatorImpl;

struct Walker {
  std::map<const OperatorImpl *, size_t> index;
  std::set<const OperatorImpl *> on_stack;
  GraphView view;

  // Depth-first post-order: producers get lower indices than consumers. Iterative to bound stack use.
  size_t Visit(const std::shared_ptr<OperatorImpl> &root) {
    const auto found = index.find(root.get());
    if (found != index.end()) return found->second;
    struct Frame {
      std::shared_ptr<OperatorImpl> node;
      size_t next = 0;  // next dependency to look at (inputs, then control inputs)
    };
    std::vector<Frame> stack;
    stack.push_back({root, 0});
    on_stack.insert(root.get());
    while (!stack.empty()) {
      Frame &f = stack.back();
      const size_t n_in = f.node->inputs.size();
      const size_t n_deps = n_in + f.node->control_inputs.size();
      if (f.next < n_deps) {
        const size_t k = f.next++;
        std::shared_ptr<OperatorImpl> dep = k < n_in ? f.node->inputs[k].src : f.node->control_inputs[k - n_in];
        if (!dep || index.count(dep.get()) != 0U) continue;
        if (on_stack.count(dep.get()) != 0U) {
          SetSdkError("graph view: the graph has a cycle through " + dep->Where() + "; remove the loop");
          throw std::runtime_error(LastSdkError());
        }
        on_stack.insert(dep.get());
        stack.push_back({dep, 0});
        continue;
      }
      Emit(*f.node);
      on_stack.erase(f.node.get());
      stack.pop_back();
    }
    return index.at(root.get());
  }

  void Emit(const OperatorImpl &op) {
    NodeView n;
    n.name = op.name;
    n.type = op.type;
    for (const auto &slot : op.inputs) {
      NodeInputView in;
      in.name = slot.name;
      in.ir_name = op.ir_inputs[slot.ir_index].name;
      in.kind = static_cast<IrInputKind>(op.ir_inputs[slot.ir_index].kind);
      in.desc = slot.desc;
      in.desc_set = slot.desc_set;
      if (slot.src) {
        in.src_node = static_cast<int64_t>(index.at(slot.src.get()));
        in.src_output = slot.src_index;
      }
      n.inputs.push_back(std::move(in));
    }
    for (const auto &ir : op.ir_inputs) n.ir_inputs.emplace_back(ir.name, ir.kind);
    for (const auto &ir : op.ir_outputs) n.ir_outputs.emplace_back(ir.name, ir.kind);
    for (const auto &a : op.ir_attrs) n.ir_attr_names.push_back(a.name);
    for (const auto &slot : op.outputs) {
      NodeOutputView out;
      out.name = slot.name;
      out.ir_name = op.ir_outputs[slot.ir_index].name;
      out.desc = slot.desc;
      out.desc_set = slot.desc_set;
      n.outputs.push_back(std::move(out));
    }
    n.attrs = op.attrs;
    for (const auto &c : op.control_inputs) n.control_inputs.push_back(index.at(c.get()));
    index[&op] = view.nodes.size();
    view.nodes.push_back(std::move(n));
  }
};
}  // namespace

GraphView ViewGraph(const ge::Graph &graph) {
  const auto &impl = ge::GraphAccess::Impl(graph);
  Walker w;
  if (!impl) return w.view;
  w.view.name = impl->name;
  for (const auto &op : impl->inputs) w.view.inputs.push_back(w.Visit(ge::OperatorAccess::Impl(op)));
  for (const auto &[op, idx] : impl->outputs) {
    const size_t node = w.Visit(ge::OperatorAccess::Impl(op));
    for (size_t k : idx) w.view.outputs.emplace_back(node, static_cast<uint32_t>(k));
  }
  for (const auto &op : impl->targets) w.view.targets.push_back(w.Visit(ge::OperatorAccess::Impl(op)));
  return w.view;
}

}  // namespace openatc::reg
