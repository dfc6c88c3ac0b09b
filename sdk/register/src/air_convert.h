// Private to libregister: conversions between the SDK's in-memory values (ge::TensorDesc,
// ge::Tensor, attribute values) and ge.proto messages (schemas/ge_ir.proto), used by the AIR
// writer (air_writer.cc) and reader (air_reader.cc). Encoding facts: docs/ge-ir.md §2.
#ifndef OPENATC_REGISTER_SRC_AIR_CONVERT_H_
#define OPENATC_REGISTER_SRC_AIR_CONVERT_H_

#include <string>

#include "ge_ir.pb.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "openatc/register/attr_value.h"

namespace openatc::reg::air {

namespace geir = ::openatc::geir;

/// Op attributes the serializer adds and the reader consumes (docs/ge-ir.md §2.4).
inline constexpr const char *kInputNameKey = "_input_name_key";
inline constexpr const char *kInputNameValue = "_input_name_value";
inline constexpr const char *kOutputNameKey = "_output_name_key";
inline constexpr const char *kOutputNameValue = "_output_name_value";
inline constexpr const char *kIrInputsKey = "_ir_inputs_key";
inline constexpr const char *kIrInputsValue = "_ir_inputs_value";
inline constexpr const char *kIrOutputsKey = "_ir_outputs_key";
inline constexpr const char *kIrOutputsValue = "_ir_outputs_value";
inline constexpr const char *kIrAttrNames = "_ir_attr_names";
inline constexpr const char *kOptInput = "_opt_input";
/// True for one of the keys above.
bool IsSerializerAttr(const std::string &key);

/// ge::TensorDesc -> TensorDescriptor: dtype (proto numbering), shape, layout, and the attrs GE
/// writes (format_for_int, origin_format(_for_int), origin_shape(_initialized), origin_data_type,
/// shape_range when set).
void WriteDesc(const ge::TensorDesc &desc, geir::TensorDescriptor *td);
/// TensorDescriptor -> ge::TensorDesc. False (reason in *why) for an unknown dtype or format.
bool ReadDesc(const geir::TensorDescriptor &td, ge::TensorDesc *desc, std::string *why);

/// Attribute value -> AttrDef. False (reason in *why) for a kind AIR cannot hold here (NamedAttrs).
bool WriteAttr(const AttrValue &value, geir::AttrDef *out, std::string *why);
/// AttrDef -> attribute value. False (reason in *why) for a kind the SDK cannot hold.
bool ReadAttr(const geir::AttrDef &attr, AttrValue *out, std::string *why);

/// graph -> ModelDef laid out as GE's Graph::SaveToFile writes it (air_writer.cc). False with the
/// reason in *why (a cycle, an attribute kind AIR cannot hold here).
bool GraphToModelDef(const ge::Graph &graph, geir::ModelDef *model, std::string *why);
/// Binary protobuf with deterministic map order (same message = same bytes).
bool SerializeDeterministic(const geir::ModelDef &model, std::string *bytes);
/// graph[0] of `model` -> *graph (air_reader.cc). False with the reason in *why.
bool ModelDefToGraph(const geir::ModelDef &model, ge::Graph *graph, std::string *why);

}  // namespace openatc::reg::air

#endif  // OPENATC_REGISTER_SRC_AIR_CONVERT_H_
