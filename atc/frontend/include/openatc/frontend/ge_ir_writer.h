/**
 * @file openatc/frontend/ge_ir_writer.h
 * The inverse of the GE IR front end: an ir::Graph -> ge.proto.ModelDef (schemas/ge_ir.proto)
 * in the proto3 JSON mapping with the proto's own snake_case field names, as `atc --mode=1`
 * writes it. ReadGeIrString / ReadGeIrFile read the text back to an equivalent graph (same node
 * names, types, order, edges, control edges, descriptors, attrs and Const bytes; Data `index`
 * attrs and the NetOutput node are kept as they are).
 *
 * Encoding rules (docs/ge-ir.md §2-§5, read side in proto_to_ir.cc):
 *  - dtype by proto DataType NAME; a C++ dtype without a proto name is written as DT_UNDEFINED
 *    plus the tensor-desc attr `__tensor_desc_data_type__` (C++ value);
 *  - formats as `layout` / attr `origin_format` serial names when the name reads back to the same
 *    value, else attrs `format_for_int` / `origin_format_for_int`; origin_format only when it
 *    differs from the format; attr `origin_shape` only when it differs from the shape;
 *  - a node whose output descs are all default (never described: the reader sized them from
 *    their uses) gets no output_desc, so the reader derives them again;
 *  - edges "src:idx", "" for an unconnected input, "src:-1" for a control input;
 *  - GraphDef.output lists the graph outputs; GraphDef.input lists the model inputs ("data:0");
 *  - attrs: s/bt as proto bytes (base64 in JSON), dt and list dt as C++ ge::DataType values,
 *    lists with their val_type, list_list_int, Const tensors with desc and data.
 * `graph_attrs` become string attrs of GraphDef.attr (the reader ignores graph attrs).
 * Known loss: protobuf's JSON parser reads a float attr of -0.0 back as +0.0.
 * Errors: openatc::Error (kInternal, OA1015) when a proto `string` field would not be valid
 * UTF-8 (graph or node name, op type, attr name, desc name; JSON cannot hold it: the binary
 * reader accepts such names), or if protobuf cannot print the message. Names the node.
 */
#ifndef OPENATC_FRONTEND_GE_IR_WRITER_H_
#define OPENATC_FRONTEND_GE_IR_WRITER_H_

#include <map>
#include <string>

#include "openatc/ir/graph.h"

namespace openatc::frontend {

/// Returns `graph` as ModelDef JSON (one graph, `ModelDef.name` = `graph.name`), pretty-printed
/// with two-space indents and a final newline.
std::string WriteGeIrJson(const ir::Graph &graph,
                          const std::map<std::string, std::string> &graph_attrs = {});

}  // namespace openatc::frontend

#endif  // OPENATC_FRONTEND_GE_IR_WRITER_H_
