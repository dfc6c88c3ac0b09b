// Parsers of --input_shape ("name:d0,d1;name2:...", docs/atc-flags.md §4) and --out_nodes
// ("node:idx;...") and the deprecated --input_shape_range ("name:[d0,d1];...").
#include <set>
#include <string>
#include <vector>

#include "openatc/atc/options.h"
#include "openatc/common/error.h"
#include "parse_util.h"

namespace openatc {
namespace atc {
namespace {

std::vector<std::string> Split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    size_t pos = text.find(sep, begin);
    parts.push_back(text.substr(begin, pos == std::string::npos ? std::string::npos : pos - begin));
    if (pos == std::string::npos) break;
    begin = pos + 1;
  }
  return parts;
}

[[noreturn]] void BadShapePiece(const std::string &piece, const std::string &why) {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid --input_shape piece '" + piece + "': " + why,
              "Write --input_shape \"name:d0,d1;name2:d0\" with integer dims, -1 for an unknown "
              "dim or lo~hi for a range, e.g. \"x:1,3,224,224\"");
}

[[noreturn]] void BadOutNode(const std::string &piece, const std::string &why) {
  throw Error(ErrorCategory::kUsage, "E10001", "invalid --out_nodes piece '" + piece + "': " + why,
              "Write --out_nodes \"node:idx;node2:idx\", e.g. \"conv1:0;add:1\"");
}

}  // namespace

std::vector<InputShape> ParseInputShape(const std::string &text) {
  std::vector<InputShape> shapes;
  std::set<std::string> seen;
  for (const std::string &piece : Split(text, ';')) {
    if (piece.empty()) continue;
    size_t colon = piece.rfind(':');
    if (colon == std::string::npos) BadShapePiece(piece, "no ':' between the input name and its dims");
    InputShape shape;
    shape.name = piece.substr(0, colon);
    if (shape.name.empty()) BadShapePiece(piece, "the input name is empty");
    if (!seen.insert(shape.name).second) BadShapePiece(piece, "input '" + shape.name + "' is given twice");
    std::string dims = piece.substr(colon + 1);
    if (dims.empty()) {
      shape.scalar = true;
      shapes.push_back(shape);
      continue;
    }
    for (const std::string &dim : Split(dims, ',')) {
      size_t tilde = dim.find('~');
      if (tilde != std::string::npos) {
        int64_t lo = 0, hi = 0;
        if (!ParseStrictInt64(dim.substr(0, tilde), &lo) || !ParseStrictInt64(dim.substr(tilde + 1), &hi))
          BadShapePiece(piece, "range '" + dim + "' is not lo~hi with integer bounds");
        if (lo < 0 || hi < -1 || (hi != -1 && hi < lo))
          BadShapePiece(piece, "range '" + dim + "' needs 0 <= lo <= hi (hi = -1 for no upper bound)");
        shape.dims.push_back(-1);
        shape.ranges.emplace_back(lo, hi);
        continue;
      }
      int64_t d = 0;
      if (!ParseStrictInt64(dim, &d))
        BadShapePiece(piece, "dim '" + dim + "' is not an integer, -1 or a lo~hi range");
      if (d < -1) BadShapePiece(piece, "dim '" + dim + "' is negative (only -1 means unknown)");
      shape.dims.push_back(d);
      if (d == -1) {
        shape.ranges.emplace_back(0, -1);
      } else {
        shape.ranges.emplace_back(d, d);
      }
    }
    shapes.push_back(shape);
  }
  return shapes;
}

std::vector<InputShape> ParseInputShapeRange(const std::string &text) {
  std::vector<InputShape> shapes;
  std::set<std::string> seen;
  for (const std::string &piece : Split(text, ';')) {
    if (piece.empty()) continue;
    const size_t colon = piece.rfind(":[");
    if (colon == std::string::npos || colon == 0 || piece.back() != ']')
      throw Error(ErrorCategory::kUsage, "E10001",
                  "invalid --input_shape_range piece '" + piece + "': expected name:[d0,d1,...]",
                  "Write e.g. \"x:[1~4,3,224,224]\" (or better --input_shape \"x:1~4,3,224,224\")");
    std::vector<InputShape> one;
    try {
      one = ParseInputShape(piece.substr(0, colon + 1) + piece.substr(colon + 2, piece.size() - colon - 3));
    } catch (const Error &) {
      throw Error(ErrorCategory::kUsage, "E10001",
                  "invalid --input_shape_range piece '" + piece + "': dims must be integers, -1 or lo~hi",
                  "Write e.g. \"x:[1~4,3,224,224]\"");
    }
    if (!seen.insert(one.at(0).name).second)
      throw Error(ErrorCategory::kUsage, "E10001",
                  "invalid --input_shape_range piece '" + piece + "': input '" + one[0].name + "' is given twice",
                  "Name each input once");
    shapes.push_back(one[0]);
  }
  return shapes;
}

std::vector<OutNode> ParseOutNodes(const std::string &text) {
  std::vector<OutNode> nodes;
  for (const std::string &piece : Split(text, ';')) {
    if (piece.empty()) continue;
    size_t colon = piece.rfind(':');
    if (colon == std::string::npos) BadOutNode(piece, "no ':' between the node name and the output index");
    OutNode node;
    node.node = piece.substr(0, colon);
    if (node.node.empty()) BadOutNode(piece, "the node name is empty");
    int64_t idx = 0;
    std::string idx_text = piece.substr(colon + 1);
    if (!ParseStrictInt64(idx_text, &idx) || idx < 0 || idx > 65535)
      BadOutNode(piece, "output index '" + idx_text + "' is not an integer in 0..65535");
    node.index = static_cast<int>(idx);
    nodes.push_back(node);
  }
  return nodes;
}

}  // namespace atc
}  // namespace openatc
