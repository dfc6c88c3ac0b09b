// Pre-packed weights in the op compile cache: the key, the entry's bytes, and the flow
// (weight_cache.h).
#include "weight_cache.h"

#include <cctype>
#include <cstring>

#include "openatc/common/op_cache.h"
#include "openatc/gert/node_frame.h"

namespace openatc::compiler::passes {
namespace {

using Mode = rt::KernelCacheConfig::Mode;
constexpr char kMagic[4] = {'O', 'A', 'P', 'W'};
constexpr uint32_t kVersion = 1;

void AddInts(opcache::KeyHasher &h, const std::vector<int64_t> &v) {
  h.Add(v.size());
  if (!v.empty()) h.Add(v.data(), v.size() * sizeof(int64_t));
}

void AddDesc(opcache::KeyHasher &h, const ir::TensorDesc &d) {
  h.Add(d.name);
  h.Add(static_cast<uint64_t>(d.dtype));
  h.Add(static_cast<uint64_t>(d.format));
  h.Add(static_cast<uint64_t>(d.origin_format));
  AddInts(h, d.shape);
  AddInts(h, d.origin_shape);
  h.Add(d.valid ? 1 : 0);
  h.Add(static_cast<uint64_t>(d.value_kind));
}

/** False for a value the key cannot hold (a subgraph). */
bool AddAttr(opcache::KeyHasher &h, const ir::AttrValue &v) {
  using K = ir::AttrKind;
  h.Add(static_cast<uint64_t>(v.kind));
  switch (v.kind) {
    case K::kNone: return true;
    case K::kInt: h.Add(static_cast<uint64_t>(v.i)); return true;
    case K::kFloat: h.Add(&v.f, sizeof v.f); return true;
    case K::kBool: h.Add(v.b ? 1 : 0); return true;
    case K::kString:
    case K::kBytes: h.Add(v.s); return true;
    case K::kDataType: h.Add(static_cast<uint64_t>(v.dt)); return true;
    case K::kTensor:
      h.Add(v.t ? 1 : 0);
      if (v.t) {
        AddDesc(h, v.t->desc);
        h.Add(v.t->data.data, v.t->data.size);
      }
      return true;
    case K::kListInt:
    case K::kListDataType: AddInts(h, v.list_i); return true;
    case K::kListFloat:
      h.Add(v.list_f.size());
      if (!v.list_f.empty()) h.Add(v.list_f.data(), v.list_f.size() * sizeof(float));
      return true;
    case K::kListBool: h.Add(v.list_b.data(), v.list_b.size()); return true;
    case K::kListString:
      h.Add(v.list_s.size());
      for (const std::string &s : v.list_s) h.Add(s);
      return true;
    case K::kListListInt:
      h.Add(v.list_list_i.size());
      for (const auto &l : v.list_list_i) AddInts(h, l);
      return true;
    case K::kGraph:
    case K::kListGraph: return false;
  }
  return false;
}

template <typename T>
void Put(std::vector<uint8_t> &out, T v) {
  const auto *p = reinterpret_cast<const uint8_t *>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

/** Reads the .bin of weight_cache.h front to back; every read is bounds-checked. */
class Reader {
 public:
  explicit Reader(const std::vector<uint8_t> &b) : b_(b) {}
  template <typename T>
  bool Get(T *v) {
    if (b_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, b_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool Take(uint64_t n, const uint8_t **p) {
    if (b_.size() - pos_ < n) return false;
    *p = b_.data() + pos_;
    pos_ += static_cast<size_t>(n);
    return true;
  }
  bool Text(std::string *s) {
    uint32_t n = 0;
    const uint8_t *p = nullptr;
    if (!Get(&n) || !Take(n, &p)) return false;
    s->assign(reinterpret_cast<const char *>(p), n);
    return true;
  }
  bool done() const { return pos_ == b_.size(); }

 private:
  const std::vector<uint8_t> &b_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<uint8_t> EncodePackedWeights(const std::vector<ir::PackedWeight> &copies) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
  Put(out, kVersion);
  Put(out, static_cast<uint32_t>(copies.size()));
  for (const ir::PackedWeight &pw : copies) {
    Put(out, pw.input);
    Put(out, static_cast<uint32_t>(pw.isa.size()));
    out.insert(out.end(), pw.isa.begin(), pw.isa.end());
    Put(out, static_cast<uint32_t>(pw.layout.size()));
    out.insert(out.end(), pw.layout.begin(), pw.layout.end());
    Put(out, static_cast<uint64_t>(pw.data.size));
    out.insert(out.end(), pw.data.data, pw.data.data + pw.data.size);
  }
  return out;
}

std::string DecodePackedWeights(const std::vector<uint8_t> &bytes, size_t anchors,
                                std::vector<ir::PackedWeight> *copies) {
  Reader r(bytes);
  char magic[4] = {};
  uint32_t version = 0, count = 0;
  if (!r.Get(&magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0 || !r.Get(&version) || version != kVersion)
    return "its .bin is not a packed-weights entry of version 1";
  if (!r.Get(&count)) return "its .bin ends inside the header";
  std::vector<ir::PackedWeight> out;
  for (uint32_t k = 0; k < count; ++k) {
    ir::PackedWeight pw;
    uint64_t size = 0;
    const uint8_t *data = nullptr;
    if (!r.Get(&pw.input) || !r.Text(&pw.isa) || !r.Text(&pw.layout) || !r.Get(&size) || !r.Take(size, &data))
      return "its .bin ends inside copy " + std::to_string(k);
    if (pw.input < 0 || static_cast<size_t>(pw.input) >= anchors || size == 0)
      return "copy " + std::to_string(k) + " names input " + std::to_string(pw.input) + " of a node with " +
             std::to_string(anchors) + " inputs, or has no bytes";
    pw.data = ir::Bytes::Copy(data, static_cast<size_t>(size));
    out.push_back(std::move(pw));
  }
  if (!r.done()) return "its .bin has bytes after the last copy";
  *copies = std::move(out);
  return "";
}

WeightCache::WeightCache(rt::KernelCacheConfig config, std::string soc_version, const opp::CompileOppSet &opp)
    : config_(std::move(config)), soc_version_(std::move(soc_version)), opp_(opp) {}

std::string WeightCache::LibraryHash(const std::string &op_type) {
  const int provider = opp_.Provider(op_type);
  if (provider < 0) return "";
  const opp::Deliverable &d = opp_.deliverables()[static_cast<size_t>(provider)];
  auto it = library_hashes_.find(d.path);
  if (it == library_hashes_.end())
    it = library_hashes_.emplace(d.path, opcache::Xxh3Hex128(d.image.data, d.image.size)).first;
  return it->second;
}

std::string WeightCache::Key(const ir::Graph &graph, const ir::Node &node, const std::string &environment) {
  const std::string library = LibraryHash(node.type);
  if (environment.empty() || library.empty()) return "";
  opcache::KeyHasher h;
  h.Add(std::string(kWeightCacheFormat));
  h.Add(node.type);
  h.Add(library);
  h.Add(environment);
  h.Add(node.attrs.size());
  for (const auto &[name, value] : node.attrs) {
    h.Add(name);
    if (!AddAttr(h, value)) return "";
  }
  h.Add(node.inputs.size());
  for (size_t a = 0; a < node.inputs.size(); ++a) {
    h.Add(node.inputs[a].connected() ? 1 : 0);
    if (a < node.input_descs.size()) AddDesc(h, node.input_descs[a]);
    const gert_impl::AnchorData d = gert_impl::ConstAnchorData(graph, node, a);
    h.Add(d.addr != nullptr ? 1 : 0);
    if (d.addr != nullptr) h.Add(d.addr, d.size);
  }
  h.Add(node.output_descs.size());
  for (const auto &d : node.output_descs) AddDesc(h, d);
  std::string stem;
  for (char c : node.type.substr(0, 64)) stem += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return (stem.empty() ? std::string("op") : stem) + "_" + h.Hex();
}

void WeightCache::Pack(const ir::Graph &graph, ir::Node &node, const std::string &environment,
                       const std::function<void()> &pack) {
  if (config_.mode == Mode::kDisable) return pack();
  const std::string what = "node '" + node.name + "' (" + node.type + ")";
  if (!config_.bypass_reason.empty()) {
    if (config_.info) config_.info(what + ": weight cache bypassed (" + config_.bypass_reason + ")");
    return pack();
  }
  opcache::Use use;
  use.key = Key(graph, node, environment);
  if (use.key.empty()) return pack();
  use.folder = opcache::WeightFolder(config_.dir, soc_version_);
  use.format = kWeightCacheFormat;
  use.label = "weight cache";
  use.what = what + "'s weights";
  use.built = "are packed";
  use.force = config_.mode == Mode::kForce;
  use.max_size_mb = config_.max_size_mb;
  use.remain_ratio = config_.remain_ratio;
  use.aging_folders = opcache::AgingFolders(config_.dir, soc_version_);
  use.info = config_.info;
  use.warning = config_.warning;
  std::vector<ir::PackedWeight> cached;
  const size_t anchors = node.inputs.size();
  use.check = [&](const std::vector<uint8_t> &bytes, const nlohmann::json &) {
    return DecodePackedWeights(bytes, anchors, &cached);
  };
  opcache::Entry entry;
  const opcache::Outcome outcome = opcache::Through(
      use,
      [&](opcache::Entry &e) {
        pack();
        e.bytes = EncodePackedWeights(node.packed_weights);
        e.fields = {{"op_type", node.type},
                    {"library_xxh3_128", LibraryHash(node.type)},
                    {"environment", environment},
                    {"copies", node.packed_weights.size()}};
        return true;
      },
      entry);
  if (outcome == opcache::Outcome::kHit) node.packed_weights = std::move(cached);
}

}  // namespace openatc::compiler::passes
