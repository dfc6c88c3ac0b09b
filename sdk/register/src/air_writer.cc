// ge::Graph::SaveToFile: the graph as an AIR file, a binary ge.proto.ModelDef laid out as GE's own
// SaveToFile writes it (docs/ge-ir.md §1-§4): a default model (no name, version 0, the model attrs
// GE's Model::Init sets), graph[0] = the graph, one OpDef per node, no NetOutput. Serialized with
// deterministic map order and written atomically, so the same graph gives the same bytes.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstring>
#include <stdexcept>

#include "air_convert.h"
#include "openatc/common/atomic_file.h"
#include "openatc/register/air_bytes.h"
#include "openatc/register/graph_view.h"
#include "sdk_visibility.h"

namespace openatc::reg::air {
namespace {
using LV = geir::AttrDef::ListValue;

void PutStrings(geir::OpDef *op, const char *key, const std::vector<std::string> &v) {
  LV *l = (*op->mutable_attr())[key].mutable_list();
  l->set_val_type(LV::VT_LIST_STRING);
  for (const auto &s : v) l->add_s(s);
}

void PutInts(geir::OpDef *op, const char *key, const std::vector<int64_t> &v) {
  LV *l = (*op->mutable_attr())[key].mutable_list();
  l->set_val_type(LV::VT_LIST_INT);
  for (int64_t x : v) l->add_i(x);
}

// The serializer's bookkeeping attrs (docs/ge-ir.md §2.4): anchor names and indices, the IR
// inputs / outputs with their kinds, IR attribute names, optional inputs.
void PutSerializerAttrs(const NodeView &n, geir::OpDef *op) {
  std::vector<std::string> names;
  std::vector<int64_t> idx;
  for (size_t k = 0; k < n.inputs.size(); ++k) names.push_back(n.inputs[k].name), idx.push_back(static_cast<int64_t>(k));
  if (!names.empty()) PutStrings(op, kInputNameKey, names), PutInts(op, kInputNameValue, idx);
  names.clear(), idx.clear();
  for (size_t k = 0; k < n.outputs.size(); ++k) names.push_back(n.outputs[k].name), idx.push_back(static_cast<int64_t>(k));
  if (!names.empty()) PutStrings(op, kOutputNameKey, names), PutInts(op, kOutputNameValue, idx);
  for (int out = 0; out < 2; ++out) {
    const auto &irs = out ? n.ir_outputs : n.ir_inputs;
    if (irs.empty()) continue;
    names.clear(), idx.clear();
    for (const auto &[name, kind] : irs) names.push_back(name), idx.push_back(kind);
    PutStrings(op, out ? kIrOutputsKey : kIrInputsKey, names);
    PutInts(op, out ? kIrOutputsValue : kIrInputsValue, idx);
  }
  if (!n.ir_attr_names.empty()) PutStrings(op, kIrAttrNames, n.ir_attr_names);
  names.clear();
  for (const auto &in : n.inputs)
    if (in.kind == IrInputKind::kOptional) names.push_back(in.name);
  if (!names.empty()) PutStrings(op, kOptInput, names);
}

bool WriteOp(const GraphView &g, const NodeView &n, geir::OpDef *op, std::string *why) {
  op->set_name(n.name);
  op->set_type(n.type);
  for (const auto &in : n.inputs) {
    if (in.src_node < 0) {
      op->add_input(std::string());
      WriteDesc(in.desc, op->add_input_desc());
      continue;
    }
    const NodeView &src = g.nodes[static_cast<size_t>(in.src_node)];
    op->add_input(src.name + ":" + std::to_string(in.src_output));
    // GE copies the producer's output desc into an input it links (unless the input's own desc
    // was set), so the file's input desc agrees with the edge.
    WriteDesc(in.desc_set ? in.desc : src.outputs[in.src_output].desc, op->add_input_desc());
  }
  for (size_t c : n.control_inputs) op->add_input(g.nodes[c].name + ":-1");
  for (const auto &out : n.outputs) WriteDesc(out.desc, op->add_output_desc());
  for (const auto &[key, value] : n.attrs) {
    if (IsSerializerAttr(key)) continue;  // rebuilt below from the node itself
    if (!WriteAttr(value, &(*op->mutable_attr())[key], why)) {
      *why = "node '" + n.name + "' (op type " + n.type + "): attr '" + key + "': " + *why;
      return false;
    }
  }
  PutSerializerAttrs(n, op);
  return true;
}

void PutModelAttrs(geir::ModelDef *model) {
  auto &attrs = *model->mutable_attr();
  for (const char *k : {"memory_size", "p2p_memory_size", "stream_num", "event_num", "label_num", "weight_size"})
    attrs[k].set_i(0);
  attrs["target_type"].set_s("MINI");
}
}  // namespace

/// graph -> ModelDef (see the file comment). False with the reason in *why.
bool GraphToModelDef(const ge::Graph &graph, geir::ModelDef *model, std::string *why) {
  GraphView view;
  try {
    view = ViewGraph(graph);
  } catch (const std::exception &e) {
    *why = e.what();
    return false;
  }
  PutModelAttrs(model);
  geir::GraphDef *gd = model->add_graph();
  gd->set_name(view.name);
  for (size_t i : view.inputs) gd->add_input(view.nodes[i].name + ":0");
  for (const auto &[node, index] : view.outputs) gd->add_output(view.nodes[node].name + ":" + std::to_string(index));
  for (const NodeView &n : view.nodes)
    if (!WriteOp(view, n, gd->add_op(), why)) return false;
  return true;
}

bool SerializeDeterministic(const geir::ModelDef &model, std::string *bytes) {
  bytes->clear();
  google::protobuf::io::StringOutputStream sos(bytes);
  google::protobuf::io::CodedOutputStream cos(&sos);
  cos.SetSerializationDeterministic(true);
  return model.SerializeToCodedStream(&cos);
}

}  // namespace openatc::reg::air

namespace openatc::reg {

bool GraphToAirBytes(const ge::Graph &graph, std::string *bytes, std::string *why) {
  geir::ModelDef model;
  if (!air::GraphToModelDef(graph, &model, why)) return false;
  if (!air::SerializeDeterministic(model, bytes)) {
    *why = "protobuf could not serialize the graph (a message is over 2 GiB); split the graph";
    return false;
  }
  return true;
}

}  // namespace openatc::reg

namespace ge {

graphStatus Graph::SaveToFile(const char_t *file_name) const {
  using openatc::reg::SetSdkError;
  const std::string path = file_name != nullptr ? file_name : "";
  const std::string what = "Graph::SaveToFile('" + path + "')";
  if (path.empty()) {
    SetSdkError(what + ": the file name is empty; pass the path of the .air file to write");
    return GRAPH_FAILED;
  }
  if (!impl_) {
    SetSdkError(what + ": the graph has no name (default-constructed); construct it as Graph(\"name\")");
    return GRAPH_FAILED;
  }
  std::string why;
  std::string bytes;
  if (!openatc::reg::GraphToAirBytes(*this, &bytes, &why)) {
    SetSdkError(what + ": " + why);
    return GRAPH_FAILED;
  }
  if (auto fail = openatc::WriteFileAtomic(path, bytes.data(), bytes.size())) {
    SetSdkError(what + ": cannot write the file (" + std::strerror(fail->err) +
                "); nothing was written. Check that the folder exists and is writable");
    return GRAPH_FAILED;
  }
  return GRAPH_SUCCESS;
}

}  // namespace ge
