/**
 * @file openatc/frontend/ge_ir_reader.h
 * The GE IR front end: reads a graph file in any of the three encodings of ge.proto.ModelDef
 * (schemas/ge_ir.proto) and converts its root graph (`graph[0]`) to an ir::Graph.
 *
 * Behaviour follows docs/ge-ir.md:
 *  - §1/§5: binary AIR (`Graph::SaveToFile`), the proto3 JSON mapping (`MessageToJsonString`
 *    output; int64 as strings or numbers, enums by name or number, bytes as base64, snake_case
 *    or lowerCamelCase names), and protobuf text dumps (`atc --mode=5` input).
 *  - §2.1: proto DataType values are converted to C++ ge::DataType BY NAME.
 *  - §2.3: tensor formats come from `format_for_int` / `origin_format_for_int` when present,
 *    else from `layout` / `origin_format`; origin shape from `origin_shape`, else = shape.
 *  - §3: edges "src:idx" (split at the last ':'), "" unconnected, negative idx or "^src" =
 *    control edge.
 *  - §4: Data nodes are renumbered 0..n-1 in node order when their `index` attrs are not exactly
 *    {0..n-1}; a NetOutput named `Node_Output` is added from GraphDef.output when the graph has
 *    none; Const/Constant `value` tensors are size-checked.
 * Nodes keep file order (topological sorting is a later pass), but cycles are reported here.
 *
 * Errors: every failure throws openatc::Error with category kGraph (kIo when the file cannot
 * be read): code E10041 when the bytes do not parse (protobuf's message and position), else an
 * `OA1xxx` code from atc/frontend/ERRORS.md. Errors carry .WithFile(path or name_for_errors) and,
 * where a node is at fault, .WithNode(name, type).
 */
#ifndef OPENATC_FRONTEND_GE_IR_READER_H_
#define OPENATC_FRONTEND_GE_IR_READER_H_

#include <string>

#include "openatc/ir/graph.h"

namespace openatc::frontend {

/// How the file's bytes encode the ModelDef.
enum class GeIrEncoding {
  kAuto,    ///< by extension (.json, .air, .txt/.pbtxt), else '{' -> JSON, else binary then text
  kBinary,  ///< raw binary protobuf (.air)
  kJson,    ///< proto3 JSON mapping (docs/ge-ir.md §5)
  kText,    ///< protobuf text format (GE's ge_proto_*.txt dumps)
};

/// Reads the GE IR graph file at `path` and converts graph[0] to an ir::Graph.
/// Throws openatc::Error (see file comment) with the path as the error's file.
ir::Graph ReadGeIrFile(const std::string &path, GeIrEncoding encoding = GeIrEncoding::kAuto);

/// Same as ReadGeIrFile for bytes already in memory. With kAuto only the content is sniffed,
/// unless `name_for_errors` ends in a known extension. `name_for_errors` is used as the error's
/// file.
ir::Graph ReadGeIrString(const std::string &bytes, GeIrEncoding encoding,
                         const std::string &name_for_errors);

}  // namespace openatc::frontend

#endif  // OPENATC_FRONTEND_GE_IR_READER_H_
