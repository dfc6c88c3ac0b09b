// The static memory plan (docs/architecture.md "Memory"): every custom-op output of a static graph
// that is not a graph output gets an offset in one arena (openatc/common/lifetime_packing.h: largest
// tensor first, at the lowest offset whose bytes are free for the tensor's whole lifetime, producer
// to last consumer in topological order), so tensors whose lifetimes do not overlap share memory.
// With reuse off (atc --disable_reuse_memory=1, GE's ge.exec.disableReuseMemory) every tensor is
// taken as alive for the whole run, so no two share bytes: a debugging aid (a kernel that writes
// out of bounds can no longer corrupt a later tensor's data) at the cost of a larger arena.
// A Concat writes in place (PlaceConcatInputs): when the dims before its axis are all 1 (a
// channel Concat of N = 1), each input it may take is placed inside the Concat's output at the
// input's byte offset there, and the Concat's block lives from the first of those inputs' producers
// to the last reader of any of them; ops/Concat.cc then skips the copy of an input that is already
// in place. That holds in the blocked chain layout too: every chain tensor has a multiple of the
// block's channels (atc/compiler/src/passes/layout_plan.cc), so a slice of whole channels is a
// slice of whole blocks. DenseNet's growing feature maps are written once instead of copied at each
// of its Concats.
// A Conv with a fused residual Add writes in place (PlaceConvOutputsOnAddends, with
// `addend_in_place`): when it is its addend's last reader and both are in the chain layout, Y takes
// the addend's bytes and the Conv is marked (openatc/addend_in_place.h), so that it accumulates
// into them instead of streaming the addend and Y separately (light_resnet50's 16 block outputs).
// The plan is stored on each node as NodePlan::output_offsets (-1 = not planned; the OM's typed
// NodePlan table), as GE records output offsets on a built model's OpDef (`output_i`).
#include <algorithm>
#include <limits>
#include <optional>

#include "openatc/addend_in_place.h"
#include "openatc/common/dtype.h"
#include "openatc/common/lifetime_packing.h"
#include "openatc/common/log.h"
#include "openatc/compiler/compiler.h"
#include "passes/pass_util.h"

namespace openatc::compiler {
namespace {
constexpr int64_t kAlign = 512;  // GE rounds tensor memory up to 512 bytes
// An input placed inside a Concat's output starts on a multiple of this (a cache line, and an
// AVX-512 vector; Ascend C's DataCopy needs 32 bytes); others are copied.
constexpr int64_t kInPlaceAlign = 64;

// Where a tensor lives when it is part of a larger block: `parent` item, at `offset` bytes in it.
struct Inside {
  int32_t parent = -1;
  int64_t offset = 0;
};

// The axis of Concat `n` when every output dim before it is 1 (the inputs are then byte ranges of
// the output, one after the other), else -1.
int64_t ContiguousConcatAxis(const ir::Node &n) {
  if (n.type != "Concat" || n.output_descs.size() != 1) return -1;
  const std::vector<int64_t> &y = n.output_descs[0].shape;
  const int64_t rank = static_cast<int64_t>(y.size());
  auto it = n.attrs.find("axis");
  if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kInt || rank == 0) return -1;
  const int64_t axis = it->second.i < 0 ? it->second.i + rank : it->second.i;
  if (axis < 0 || axis >= rank) return -1;
  for (int64_t d = 0; d < axis; ++d)
    if (y[static_cast<size_t>(d)] != 1) return -1;
  return axis;
}

// Places the inputs of each contiguous Concat inside its output where they may be: a planned
// tensor (not a graph input, constant or output) of the output's dtype (whole bytes per element), at an offset that is a
// multiple of kInPlaceAlign, not already inside another Concat and not given twice. A Concat's
// output may itself be an input placed in a later Concat (DenseNet's chain of them).
void PlaceConcatInputs(const ir::Graph &graph, const std::vector<std::vector<int32_t>> &item_of,
                       const std::vector<LifetimeBlock> &items, std::vector<Inside> &inside) {
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node &n = graph.nodes[i];
    // Sub-byte elements (int4, ...): an input's bytes may end inside a byte the next one shares.
    if (ContiguousConcatAxis(n) < 0 || item_of[i].empty() || SubByteBits(n.output_descs[0].dtype) != 0) continue;
    const int32_t whole = item_of[i][0];
    if (whole < 0 || items[static_cast<size_t>(whole)].bytes == 0) continue;
    const ir::TensorDesc &y = n.output_descs[0];
    const std::optional<uint64_t> y_bytes = TensorByteSize(y.dtype, y.shape);
    int64_t at = 0;
    std::vector<int32_t> taken;
    for (size_t k = 0; k < n.inputs.size() && k < n.input_descs.size(); ++k) {
      const ir::Endpoint &e = n.inputs[k];
      const std::optional<uint64_t> bytes = TensorByteSize(n.input_descs[k].dtype, n.input_descs[k].shape);
      if (!bytes || !y_bytes) return;
      const int32_t it = e.connected() ? item_of[static_cast<size_t>(e.node)][static_cast<size_t>(e.index)] : -1;
      const bool fits = it >= 0 && items[static_cast<size_t>(it)].bytes > 0 && inside[static_cast<size_t>(it)].parent < 0 &&
                        n.input_descs[k].dtype == y.dtype && at % kInPlaceAlign == 0 &&
                        std::find(taken.begin(), taken.end(), it) == taken.end() &&
                        at + static_cast<int64_t>(*bytes) <= static_cast<int64_t>(*y_bytes);
      if (fits) {
        inside[static_cast<size_t>(it)] = {whole, at};
        taken.push_back(it);
      }
      at += static_cast<int64_t>(*bytes);
    }
  }
}

// A built-in Conv that may compute into its addend's bytes: a fused binary_add (input 3) with the
// addend and Y in the chain layout (atc/compiler/src/passes/layout_plan.cc), so that they have
// one layout and the blocked kernel writes Y directly, and float32 Y of the addend's shape.
bool InPlaceConv(const ir::Node &n) {
  if (n.type != "Conv" || n.inputs.size() < 4 || !n.inputs[3].connected() || n.input_descs.size() < 4 ||
      n.output_descs.size() != 1)
    return false;
  auto ops = n.attrs.find("openatc_post_ops");
  auto layout = n.attrs.find("openatc_layout");
  if (ops == n.attrs.end() || layout == n.attrs.end() || layout->second.s != "blocked") return false;
  const auto &algs = ops->second.list_s;
  return std::find(algs.begin(), algs.end(), "binary_add") != algs.end() &&
         passes::IntAttr(n, "openatc_y_blocked", 0) == 1 && passes::IntAttr(n, "openatc_addend_blocked", 0) == 1 &&
         n.output_descs[0].dtype == ge::DT_FLOAT &&
         n.input_descs[3].dtype == ge::DT_FLOAT && n.input_descs[3].shape == n.output_descs[0].shape;
}

// Gives the output of each InPlaceConv its addend's bytes (the addend placed inside Y at offset 0)
// where that is sound: the Conv is the addend's last reader and reads it through input 3 only, the
// addend is planned, not inside another block (a Concat's input) and every tensor inside it is dead
// by then, and Y is planned with the addend's size. Marks each such Conv kAddendInPlaceAttr = 1.
void PlaceConvOutputsOnAddends(ir::Graph &graph, const std::vector<std::vector<int32_t>> &item_of,
                               const std::vector<LifetimeBlock> &items, std::vector<Inside> &inside) {
  // The latest last reader of any tensor inside block `b`, and of `b` itself.
  auto last_within = [&](int32_t b) {
    int64_t last = items[static_cast<size_t>(b)].last;
    for (size_t it = 0; it < items.size(); ++it)
      for (int32_t up = inside[it].parent; up >= 0; up = inside[static_cast<size_t>(up)].parent)
        if (up == b) {
          last = std::max(last, items[it].last);
          break;
        }
    return last;
  };
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    ir::Node &n = graph.nodes[i];
    if (!InPlaceConv(n) || item_of[i].empty()) continue;
    const ir::Endpoint &e = n.inputs[3];
    const int32_t a = item_of[static_cast<size_t>(e.node)][static_cast<size_t>(e.index)], y = item_of[i][0];
    if (a < 0 || y < 0 || a == y) continue;
    const LifetimeBlock &ab = items[static_cast<size_t>(a)], &yb = items[static_cast<size_t>(y)];
    bool other_read = false;
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      const ir::Endpoint &in = n.inputs[k];
      if (k != 3 && in.connected() && item_of[static_cast<size_t>(in.node)][static_cast<size_t>(in.index)] == a)
        other_read = true;
    }
    if (ab.bytes == 0 || yb.bytes != ab.bytes || ab.last != static_cast<int64_t>(i) || other_read ||
        inside[static_cast<size_t>(a)].parent >= 0 || last_within(a) > static_cast<int64_t>(i))
      continue;
    inside[static_cast<size_t>(a)] = {y, 0};
    passes::SetInt(n, kAddendInPlaceAttr, 1);
    LogInfo("memory plan: Conv '" + n.name + "' writes its output into its addend's bytes");
  }
}

}  // namespace

int64_t PlanMemory(ir::Graph &graph, bool reuse, bool addend_in_place) {
  std::vector<LifetimeBlock> items;  // bytes rounded up to kAlign; lifetimes in node positions
  std::vector<std::vector<int32_t>> item_of(graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const ir::Node &n = graph.nodes[i];
    item_of[i].assign(n.output_descs.size(), -1);
    if (IsFrameworkOp(n.type)) continue;
    for (size_t k = 0; k < n.output_descs.size(); ++k) {
      const ir::TensorDesc &d = n.output_descs[k];
      const std::optional<uint64_t> size = TensorByteSize(d.dtype, d.shape);
      // Not a static graph (or a tensor too large to plan): no plan at all.
      if (!size || *size > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - kAlign)) return -1;
      const int64_t bytes = std::max<int64_t>(kAlign, (static_cast<int64_t>(*size) + kAlign - 1) / kAlign * kAlign);
      item_of[i][k] = static_cast<int32_t>(items.size());
      items.push_back({bytes, static_cast<int64_t>(i), static_cast<int64_t>(i)});
    }
  }
  // Graph outputs are bound to the caller's buffers: not in the arena.
  for (const auto &o : graph.outputs) {
    int32_t it = item_of[static_cast<size_t>(o.node)][static_cast<size_t>(o.index)];
    if (it >= 0) items[static_cast<size_t>(it)].bytes = 0;
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    for (const auto &in : graph.nodes[i].inputs) {
      if (!in.connected()) continue;
      int32_t it = item_of[static_cast<size_t>(in.node)][static_cast<size_t>(in.index)];
      if (it >= 0) items[static_cast<size_t>(it)].last = std::max(items[static_cast<size_t>(it)].last, static_cast<int64_t>(i));
    }
  }
  if (!reuse)
    for (LifetimeBlock &it : items) {
      it.first = 0;
      it.last = std::numeric_limits<int64_t>::max();
    }
  // In-place Concat inputs: each block that holds others lives for all of their lifetimes and is
  // packed alone; those inside it take its offset plus theirs.
  std::vector<Inside> inside(items.size());
  if (reuse) PlaceConcatInputs(graph, item_of, items, inside);
  for (ir::Node &n : graph.nodes) n.attrs.erase(kAddendInPlaceAttr);  // set below where it holds
  if (reuse && addend_in_place) PlaceConvOutputsOnAddends(graph, item_of, items, inside);
  auto root = [&](size_t it, int64_t *offset) {
    *offset = 0;
    while (inside[it].parent >= 0) {
      *offset += inside[it].offset;
      it = static_cast<size_t>(inside[it].parent);
    }
    return it;
  };
  for (size_t it = 0; it < items.size(); ++it) {
    int64_t off = 0;
    const size_t r = root(it, &off);
    if (r == it) continue;
    items[r].first = std::min(items[r].first, items[it].first);
    items[r].last = std::max(items[r].last, items[it].last);
    items[it].bytes = 0;
  }
  const int64_t arena = PackLifetimes(items);
  for (size_t it = 0; it < items.size(); ++it) {
    int64_t off = 0;
    const size_t r = root(it, &off);
    if (r != it) items[it].offset = items[r].offset + off;  // a holder is never empty: placed
  }
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    ir::Node &n = graph.nodes[i];
    if (IsFrameworkOp(n.type)) continue;
    n.plan.output_offsets.clear();
    for (int32_t it : item_of[i]) n.plan.output_offsets.push_back(it >= 0 ? items[static_cast<size_t>(it)].offset : -1);
  }
  graph.arena_bytes = arena;
  return arena;
}

}  // namespace openatc::compiler
