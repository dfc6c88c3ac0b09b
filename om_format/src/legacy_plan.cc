// Format 1.0 compatibility: 1.0 writers stored the compiler's plan as node attributes; this moves
// it into the typed NodePlan / Graph::arena_bytes that 1.1 stores (om_format/FORMAT.md, "Format
// 1.0 plan attributes"), so that everything above the reader sees one form.
#include <algorithm>
#include <cstring>
#include <optional>

#include "internal.h"
#include "openatc/ir/framework_ops.h"

namespace openatc::om::detail {
namespace {

constexpr const char *kOffsetsAttr = "_output_offsets";
constexpr const char *kLaunchesAttr = "_annotated_launches";
constexpr const char *kWorkspacesAttr = "_annotated_workspaces";

// The 1.0 launch record (little-endian): u32 version (1), u32 launch count, then per launch:
// u32 name length, name, u64 binary length, binary, u32 block_dim, u32 slot count, and per slot
// u32 ge::AddrType, i32 index, u64 value.
class RecordReader {
 public:
  RecordReader(const std::string &bytes, const ir::Node &node) : b_(bytes), node_(node) {}
  template <typename T>
  T Get() {
    Need(sizeof(T));
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string Take(uint64_t n) {
    Need(n);
    std::string s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  bool done() const { return pos_ == b_.size(); }
  [[noreturn]] void Bad(const std::string &what) const {
    throw Corrupt(kErrPlan, "plan: the format 1.0 launch record `" + std::string(kLaunchesAttr) +
                                    "` is malformed: " + what)
        .WithNode(node_.name, node_.type);
  }

 private:
  void Need(uint64_t n) const {
    if (n > b_.size() - pos_) Bad("truncated at byte " + std::to_string(pos_));
  }
  const std::string &b_;
  const ir::Node &node_;
  size_t pos_ = 0;
};

std::vector<ir::DeclaredLaunch> ParseLaunches(const std::string &bytes, const ir::Node &node) {
  RecordReader r(bytes, node);
  if (r.Get<uint32_t>() != 1) r.Bad("unknown version");
  const uint32_t count = r.Get<uint32_t>();
  std::vector<ir::DeclaredLaunch> out;
  for (uint32_t i = 0; i < count; ++i) {
    ir::DeclaredLaunch l;
    l.kernel_name = r.Take(r.Get<uint32_t>());
    const std::string bin = r.Take(r.Get<uint64_t>());
    l.binary = ir::Bytes::Copy(bin.data(), bin.size());
    l.block_dim = r.Get<uint32_t>();
    const uint32_t nslots = r.Get<uint32_t>();
    for (uint32_t k = 0; k < nslots; ++k) {
      ir::LaunchSlot s;
      s.addr_type = r.Get<uint32_t>();
      s.index = r.Get<int32_t>();
      s.value = r.Get<uint64_t>();
      l.slots.push_back(s);
    }
    out.push_back(std::move(l));
  }
  if (!r.done()) r.Bad("trailing bytes");
  return out;
}

// The 1.0 runtime derived the arena from the offsets and ran without a plan unless every
// non-framework node had one of the right length; the lifted plan keeps that rule.
void LiftMemoryPlan(ir::Graph &g) {
  bool complete = true;
  uint64_t arena = 0;
  for (auto &n : g.nodes) {
    auto it = n.attrs.find(kOffsetsAttr);
    if (it != n.attrs.end()) {
      if (it->second.kind == ir::AttrKind::kListInt) n.plan.output_offsets = it->second.list_i;
      n.attrs.erase(it);
    }
    if (ir::IsFrameworkOp(n.type)) continue;
    if (n.plan.output_offsets.size() != n.output_descs.size()) {
      complete = false;
      continue;
    }
    for (size_t k = 0; k < n.output_descs.size(); ++k) {
      const int64_t off = n.plan.output_offsets[k];
      std::string why;
      const std::optional<uint64_t> bytes = ConstTensorByteSize(n.output_descs[k], &why);
      if (off < 0 || !bytes) continue;  // an unplanned output, or one CheckModel refuses
      if (static_cast<uint64_t>(off) <= (uint64_t{1} << 62) && *bytes <= (uint64_t{1} << 62))
        arena = std::max(arena, static_cast<uint64_t>(off) + *bytes);
    }
  }
  if (!complete) {
    for (auto &n : g.nodes) n.plan.output_offsets.clear();
    g.arena_bytes = -1;
    return;
  }
  g.arena_bytes = static_cast<int64_t>(arena);
}

}  // namespace

void LiftLegacyPlan(Model &model) {
  ir::Graph &g = model.graph;
  LiftMemoryPlan(g);
  for (auto &n : g.nodes) {
    auto launches = n.attrs.find(kLaunchesAttr);
    if (launches != n.attrs.end()) {
      if (launches->second.kind != ir::AttrKind::kBytes)
        RecordReader(std::string(), n).Bad("it is not a bytes attribute");
      n.plan.launches = ParseLaunches(launches->second.s, n);
      n.attrs.erase(launches);
    }
    auto ws = n.attrs.find(kWorkspacesAttr);
    if (ws != n.attrs.end()) {
      if (ws->second.kind == ir::AttrKind::kListInt) n.plan.workspace_bytes = ws->second.list_i;
      n.attrs.erase(ws);
    }
  }
}

}  // namespace openatc::om::detail
