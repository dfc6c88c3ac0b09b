// Verified FlatBuffers envelope -> om::Model. FlatBuffers lets many offsets point at one
// string or table, so a small envelope could expand into a huge Model; every copy is charged
// to a budget proportional to the envelope size and decoding stops when it runs out.
#include "decode_envelope.h"

#include <cstring>

#include "internal.h"
#include "openatc/ir/control_flow.h"
#include "openatc/private_dtype.h"

static_assert(FLATBUFFERS_LITTLEENDIAN, "the OM reader copies FlatBuffers vectors as host words");

namespace openatc::om::detail {
namespace {

template <typename T>
using FbVec = flatbuffers::Vector<T>;

class Decoder {
 public:
  Decoder(uint64_t envelope_size, Model *model, std::vector<SegmentUse> *uses)
      : budget_(envelope_size * 64 + (1u << 20)), model_(model), uses_(uses) {}

  void Run(const fb::Model &root);

 private:
  void Charge(uint64_t bytes) {
    if (bytes > budget_)
      throw Corrupt(kErrExpansion,
                    "envelope: decoding it would allocate far more than its size (shared "
                    "references in a crafted file?)");
    budget_ -= bytes;
  }
  std::string Str(const flatbuffers::String *s) {
    if (!s) return {};
    Charge(s->size() + sizeof(std::string));
    return s->str();
  }
  template <typename T>
  std::vector<T> Vec(const FbVec<T> *v) {
    if (!v) return {};
    Charge(uint64_t{v->size()} * sizeof(T) + sizeof(std::vector<T>));
    // The verifier aligns a vector's length field to 4 only, so 8-byte elements may sit
    // unaligned: copy bytes (FlatBuffers data is little-endian, as are our hosts).
    std::vector<T> out(v->size());
    if (!out.empty()) std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
    return out;
  }
  std::vector<ir::Endpoint> Endpoints(const FbVec<const fb::Endpoint *> *v) {
    std::vector<ir::Endpoint> out;
    if (!v) return out;
    Charge(uint64_t{v->size()} * sizeof(ir::Endpoint));
    out.reserve(v->size());
    for (const fb::Endpoint *e : *v) out.push_back(ir::Endpoint{e->node(), e->index()});
    return out;
  }
  ir::TensorDesc Desc(const fb::TensorDesc *d, const std::string &where);
  std::vector<ir::TensorDesc> Descs(const FbVec<flatbuffers::Offset<fb::TensorDesc>> *v,
                                    const std::string &where) {
    std::vector<ir::TensorDesc> out;
    if (!v) return out;
    for (const fb::TensorDesc *d : *v) out.push_back(Desc(d, where));
    return out;
  }
  ir::AttrValue Attr(const fb::Attr &a, const ir::Node &node, const std::string &name);
  void Plan(const fb::NodePlan &p, ir::Node &node);
  void PackedWeights(const FbVec<flatbuffers::Offset<fb::PackedWeight>> &v, ir::Node &node);
  void DecodeGraph(const fb::Graph &g, ir::Graph &out);
  std::shared_ptr<ir::Graph> Subgraph(const fb::Graph &g, const ir::Node &node, const std::string &name);
  int depth_ = 0;  ///< subgraph nesting of the graph being decoded
  void DecodeGears(const fb::Model &root);
  void AddUse(int32_t segment, SegmentKind kind, ir::Bytes *dest, std::string part,
              const ir::Node *node) {
    if (segment == -1) return;
    SegmentUse u;
    u.segment = segment;
    u.kind = kind;
    u.dest = dest;
    u.part = std::move(part);
    u.shared = in_gear_ && kind == SegmentKind::kWeight;
    if (node) {
      u.node = node->name;
      u.op_type = node->type;
    }
    uses_->push_back(std::move(u));
  }

  uint64_t budget_;
  bool in_gear_ = false;  // decoding a gear graph (1.2)
  Model *model_;
  std::vector<SegmentUse> *uses_;
};

ir::TensorDesc Decoder::Desc(const fb::TensorDesc *d, const std::string &where) {
  Charge(sizeof(ir::TensorDesc));
  ir::TensorDesc out;
  if (!d) throw Corrupt(kErrEnvelope, "envelope: " + where + ": a tensor desc is missing");
  // Enum ranges: a value outside ge::DataType (0..DT_MAX, plus OpenATC's private 61..63 of
  // openatc/private_dtype.h) or ge::Format (0..FORMAT_MAX = 0xff) is not representable in
  // ir::TensorDesc (loading it would be undefined behaviour), so GE's packed sub-format values
  // are refused too.
  if (!IsKnownDataTypeValue(d->dtype()))
    throw Corrupt(kErrEnvelope, "envelope: " + where + ": unknown dtype value " +
                                    std::to_string(d->dtype()));
  for (int32_t f : {d->format(), d->origin_format()})
    if (f < 0 || f > ge::FORMAT_MAX)
      throw Corrupt(kErrEnvelope,
                    "envelope: " + where + ": unknown format value " + std::to_string(f));
  out.name = Str(d->name());
  out.dtype = static_cast<ge::DataType>(d->dtype());
  out.format = static_cast<ge::Format>(d->format());
  out.origin_format = static_cast<ge::Format>(d->origin_format());
  out.shape = Vec(d->shape());
  out.origin_shape = Vec(d->origin_shape());
  out.valid = d->valid();
  const auto vk = static_cast<uint8_t>(d->value_kind());
  if (vk > static_cast<uint8_t>(ir::ValueKind::kOptionalSequence))
    throw Corrupt(kErrEnvelope, "envelope: " + where + ": unknown value kind " + std::to_string(vk));
  out.value_kind = static_cast<ir::ValueKind>(vk);
  return out;
}

ir::AttrValue Decoder::Attr(const fb::Attr &a, const ir::Node &node, const std::string &name) {
  using K = ir::AttrKind;
  Charge(sizeof(ir::AttrValue) + 64);
  ir::AttrValue v;
  const auto kind = static_cast<uint8_t>(a.kind());
  if (kind > static_cast<uint8_t>(K::kListGraph))
    throw Corrupt(kErrEnvelope, "envelope: attr '" + name + "' has unknown kind " +
                                    std::to_string(kind))
        .WithNode(node.name, node.type);
  v.kind = static_cast<K>(kind);
  switch (v.kind) {
    case K::kNone: break;
    case K::kInt: v.i = a.i(); break;
    case K::kFloat: v.f = a.f(); break;
    case K::kBool: v.b = a.b(); break;
    case K::kString: v.s = Str(a.s()); break;
    case K::kBytes:
      if (a.bytes()) {
        Charge(a.bytes()->size());
        v.s.assign(reinterpret_cast<const char *>(a.bytes()->data()), a.bytes()->size());
      }
      break;
    case K::kDataType:
      if (!IsKnownDataTypeValue(a.dt()))
        throw Corrupt(kErrEnvelope, "envelope: attr '" + name + "': unknown dtype value " +
                                        std::to_string(a.dt()))
            .WithNode(node.name, node.type);
      v.dt = static_cast<ge::DataType>(a.dt());
      break;
    case K::kTensor: {
      const fb::Tensor *t = a.t();
      if (!t || !t->desc())
        throw Corrupt(kErrEnvelope, "envelope: tensor '" + name + "' has no descriptor")
            .WithNode(node.name, node.type);
      Charge(sizeof(ir::ConstTensor) + 32);
      v.t = std::make_shared<ir::ConstTensor>();
      v.t->desc = Desc(t->desc(), "node '" + node.name + "' tensor '" + name + "'");
      AddUse(t->segment(), SegmentKind::kWeight, &v.t->data, "tensor '" + name + "'", &node);
      break;
    }
    case K::kListInt:
    case K::kListDataType: v.list_i = Vec(a.list_i()); break;
    case K::kListFloat: v.list_f = Vec(a.list_f()); break;
    case K::kListBool:
      v.list_b = Vec(a.list_b());
      for (auto &x : v.list_b) x = x ? 1 : 0;
      break;
    case K::kListString:
      if (a.list_s())
        for (const flatbuffers::String *s : *a.list_s()) v.list_s.push_back(Str(s));
      break;
    case K::kListListInt:
      if (a.list_list_i())
        for (const fb::IntList *l : *a.list_list_i())
          v.list_list_i.push_back(l ? Vec(l->values()) : std::vector<int64_t>{});
      break;
    case K::kGraph:
      if (!a.g())
        throw Corrupt(kErrEnvelope, "envelope: attr '" + name + "' of kind graph has no graph").WithNode(node.name, node.type);
      v.g = Subgraph(*a.g(), node, name);
      break;
    case K::kListGraph:
      if (a.list_g()) {
        Charge(uint64_t{a.list_g()->size()} * sizeof(std::shared_ptr<ir::Graph>));
        for (const fb::Graph *g : *a.list_g()) v.list_g.push_back(Subgraph(*g, node, name));
      }
      break;
  }
  return v;
}

// A subgraph attr (1.3), nested at most ir::kMaxSubgraphDepth levels below the main graph.
std::shared_ptr<ir::Graph> Decoder::Subgraph(const fb::Graph &g, const ir::Node &node, const std::string &name) {
  if (depth_ >= ir::kMaxSubgraphDepth)
    throw Corrupt(kErrEnvelope, "envelope: attr '" + name + "': subgraphs nest deeper than " +
                                    std::to_string(ir::kMaxSubgraphDepth) + " levels")
        .WithNode(node.name, node.type);
  Charge(sizeof(ir::Graph));
  auto out = std::make_shared<ir::Graph>();
  ++depth_;
  DecodeGraph(g, *out);
  --depth_;
  return out;
}

void Decoder::Plan(const fb::NodePlan &p, ir::Node &node) {
  node.plan.output_offsets = Vec(p.output_offsets());
  node.plan.workspace_bytes = Vec(p.workspace_bytes());
  if (!p.launches()) return;
  Charge(uint64_t{p.launches()->size()} * sizeof(ir::DeclaredLaunch));
  // Sized first: SegmentUse::dest points into the launches, which must not move afterwards.
  node.plan.launches.resize(p.launches()->size());
  for (size_t k = 0; k < node.plan.launches.size(); ++k) {
    const fb::DeclaredLaunch *fl = p.launches()->Get(static_cast<flatbuffers::uoffset_t>(k));
    ir::DeclaredLaunch &l = node.plan.launches[k];
    l.kernel_name = Str(fl->kernel_name());
    l.block_dim = fl->block_dim();
    if (fl->slots()) {
      Charge(uint64_t{fl->slots()->size()} * sizeof(ir::LaunchSlot));
      for (const fb::LaunchSlot *s : *fl->slots()) l.slots.push_back({s->addr_type(), s->index(), s->value()});
    }
    AddUse(fl->segment(), SegmentKind::kKernel, &l.binary,
           "declared launch '" + l.kernel_name + "' of node '" + node.name + "'", &node);
  }
}

// 1.3: packed copies of constant inputs. The input index must name one of the node's anchors and
// a segment must hold the bytes; whether the bytes fit the layout is the op's check at load.
void Decoder::PackedWeights(const FbVec<flatbuffers::Offset<fb::PackedWeight>> &v, ir::Node &node) {
  Charge(uint64_t{v.size()} * sizeof(ir::PackedWeight));
  // Sized first: SegmentUse::dest points into the vector, which must not move afterwards.
  node.packed_weights.resize(v.size());
  for (size_t k = 0; k < node.packed_weights.size(); ++k) {
    const fb::PackedWeight *f = v.Get(static_cast<flatbuffers::uoffset_t>(k));
    ir::PackedWeight &pw = node.packed_weights[k];
    pw.input = f->input();
    if (pw.input < 0 || static_cast<size_t>(pw.input) >= node.inputs.size())
      throw Corrupt(kErrEnvelope, "envelope: packed weight " + std::to_string(k) + " names input " +
                                      std::to_string(pw.input) + " of a node with " +
                                      std::to_string(node.inputs.size()) + " inputs")
          .WithNode(node.name, node.type);
    if (f->segment() < 0)
      throw Corrupt(kErrEnvelope, "envelope: packed weight of input " + std::to_string(pw.input) + " has no segment")
          .WithNode(node.name, node.type);
    pw.isa = Str(f->isa());
    pw.layout = Str(f->layout());
    AddUse(f->segment(), SegmentKind::kWeight, &pw.data,
           "packed weight of input " + std::to_string(pw.input) + " of node '" + node.name + "'", &node);
  }
}

void Decoder::DecodeGraph(const fb::Graph &g, ir::Graph &out) {
  out.name = Str(g.name());
  out.inputs = Vec(g.inputs());
  out.outputs = Endpoints(g.outputs());
  if (g.nodes()) {
    Charge(uint64_t{g.nodes()->size()} * sizeof(ir::Node));
    // Sized first: SegmentUse::dest points into the nodes, which must not move afterwards.
    out.nodes.resize(g.nodes()->size());
    for (size_t k = 0; k < g.nodes()->size(); ++k) {
      const fb::Node *fn = g.nodes()->Get(static_cast<flatbuffers::uoffset_t>(k));
      ir::Node &n = out.nodes[k];
      n.name = Str(fn->name());
      n.type = Str(fn->type());
      n.inputs = Endpoints(fn->inputs());
      n.control_inputs = Vec(fn->control_inputs());
      n.input_descs = Descs(fn->input_descs(), "node '" + n.name + "' input");
      n.output_descs = Descs(fn->output_descs(), "node '" + n.name + "' output");
      if (fn->attrs()) {
        for (const fb::Attr *a : *fn->attrs()) {
          std::string name = Str(a->name());
          if (n.attrs.count(name))
            throw Corrupt(kErrEnvelope, "envelope: attr '" + name + "' appears twice")
                .WithNode(n.name, n.type);
          n.attrs.emplace(name, Attr(*a, n, name));
        }
      }
      if (fn->plan()) Plan(*fn->plan(), n);
      if (fn->packed_weights()) PackedWeights(*fn->packed_weights(), n);
    }
  }
}

void Decoder::DecodeGears(const fb::Model &root) {
  Model &m = *model_;
  const auto kind = static_cast<uint8_t>(root.gear_kind());
  if (kind > static_cast<uint8_t>(GearKind::kDims))
    throw Corrupt(kErrEnvelope, "envelope: unknown gear kind " + std::to_string(kind));
  m.gear_kind = static_cast<GearKind>(kind);
  if (root.gear_input_order())
    for (const flatbuffers::String *s : *root.gear_input_order()) m.gear_input_order.push_back(Str(s));
  if (!root.gears()) return;
  Charge(uint64_t{root.gears()->size()} * sizeof(GearVariant));
  // Sized first: SegmentUse::dest points into the gears' nodes, which must not move afterwards.
  m.gears.resize(root.gears()->size());
  in_gear_ = true;
  for (size_t k = 0; k < m.gears.size(); ++k) {
    const fb::GearVariant *fg = root.gears()->Get(static_cast<flatbuffers::uoffset_t>(k));
    m.gears[k].values = Vec(fg->values());
    if (!fg->graph()) throw Corrupt(kErrEnvelope, "envelope: gear #" + std::to_string(k) + " has no graph");
    DecodeGraph(*fg->graph(), m.gears[k].graph);
    m.gears[k].graph.arena_bytes = fg->arena_bytes();
  }
  in_gear_ = false;
}

void Decoder::Run(const fb::Model &root) {
  Model &m = *model_;
  m.producer = Str(root.producer());
  // The target record is read last, by the reader (reader.cc), after every structural check.
  if (root.build_options()) {
    for (const fb::KeyValue *kv : *root.build_options()) {
      std::string key = Str(kv->key());
      if (!m.build_options.emplace(key, Str(kv->value())).second)
        throw Corrupt(kErrEnvelope, "envelope: build option '" + key + "' appears twice");
    }
  }
  if (const fb::Graph *g = root.graph()) {
    DecodeGraph(*g, m.graph);
    m.graph.arena_bytes = root.arena_bytes();
  }
  DecodeGears(root);
  if (root.artifacts()) {
    Charge(uint64_t{root.artifacts()->size()} * sizeof(OpArtifact));
    m.artifacts.resize(root.artifacts()->size());
    for (size_t k = 0; k < m.artifacts.size(); ++k) {
      const fb::OpArtifact *fa = root.artifacts()->Get(static_cast<flatbuffers::uoffset_t>(k));
      OpArtifact &a = m.artifacts[k];
      a.op_type = Str(fa->op_type());
      a.capabilities = fa->capabilities();
      a.deliverable = fa->deliverable();
      a.has_payload = fa->has_payload();
      a.producer = Str(fa->producer());
      a.hash = fa->hash();
      AddUse(fa->segment(), SegmentKind::kArtifact, &a.payload,
             "artifact of op type '" + a.op_type + "'", nullptr);
    }
  }
  if (root.deliverables()) {
    Charge(uint64_t{root.deliverables()->size()} * sizeof(Deliverable));
    m.deliverables.resize(root.deliverables()->size());
    for (size_t k = 0; k < m.deliverables.size(); ++k) {
      const fb::Deliverable *fd =
          root.deliverables()->Get(static_cast<flatbuffers::uoffset_t>(k));
      Deliverable &d = m.deliverables[k];
      d.file_name = Str(fd->file_name());
      d.sdk_version = Str(fd->sdk_version());
      d.hash = fd->hash();
      if (fd->op_types())
        for (const flatbuffers::String *s : *fd->op_types()) d.op_types.push_back(Str(s));
      AddUse(fd->segment(), SegmentKind::kDeliverable, &d.data,
             "deliverable #" + std::to_string(k) + " '" + d.file_name + "'", nullptr);
    }
  }
}

}  // namespace

void DecodeEnvelope(const fb::Model &root, uint64_t envelope_size, Model *model,
                    std::vector<SegmentUse> *uses) {
  Decoder(envelope_size, model, uses).Run(root);
}

}  // namespace openatc::om::detail
