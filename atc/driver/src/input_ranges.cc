// ApplyInputShapeRanges: --input_shape "lo~hi" bounds recorded on the Data node (input_ranges.h).
#include "input_ranges.h"

namespace openatc::atc {

void ApplyInputShapeRanges(ir::Graph &graph, const std::vector<InputShape> &shapes) {
  for (const InputShape &s : shapes) {
    bool bounded = false;
    for (const auto &r : s.ranges) bounded = bounded || (r.first != r.second && !(r.first == 0 && r.second == -1));
    if (!bounded) continue;
    const int32_t idx = graph.FindNode(s.name);
    if (idx < 0 || graph.nodes[static_cast<size_t>(idx)].type != ir::kData) continue;
    ir::AttrValue v;
    v.kind = ir::AttrKind::kListListInt;
    for (const auto &r : s.ranges) v.list_list_i.push_back({r.first, r.second});
    graph.nodes[static_cast<size_t>(idx)].attrs[kInputShapeRangeAttr] = v;
  }
}

}  // namespace openatc::atc
