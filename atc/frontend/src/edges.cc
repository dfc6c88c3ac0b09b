// Edge strings of ge.proto (docs/ge-ir.md §3): "src:idx" split at the last
// ':', "" unconnected, negative idx or TF-style "^src" = control edge; plus the closest-name hint
// used when an edge names a node that does not exist.
#include <algorithm>
#include <charconv>

#include "internal.h"

namespace openatc::frontend::detail {

Error GraphError(const char *code, const std::string &message, const std::string &hint) {
  return Error(ErrorCategory::kGraph, code, message, hint);
}

ParsedEdge ParseEdge(const std::string &text, const std::string &where) {
  ParsedEdge e;
  if (text.empty()) return e;
  if (text[0] == '^') {
    e.kind = ParsedEdge::kControl;
    e.src = text.substr(1);
    e.index = -1;
  } else {
    size_t colon = text.rfind(':');
    if (colon == std::string::npos) {
      throw GraphError(kBadEdge, where + " '" + text + "' has no output index",
                       "Write it as 'node:index' (e.g. '" + text + ":0'), or '" + text +
                           ":-1' for a control edge");
    }
    e.src = text.substr(0, colon);
    const char *first = text.data() + colon + 1;
    const char *last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, e.index);
    if (first == last || ec != std::errc() || ptr != last) {
      throw GraphError(kBadEdge,
                       where + " '" + text + "' has an output index that is not an integer",
                       "Write it as 'node:index' with a decimal index");
    }
    e.kind = e.index < 0 ? ParsedEdge::kControl : ParsedEdge::kData;
  }
  if (e.src.empty()) {
    throw GraphError(kBadEdge, where + " '" + text + "' has an empty source node name",
                     "Write it as 'node:index'");
  }
  return e;
}

size_t EditDistance(const std::string &a, const std::string &b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string SuggestNodeHint(const ir::Graph &g, const std::string &missing) {
  const ir::Node *best = nullptr;
  size_t best_d = 0;
  // Names are compared only up to a bounded length so a hostile file cannot make this quadratic
  // in huge names.
  const std::string m = missing.substr(0, 256);
  for (const auto &n : g.nodes) {
    size_t d = EditDistance(m, n.name.substr(0, 256));
    if (!best || d < best_d) {
      best = &n;
      best_d = d;
    }
  }
  if (best && best_d <= std::max<size_t>(2, m.size() / 2)) {
    return "Did you mean '" + best->name + "'? Inputs must name a node of this graph";
  }
  return "Inputs must name a node of this graph as 'node:index'";
}

}  // namespace openatc::frontend::detail
