// ir::Graph -> ge.proto.ModelDef JSON (the inverse of proto_to_ir.cc / ge_ir_reader.cc), used by
// `atc --mode=1`. Encoding rules are listed in openatc/frontend/ge_ir_writer.h.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/type_resolver_util.h>

#include <memory>

#include "internal.h"
#include "openatc/common/dtype.h"
#include "openatc/frontend/ge_ir_writer.h"

namespace openatc::frontend {
namespace {

using namespace detail;
using LV = geir::AttrDef::ListValue;

void SetIntAttr(geir::TensorDescriptor *td, const char *key, int64_t v) {
  (*td->mutable_attr())[key].set_i(v);
}

// True when the format's serial name reads back to the same value (no sub-format bits etc.).
bool FormatHasName(ge::Format f, std::string *name) {
  *name = FormatName(f);
  ge::Format back;
  return ParseFormatName(*name, &back) && back == f;
}

void WriteDesc(const ir::TensorDesc &d, geir::TensorDescriptor *td) {
  td->set_name(d.name);
  geir::DataType pdt = geir::DT_UNDEFINED;
  if (d.dtype != ge::DT_UNDEFINED &&
      !geir::DataType_Parse(DataTypeName(d.dtype), &pdt)) {
    pdt = geir::DT_UNDEFINED;
  }
  td->set_dtype(pdt);
  ge::DataType back = ge::DT_UNDEFINED;
  if (!ProtoDataTypeToGe(pdt, &back) || back != d.dtype)
    SetIntAttr(td, "__tensor_desc_data_type__", static_cast<int64_t>(d.dtype));
  for (int64_t dim : d.shape) td->mutable_shape()->add_dim(dim);

  std::string name;
  if (FormatHasName(d.format, &name))
    td->set_layout(name);
  else
    SetIntAttr(td, "format_for_int", static_cast<int64_t>(d.format));
  if (d.origin_format != d.format) {
    if (FormatHasName(d.origin_format, &name))
      (*td->mutable_attr())["origin_format"].set_s(name);
    else
      SetIntAttr(td, "origin_format_for_int", static_cast<int64_t>(d.origin_format));
  }
  if (d.origin_shape != d.shape) {
    LV *l = (*td->mutable_attr())["origin_shape"].mutable_list();
    l->set_val_type(LV::VT_LIST_INT);
    for (int64_t dim : d.origin_shape) l->add_i(dim);
  }
}

void WriteAttr(const ir::AttrValue &a, geir::AttrDef *out) {
  using K = ir::AttrKind;
  switch (a.kind) {
    case K::kNone: break;
    case K::kInt: out->set_i(a.i); break;
    case K::kFloat: out->set_f(a.f); break;
    case K::kBool: out->set_b(a.b); break;
    case K::kString: out->set_s(a.s); break;
    case K::kBytes: out->set_bt(a.s); break;
    case K::kDataType: out->set_dt(static_cast<int64_t>(a.dt)); break;
    case K::kTensor: {
      geir::TensorDef *t = out->mutable_t();
      if (a.t) {
        WriteDesc(a.t->desc, t->mutable_desc());
        if (a.t->data.size)
          t->set_data(reinterpret_cast<const char *>(a.t->data.data), a.t->data.size);
      }
      break;
    }
    case K::kListInt: {
      LV *l = out->mutable_list();
      l->set_val_type(LV::VT_LIST_INT);
      for (int64_t v : a.list_i) l->add_i(v);
      break;
    }
    case K::kListFloat: {
      LV *l = out->mutable_list();
      l->set_val_type(LV::VT_LIST_FLOAT);
      for (float v : a.list_f) l->add_f(v);
      break;
    }
    case K::kListBool: {
      LV *l = out->mutable_list();
      l->set_val_type(LV::VT_LIST_BOOL);
      for (uint8_t v : a.list_b) l->add_b(v != 0);
      break;
    }
    case K::kListString: {
      LV *l = out->mutable_list();
      l->set_val_type(LV::VT_LIST_STRING);
      for (const auto &v : a.list_s) l->add_s(v);
      break;
    }
    case K::kListDataType: {
      LV *l = out->mutable_list();
      l->set_val_type(LV::VT_LIST_DATA_TYPE);
      for (int64_t v : a.list_i) l->add_dt(v);
      break;
    }
    case K::kListListInt: {
      auto *ll = out->mutable_list_list_int();
      for (const auto &inner : a.list_list_i) {
        auto *li = ll->add_list_list_i();
        for (int64_t v : inner) li->add_list_i(v);
      }
      break;
    }
    // GE's AIR keeps subgraphs as graphs of the model referenced by name, not as attrs; the
    // ONNX control-flow subgraphs are not written into AIR.
    case K::kGraph:
    case K::kListGraph: break;
  }
}

// Well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
bool IsUtf8(const std::string &s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) { ++i; continue; }
    if ((c & 0xe0) == 0xc0) { n = 1; cp = c & 0x1f; }
    else if ((c & 0xf0) == 0xe0) { n = 2; cp = c & 0x0f; }
    else if ((c & 0xf8) == 0xf0) { n = 3; cp = c & 0x07; }
    else return false;
    if (n >= s.size() - i) return false;  // truncated sequence
    for (size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    static const uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

// JSON strings must be UTF-8: proto `string` fields (names, types, attr keys) that are not
// cannot be written. (Attr values of kind s/bt are proto `bytes`: base64, any content.)
void RequireUtf8(const std::string &s, const char *what, const ir::Node *node) {
  if (IsUtf8(s)) return;
  Error e(ErrorCategory::kInternal, "OA1015",
          std::string("cannot write the graph as JSON: the ") + what +
              " is not valid UTF-8, which JSON cannot hold",
          "Rename it with UTF-8 text; the binary AIR form can keep such names");
  if (node) e.WithNode(node->name, node->type);
  throw e;
}

void CheckUtf8(const ir::Graph &g) {
  RequireUtf8(g.name, "graph name", nullptr);
  for (const ir::Node &n : g.nodes) {
    if (!IsUtf8(n.name) || !IsUtf8(n.type)) {
      ir::Node printable;
      printable.name = IsUtf8(n.name) ? n.name : "(node with a non-UTF-8 name or type)";
      printable.type = IsUtf8(n.type) ? n.type : "";
      RequireUtf8(n.name + n.type, "node name or op type", &printable);
    }
    for (const auto &[k, v] : n.attrs) {
      RequireUtf8(k, "name of an attr", &n);
      if (v.kind == ir::AttrKind::kTensor && v.t)
        RequireUtf8(v.t->desc.name, "tensor desc name of an attr", &n);
    }
    for (const auto &d : n.input_descs) RequireUtf8(d.name, "name of an input desc", &n);
    for (const auto &d : n.output_descs) RequireUtf8(d.name, "name of an output desc", &n);
  }
}

// A descriptor nobody set (what the reader gives an output no output_desc declares).
bool IsDefaultDesc(const ir::TensorDesc &d) {
  const ir::TensorDesc def;
  return d.name.empty() && d.dtype == def.dtype && d.format == def.format &&
         d.origin_format == def.origin_format && d.shape.empty() && d.origin_shape.empty() &&
         d.valid;
}

std::string EdgeText(const ir::Graph &g, const ir::Endpoint &e) {
  if (!e.connected() || e.node >= static_cast<int32_t>(g.nodes.size())) return "";
  return g.nodes[e.node].name + ":" + std::to_string(e.index);
}

}  // namespace

std::string WriteGeIrJson(const ir::Graph &graph,
                          const std::map<std::string, std::string> &graph_attrs) {
  CheckUtf8(graph);
  geir::ModelDef model;
  model.set_name(graph.name);
  geir::GraphDef *gd = model.add_graph();
  gd->set_name(graph.name);
  for (int32_t in : graph.inputs)
    if (in >= 0 && in < static_cast<int32_t>(graph.nodes.size()))
      gd->add_input(graph.nodes[in].name + ":0");
  for (const auto &e : graph.outputs) gd->add_output(EdgeText(graph, e));
  for (const auto &[k, v] : graph_attrs) (*gd->mutable_attr())[k].set_s(v);

  for (const ir::Node &n : graph.nodes) {
    geir::OpDef *op = gd->add_op();
    op->set_name(n.name);
    op->set_type(n.type);
    for (const auto &e : n.inputs) op->add_input(EdgeText(graph, e));
    for (int32_t c : n.control_inputs)
      if (c >= 0 && c < static_cast<int32_t>(graph.nodes.size()))
        op->add_input(graph.nodes[c].name + ":-1");
    for (const auto &[k, v] : n.attrs) WriteAttr(v, &(*op->mutable_attr())[k]);
    for (const auto &d : n.input_descs) WriteDesc(d, op->add_input_desc());
    // Outputs the source never described stay undescribed, so that the reader derives them
    // again instead of checking them against consumers' explicit input descs.
    bool described = false;
    for (const auto &d : n.output_descs) described = described || !IsDefaultDesc(d);
    if (described)
      for (const auto &d : n.output_descs) WriteDesc(d, op->add_output_desc());
  }

  // Map entries (attrs) in key order: a deterministic binary form, printed in wire order.
  std::string wire;
  {
    google::protobuf::io::StringOutputStream sos(&wire);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    model.SerializeToCodedStream(&cos);
  }
  static const std::unique_ptr<google::protobuf::util::TypeResolver> resolver(
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          "type.googleapis.com", google::protobuf::DescriptorPool::generated_pool()));
  google::protobuf::util::JsonPrintOptions opts;
  opts.add_whitespace = true;
  opts.preserve_proto_field_names = true;
  std::string out;
  auto status = google::protobuf::util::BinaryToJsonString(
      resolver.get(), "type.googleapis.com/" + geir::ModelDef::descriptor()->full_name(), wire,
      &out, opts);
  if (!status.ok())
    throw Error(ErrorCategory::kInternal, "OA1015",
                "cannot print graph '" + graph.name + "' as JSON: " + status.ToString(),
                "Node names and types must be valid UTF-8");
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

}  // namespace openatc::frontend
