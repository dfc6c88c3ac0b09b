#include "shape_value_cache.h"

#include <algorithm>
#include <cstring>

namespace openatc::runtime {

void ShapeValueCache::Mark(const ir::Graph &g, const std::vector<bool> &pure) {
  nodes_.assign(g.nodes.size(), Node{});
  roots_.clear();
  marked_count_ = 0;
  std::vector<bool> feeds_output(g.nodes.size(), false);
  for (const ir::Endpoint &o : g.outputs)
    if (o.node >= 0 && static_cast<size_t>(o.node) < g.nodes.size()) feeds_output[static_cast<size_t>(o.node)] = true;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node &node = g.nodes[i];
    if (i >= pure.size() || !pure[i] || feeds_output[i] || node.output_descs.empty()) continue;
    if (std::any_of(node.plan.output_offsets.begin(), node.plan.output_offsets.end(),
                    [](int64_t off) { return off >= 0; }))
      continue;
    Node &n = nodes_[i];
    if (node.type == "Shape" || node.type == "Size") {
      if (node.inputs.empty() || !node.inputs[0].connected()) continue;
      n.root = static_cast<int32_t>(roots_.size());
      roots_.emplace_back();
      n.roots.push_back(static_cast<uint32_t>(n.root));
    } else {
      bool from_marked = false, only_known = !node.inputs.empty();
      for (const ir::Endpoint &e : node.inputs) {
        if (!e.connected()) continue;
        const size_t p = static_cast<size_t>(e.node);
        const std::string &type = g.nodes[p].type;
        if (type == ir::kConst || type == ir::kConstant) continue;
        if (p >= i || !nodes_[p].marked) {
          only_known = false;
          break;
        }
        from_marked = true;
        for (uint32_t r : nodes_[p].roots)
          if (std::find(n.roots.begin(), n.roots.end(), r) == n.roots.end()) n.roots.push_back(r);
      }
      if (!only_known || !from_marked) {
        n.roots.clear();
        continue;
      }
    }
    n.marked = true;
    ++marked_count_;
  }
}

std::vector<int64_t> ShapeValueCache::DimsOf(const gert::Tensor &input) {
  const gert::Shape &s = input.GetStorageShape(), &o = input.GetOriginShape();
  std::vector<int64_t> dims;
  dims.reserve(s.GetDimNum() + o.GetDimNum() + 1);
  dims.push_back(static_cast<int64_t>(s.GetDimNum()));
  for (size_t d = 0; d < s.GetDimNum(); ++d) dims.push_back(s.GetDim(d));
  for (size_t d = 0; d < o.GetDimNum(); ++d) dims.push_back(o.GetDim(d));
  return dims;
}

bool ShapeValueCache::Current(const Node &n) const {
  if (n.kept.empty()) return false;
  for (size_t j = 0; j < n.roots.size(); ++j)
    if (roots_[n.roots[j]].version != n.versions[j]) return false;
  return true;
}

const std::vector<ShapeValueCache::Output> *ShapeValueCache::Find(size_t i, const std::vector<int64_t> &read) {
  if (!marked(i)) return nullptr;
  const Node &n = nodes_[i];
  if (n.root >= 0) {
    const Root &r = roots_[static_cast<size_t>(n.root)];
    if (!r.seen || r.dims != read) return nullptr;
  }
  if (!Current(n)) return nullptr;
  reused_.fetch_add(1, std::memory_order_relaxed);
  return &n.kept;
}

void ShapeValueCache::Keep(size_t i, const std::vector<int64_t> &read, const std::vector<const gert::Tensor *> &outputs) {
  if (!marked(i)) return;
  Node &n = nodes_[i];
  if (n.root >= 0) {
    Root &r = roots_[static_cast<size_t>(n.root)];
    if (!r.seen || r.dims != read) {
      r.seen = true;
      r.dims = read;
      r.version = ++next_version_;
    }
  }
  n.kept.clear();
  std::vector<Output> kept;
  for (const gert::Tensor *t : outputs) {
    if (t == nullptr || t->GetSize() > kMaxBytes || (t->GetSize() != 0 && t->GetAddr() == nullptr)) return;
    Output o;
    o.dtype = t->GetDataType();
    o.shape = t->GetShape();
    o.format = t->GetFormat();
    o.placement = t->GetPlacement() == gert::kFollowing ? gert::kOnHost : t->GetPlacement();
    o.bytes = t->GetSize();
    o.storage = std::make_shared<HostBuffer>(o.bytes, HostBuffer::Fill::kNone);
    if (o.bytes != 0) std::memcpy(o.storage->data(), t->GetAddr(), o.bytes);
    kept.push_back(std::move(o));
  }
  n.versions.clear();
  for (uint32_t r : n.roots) n.versions.push_back(roots_[r].version);
  n.kept = std::move(kept);
}

}  // namespace openatc::runtime
