/**
 * @file openatc/ir/attr_get.h
 * Reading a node's Int and ListInt attrs with a default: the one home of that lookup for the
 * compiler's and the runtime's handling of the native ONNX ops (openatc/ir/control_flow.h).
 */
#ifndef OPENATC_IR_ATTR_GET_H_
#define OPENATC_IR_ATTR_GET_H_

#include <cstdint>
#include <vector>

#include "openatc/ir/graph.h"

namespace openatc::ir {

/// Attr `name` of kind Int, else `dflt`.
inline int64_t IntAttrOr(const Node &n, const char *name, int64_t dflt) {
  auto it = n.attrs.find(name);
  return it != n.attrs.end() && it->second.kind == AttrKind::kInt ? it->second.i : dflt;
}

/// Attr `name` of kind ListInt, else empty.
inline std::vector<int64_t> IntsAttrOr(const Node &n, const char *name) {
  auto it = n.attrs.find(name);
  return it != n.attrs.end() && it->second.kind == AttrKind::kListInt ? it->second.list_i : std::vector<int64_t>{};
}

}  // namespace openatc::ir

#endif  // OPENATC_IR_ATTR_GET_H_
