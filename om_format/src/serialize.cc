// OM writer: om::Model -> complete image (preamble, FlatBuffers envelope, aligned segments).
// Deterministic: maps are iterated in key order, no timestamp unless SOURCE_DATE_EPOCH gives one,
// FlatBuffers built the same way every time, zstd run single-threaded at a fixed level.
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include <zstd.h>

#include "deliverable_memo.h"
#include "external_weights.h"
#include "internal.h"
#include "openatc/schemas/om_generated.h"

namespace openatc::om {
namespace {

using detail::kErrModel;
namespace fb = ::openatc::om::fb;

// One bulk byte range waiting to be placed in the segment area.
struct PendingSegment {
  const uint8_t *raw = nullptr;
  uint64_t raw_size = 0;
  fb::SegmentKind kind = fb::SegmentKind::Weight;
  bool try_compress = false;
  std::shared_ptr<const std::vector<uint8_t>> compressed;  // used when codec is Zstd
  ir::Bytes deliverable;            // a Deliverable's bytes, for deliverable_memo.h
  fb::Codec codec = fb::Codec::None;
  uint64_t offset = 0;              // relative to the segment area
  std::string external_file;        // 1.3: `weight/<file>` when the bytes go to a weight file
  uint64_t external_offset = 0;
  const uint8_t *stored() const { return codec == fb::Codec::Zstd ? compressed->data() : raw; }
  uint64_t stored_size() const {
    return codec == fb::Codec::Zstd ? compressed->size() : raw_size;
  }
};

class EnvelopeWriter {
 public:
  EnvelopeWriter(const WriteOptions &options, detail::WeightFileBuilder *weight_files)
      : options_(options), weight_files_(weight_files) {}

  std::vector<uint8_t> Build(const Model &model);

 private:
  // `external`: a Const's weight, which goes to a weight file when weight_files_ is set.
  int32_t AddSegment(const ir::Bytes &bytes, fb::SegmentKind kind, bool compress, bool external = false) {
    if (bytes.empty()) return -1;
    // Gear graphs (1.2) reuse an equal weight already written: weights are stored once.
    std::pair<uint64_t, uint64_t> key{0, bytes.size};
    if (kind == fb::SegmentKind::Weight) {
      key.first = detail::Hash64(bytes.data, bytes.size);
      if (sharing_weights_) {
        auto [lo, hi] = weights_.equal_range(key);
        for (auto it = lo; it != hi; ++it)
          if (std::memcmp(segments_[static_cast<size_t>(it->second)].raw, bytes.data, bytes.size) == 0)
            return it->second;
      }
    }
    PendingSegment s;
    s.raw = bytes.data;
    s.raw_size = bytes.size;
    s.kind = kind;
    s.try_compress = compress && options_.compress_level > 0;
    if (kind == fb::SegmentKind::Deliverable && bytes.owner) s.deliverable = bytes;
    if (external && weight_files_) {
      std::tie(s.external_file, s.external_offset) = weight_files_->Add(bytes.data, bytes.size);
      s.try_compress = false;  // the file holds the raw bytes (ATC's layout)
    }
    segments_.push_back(std::move(s));
    const auto index = static_cast<int32_t>(segments_.size() - 1);
    if (kind == fb::SegmentKind::Weight) weights_.emplace(key, index);
    return index;
  }

  flatbuffers::Offset<fb::TensorDesc> Desc(const ir::TensorDesc &d) {
    auto name = b_.CreateString(d.name);
    auto shape = b_.CreateVector(d.shape);
    auto origin = b_.CreateVector(d.origin_shape);
    fb::TensorDescBuilder tb(b_);
    tb.add_name(name);
    tb.add_dtype(static_cast<int32_t>(d.dtype));
    tb.add_format(static_cast<int32_t>(d.format));
    tb.add_origin_format(static_cast<int32_t>(d.origin_format));
    tb.add_shape(shape);
    tb.add_origin_shape(origin);
    tb.add_valid(d.valid);
    tb.add_value_kind(static_cast<fb::ValueKind>(d.value_kind));
    return tb.Finish();
  }

  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::TensorDesc>>> Descs(
      const std::vector<ir::TensorDesc> &v) {
    std::vector<flatbuffers::Offset<fb::TensorDesc>> out;
    for (const auto &d : v) out.push_back(Desc(d));
    return b_.CreateVector(out);
  }

  flatbuffers::Offset<fb::Attr> Attr(const std::string &name, const ir::AttrValue &a, bool external);
  flatbuffers::Offset<fb::Node> NodeOf(const ir::Node &n);
  flatbuffers::Offset<fb::NodePlan> PlanOf(const ir::NodePlan &plan);
  flatbuffers::Offset<fb::Graph> GraphOf(const ir::Graph &g);
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::GearVariant>>> GearsOf(const Model &model);
  void CompressAll();

  const WriteOptions &options_;
  detail::WeightFileBuilder *weight_files_;  // null: every weight stays in the OM
  flatbuffers::FlatBufferBuilder b_{4096};
  std::vector<PendingSegment> segments_;
  std::multimap<std::pair<uint64_t, uint64_t>, int32_t> weights_;  // (hash, size) -> Weight segment
  bool sharing_weights_ = false;                                   // while writing gear graphs
};

flatbuffers::Offset<fb::Attr> EnvelopeWriter::Attr(const std::string &name, const ir::AttrValue &a,
                                                   bool external) {
  using K = ir::AttrKind;
  auto name_off = b_.CreateString(name);
  flatbuffers::Offset<flatbuffers::String> s;
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> bytes, list_b;
  flatbuffers::Offset<fb::Tensor> t;
  flatbuffers::Offset<flatbuffers::Vector<int64_t>> list_i;
  flatbuffers::Offset<flatbuffers::Vector<float>> list_f;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>> list_s;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::IntList>>> list_list_i;
  flatbuffers::Offset<fb::Graph> g;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Graph>>> list_g;
  switch (a.kind) {
    case K::kString: s = b_.CreateString(a.s); break;
    case K::kBytes:
      bytes = b_.CreateVector(reinterpret_cast<const uint8_t *>(a.s.data()), a.s.size());
      break;
    case K::kTensor: {
      auto desc = Desc(a.t->desc);
      int32_t seg = AddSegment(a.t->data, fb::SegmentKind::Weight, options_.compress_weights, external);
      fb::TensorBuilder tb(b_);
      tb.add_desc(desc);
      tb.add_segment(seg);
      t = tb.Finish();
      break;
    }
    case K::kListInt:
    case K::kListDataType: list_i = b_.CreateVector(a.list_i); break;
    case K::kListFloat: list_f = b_.CreateVector(a.list_f); break;
    case K::kListBool: list_b = b_.CreateVector(a.list_b); break;
    case K::kListString: list_s = b_.CreateVectorOfStrings(a.list_s); break;
    case K::kListListInt: {
      std::vector<flatbuffers::Offset<fb::IntList>> lists;
      for (const auto &l : a.list_list_i) lists.push_back(fb::CreateIntList(b_, b_.CreateVector(l)));
      list_list_i = b_.CreateVector(lists);
      break;
    }
    case K::kGraph:
      if (!a.g) throw Error(ErrorCategory::kInternal, kErrModel, "attr '" + name + "' of kind graph has no graph");
      g = GraphOf(*a.g);
      break;
    case K::kListGraph: {
      std::vector<flatbuffers::Offset<fb::Graph>> graphs;
      for (const auto &sub : a.list_g) {
        if (!sub) throw Error(ErrorCategory::kInternal, kErrModel, "attr '" + name + "' holds a null graph");
        graphs.push_back(GraphOf(*sub));
      }
      list_g = b_.CreateVector(graphs);
      break;
    }
    default: break;
  }
  fb::AttrBuilder ab(b_);
  ab.add_name(name_off);
  ab.add_kind(static_cast<fb::AttrKind>(a.kind));
  switch (a.kind) {
    case K::kInt: ab.add_i(a.i); break;
    case K::kFloat:
      // Forced so that -0.0 (equal to the default 0.0) keeps its sign bit.
      b_.ForceDefaults(true);
      ab.add_f(a.f);
      b_.ForceDefaults(false);
      break;
    case K::kBool: ab.add_b(a.b); break;
    case K::kString: ab.add_s(s); break;
    case K::kBytes: ab.add_bytes(bytes); break;
    case K::kDataType: ab.add_dt(static_cast<int32_t>(a.dt)); break;
    case K::kTensor: ab.add_t(t); break;
    case K::kListInt:
    case K::kListDataType: ab.add_list_i(list_i); break;
    case K::kListFloat: ab.add_list_f(list_f); break;
    case K::kListBool: ab.add_list_b(list_b); break;
    case K::kListString: ab.add_list_s(list_s); break;
    case K::kListListInt: ab.add_list_list_i(list_list_i); break;
    case K::kGraph: ab.add_g(g); break;
    case K::kListGraph: ab.add_list_g(list_g); break;
    default: break;
  }
  return ab.Finish();
}

flatbuffers::Offset<fb::Node> EnvelopeWriter::NodeOf(const ir::Node &n) {
  auto name = b_.CreateString(n.name);
  auto type = b_.CreateString(n.type);
  std::vector<fb::Endpoint> eps;
  for (const auto &e : n.inputs) eps.emplace_back(e.node, e.index);
  auto inputs = b_.CreateVectorOfStructs(eps);
  auto control = b_.CreateVector(n.control_inputs);
  auto in_descs = Descs(n.input_descs);
  auto out_descs = Descs(n.output_descs);
  std::vector<flatbuffers::Offset<fb::Attr>> attrs;
  const bool is_const = n.type == ir::kConst || n.type == ir::kConstant;  // ATC: Const/Constant weights
  for (const auto &[k, v] : n.attrs) attrs.push_back(Attr(k, v, is_const));  // std::map: sorted
  auto attrs_off = b_.CreateVector(attrs);
  auto plan = PlanOf(n.plan);
  std::vector<flatbuffers::Offset<fb::PackedWeight>> packed;
  for (const auto &pw : n.packed_weights) {
    auto isa = b_.CreateString(pw.isa);
    auto layout = b_.CreateString(pw.layout);
    const int32_t seg = AddSegment(pw.data, fb::SegmentKind::Weight, options_.compress_weights);
    packed.push_back(fb::CreatePackedWeight(b_, pw.input, isa, layout, seg));
  }
  auto packed_off = packed.empty() ? 0 : b_.CreateVector(packed);
  return fb::CreateNode(b_, name, type, inputs, control, in_descs, out_descs, attrs_off, plan, packed_off);
}

flatbuffers::Offset<fb::NodePlan> EnvelopeWriter::PlanOf(const ir::NodePlan &plan) {
  if (plan.empty()) return 0;
  std::vector<flatbuffers::Offset<fb::DeclaredLaunch>> launches;
  for (const auto &l : plan.launches) {
    auto kernel_name = b_.CreateString(l.kernel_name);
    std::vector<fb::LaunchSlot> slots;
    for (const auto &s : l.slots) slots.emplace_back(s.addr_type, s.index, s.value);
    auto slots_off = b_.CreateVectorOfStructs(slots);
    const int32_t seg = AddSegment(l.binary, fb::SegmentKind::Kernel, true);
    launches.push_back(fb::CreateDeclaredLaunch(b_, kernel_name, seg, l.block_dim, slots_off));
  }
  auto offsets = plan.output_offsets.empty() ? 0 : b_.CreateVector(plan.output_offsets);
  auto launches_off = launches.empty() ? 0 : b_.CreateVector(launches);
  auto workspaces = plan.workspace_bytes.empty() ? 0 : b_.CreateVector(plan.workspace_bytes);
  return fb::CreateNodePlan(b_, offsets, launches_off, workspaces);
}

void EnvelopeWriter::CompressAll() {
  for (size_t k = 0; k < segments_.size(); ++k) {
    auto &s = segments_[k];
    if (!s.try_compress) continue;
    if (!s.deliverable.empty()) {  // the same library as an OM written before in this process
      if (auto seen = detail::MemoFrame(s.raw, s.raw_size, options_.compress_level)) {
        s.compressed = std::move(*seen);
        s.codec = fb::Codec::Zstd;
        continue;
      }
    }
    // Not zero-filled: the bound is larger than the raw size, and only r bytes are kept.
    const size_t bound = ZSTD_compressBound(s.raw_size);
    std::unique_ptr<uint8_t[]> out(new uint8_t[bound]);
    size_t r = ZSTD_compress(out.get(), bound, s.raw, s.raw_size, options_.compress_level);
    if (ZSTD_isError(r))
      throw Error(ErrorCategory::kInternal, kErrModel,
                  "segment #" + std::to_string(k) + ": zstd compression failed: " +
                      ZSTD_getErrorName(r));
    // Keep it only when it is smaller and within the ratio a reader accepts.
    if (r < s.raw_size && (s.raw_size + detail::kMaxExpansion - 1) / detail::kMaxExpansion <= r &&
        s.raw_size <= detail::kMaxRawSize) {
      s.compressed = std::make_shared<const std::vector<uint8_t>>(out.get(), out.get() + r);
      s.codec = fb::Codec::Zstd;
      if (!s.deliverable.empty()) detail::MemoRememberWritten(s.deliverable, s.compressed, options_.compress_level);
    }
  }
}

flatbuffers::Offset<fb::Graph> EnvelopeWriter::GraphOf(const ir::Graph &g) {
  std::vector<flatbuffers::Offset<fb::Node>> nodes;
  for (const auto &n : g.nodes) nodes.push_back(NodeOf(n));
  auto nodes_off = b_.CreateVector(nodes);
  auto gname = b_.CreateString(g.name);
  auto ginputs = b_.CreateVector(g.inputs);
  std::vector<fb::Endpoint> outs;
  for (const auto &e : g.outputs) outs.emplace_back(e.node, e.index);
  auto goutputs = b_.CreateVectorOfStructs(outs);
  return fb::CreateGraph(b_, gname, nodes_off, ginputs, goutputs);
}

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::GearVariant>>> EnvelopeWriter::GearsOf(
    const Model &model) {
  if (model.gears.empty()) return 0;
  sharing_weights_ = true;
  std::vector<flatbuffers::Offset<fb::GearVariant>> gears;
  for (const auto &gear : model.gears) {
    auto values = b_.CreateVector(gear.values);
    auto graph = GraphOf(gear.graph);
    gears.push_back(fb::CreateGearVariant(b_, values, graph, gear.graph.arena_bytes));
  }
  sharing_weights_ = false;
  return b_.CreateVector(gears);
}

std::vector<uint8_t> EnvelopeWriter::Build(const Model &model) {
  const auto &g = model.graph;
  auto graph = GraphOf(g);
  auto gears = GearsOf(model);
  auto gear_order = model.gears.empty() ? 0 : b_.CreateVectorOfStrings(model.gear_input_order);

  std::vector<flatbuffers::Offset<fb::OpArtifact>> arts;
  for (const auto &a : model.artifacts) {
    auto op_type = b_.CreateString(a.op_type);
    auto producer = b_.CreateString(a.producer);
    int32_t seg = AddSegment(a.payload, fb::SegmentKind::Artifact, true);
    arts.push_back(fb::CreateOpArtifact(b_, op_type, a.capabilities, a.deliverable, a.has_payload,
                                        producer, a.hash, seg));
  }
  auto arts_off = b_.CreateVector(arts);

  std::vector<flatbuffers::Offset<fb::Deliverable>> dels;
  for (const auto &d : model.deliverables) {
    auto file_name = b_.CreateString(d.file_name);
    auto sdk = b_.CreateString(d.sdk_version);
    auto types = b_.CreateVectorOfStrings(d.op_types);
    int32_t seg = AddSegment(d.data, fb::SegmentKind::Deliverable, true);
    dels.push_back(fb::CreateDeliverable(b_, file_name, sdk, d.hash, types, seg));
  }
  auto dels_off = b_.CreateVector(dels);

  std::vector<flatbuffers::Offset<fb::KeyValue>> opts;
  for (const auto &[k, v] : model.build_options)  // std::map: sorted
    opts.push_back(fb::CreateKeyValue(b_, b_.CreateString(k), b_.CreateString(v)));
  auto opts_off = b_.CreateVector(opts);

  CompressAll();
  uint64_t cursor = 0, area_size = 0;
  bool any_external = false;
  std::vector<flatbuffers::Offset<fb::Segment>> segs;
  for (auto &s : segments_) {
    const uint64_t hash = detail::Hash64(s.stored(), s.stored_size());
    if (!s.external_file.empty()) {  // offset 0, no bytes in the area
      any_external = true;
      segs.push_back(fb::CreateSegment(b_, 0, s.stored_size(), s.raw_size, s.codec, s.kind, hash,
                                       b_.CreateString(s.external_file), s.external_offset));
      continue;
    }
    s.offset = cursor;
    area_size = s.offset + s.stored_size();
    cursor = detail::AlignUp(area_size);
    segs.push_back(fb::CreateSegment(b_, s.offset, s.stored_size(), s.raw_size, s.codec, s.kind, hash));
  }
  auto segs_off = b_.CreateVector(segs);

  auto producer = b_.CreateString(model.producer);
  auto target = fb::CreateTarget(b_, b_.CreateString(model.target.soc_version),
                                 b_.CreateString(model.target.arch));
  // A 1.2 reader would take an external segment's offset 0 as bytes in the segment area.
  const auto [min_major, min_minor] =
      any_external ? std::pair<uint16_t, uint16_t>{1, 3} : detail::MinimumReader(model);
  auto root = fb::CreateModel(b_, producer, target, opts_off, graph, arts_off, dels_off, segs_off, min_major,
                              min_minor, detail::ResolveBuildTime(model.build_time), g.arena_bytes,
                              static_cast<fb::GearKind>(model.gear_kind), gears, gear_order);
  b_.Finish(root, fb::ModelIdentifier());

  detail::Preamble p;
  p.envelope_offset = detail::kPreambleSize;
  p.envelope_size = b_.GetSize();
  p.segment_area_offset = detail::AlignUp(p.envelope_offset + p.envelope_size);
  p.segment_area_size = area_size;
  p.envelope_hash = detail::Hash64(b_.GetBufferPointer(), b_.GetSize());

  std::vector<uint8_t> image(p.segment_area_offset + p.segment_area_size, 0);
  detail::EncodePreamble(p, image.data());
  std::memcpy(image.data() + p.envelope_offset, b_.GetBufferPointer(), b_.GetSize());
  for (const auto &s : segments_)
    if (s.stored_size() != 0 && s.external_file.empty())
      std::memcpy(image.data() + p.segment_area_offset + s.offset, s.stored(), s.stored_size());
  return image;
}

}  // namespace

namespace detail {

namespace {
// Whether a graph (or a subgraph in it) uses what 1.3 added: Graph attrs, non-tensor value kinds.
bool UsesSubgraphsOrValueKinds(const ir::Graph &g) {
  for (const auto &n : g.nodes) {
    for (const auto *descs : {&n.input_descs, &n.output_descs})
      for (const auto &d : *descs)
        if (d.value_kind != ir::ValueKind::kTensor) return true;
    for (const auto &[name, a] : n.attrs)
      if (a.kind == ir::AttrKind::kGraph || a.kind == ir::AttrKind::kListGraph) return true;
  }
  return false;
}
}  // namespace

std::pair<uint16_t, uint16_t> MinimumReader(const Model &model) {
  // Subgraphs and sequence/optional values (1.3): an older reader would refuse the attr kind or
  // run a sequence as a tensor.
  if (UsesSubgraphsOrValueKinds(model.graph)) return {1, 3};
  for (const auto &gear : model.gears)
    if (UsesSubgraphsOrValueKinds(gear.graph)) return {1, 3};
  // A 1.0 reader would drop declared launches (and refuse Kernel segments): the node would then
  // run without its kernels. Dropping only a memory plan is safe (it allocates per run).
  // Gears (1.2): a 1.1 reader would run the largest gear whatever gear the caller asked for.
  if (!model.gears.empty()) return {1, 2};
  for (const auto &n : model.graph.nodes)
    if (!n.plan.launches.empty()) return {1, 1};
  return {1, 0};
}

int64_t ResolveBuildTime(int64_t model_time) {
  if (model_time >= 0) return model_time;
  const char *env = std::getenv("SOURCE_DATE_EPOCH");
  if (env == nullptr) return -1;
  // reproducible-builds.org: a decimal count of seconds; anything else is an error, not ignored.
  const char *end = env + std::strlen(env);
  int64_t v = -1;
  auto [ptr, ec] = std::from_chars(env, end, v);
  if (env == end || ec != std::errc() || ptr != end || v < 0)
    throw Error(ErrorCategory::kUsage, kErrSourceDateEpoch,
                std::string("SOURCE_DATE_EPOCH is '") + env +
                    "', not a decimal number of seconds since 1970-01-01 UTC",
                "Set it to an integer such as $(git log -1 --format=%ct), or unset it");
  return v;
}

}  // namespace detail

std::vector<uint8_t> Serialize(const Model &model, const WriteOptions &options) {
  return Serialize(model, options, nullptr);
}

std::vector<uint8_t> Serialize(const Model &model, const WriteOptions &options,
                               std::vector<WeightFile> *weight_files) {
  if (options.external_weights != ExternalWeights::kInOm && weight_files == nullptr)
    throw Error(ErrorCategory::kInternal, detail::kErrModel,
                "external weights were asked for, but the caller takes no weight files",
                "Call Serialize with a weight file list or WriteFile");
  if (options.compress_level < 0 || options.compress_level > ZSTD_maxCLevel())
    throw Error(ErrorCategory::kInternal, detail::kErrModel,
                "OM compress level " + std::to_string(options.compress_level) +
                    " is outside 0.." + std::to_string(ZSTD_maxCLevel()),
                "Pass 0 (no compression) or a zstd level");
  detail::CheckModel(model, ErrorCategory::kInternal, /*reading=*/false);
  // The file records soc_version and arch only: refuse a target that would read back as another.
  const std::optional<openatc::Target> recorded = openatc::TargetFromRecord(model.target.soc_version, model.target.arch);
  if (!recorded || *recorded != model.target) {
    throw Error(ErrorCategory::kInternal, detail::kErrTarget,
                "the model's target '" + openatc::DescribeTarget(model.target) +
                    "' cannot be recorded in an OM of format " + std::to_string(kFormatMajor) + "." +
                    std::to_string(kFormatMinor) + " (soc_version and arch would read back as another target)",
                "Build it for host, for an Ascend chip through CANN, or for a chip of the emulation facts table");
  }
  const uint8_t mode = static_cast<uint8_t>(options.external_weights);
  if (mode > static_cast<uint8_t>(ExternalWeights::kCombined))
    throw Error(ErrorCategory::kInternal, detail::kErrModel,
                "external weight mode " + std::to_string(mode) + " is not 0, 1 or 2");
  std::optional<detail::WeightFileBuilder> files;
  if (options.external_weights != ExternalWeights::kInOm) {
    std::string combined = options.combined_weight_file;
    if (combined.empty()) combined = model.graph.name + "_weight_combined";
    if (options.external_weights == ExternalWeights::kCombined &&
        (combined.find('/') != std::string::npos || !detail::ExternalPathProblem(combined).empty()))
      throw Error(ErrorCategory::kInternal, detail::kErrModel,
                  "the combined weight file name '" + combined + "' is not a bare file name");
    files.emplace(options.external_weights, combined);
  }
  EnvelopeWriter writer(options, files ? &*files : nullptr);
  std::vector<uint8_t> image = writer.Build(model);
  if (weight_files) *weight_files = files ? files->Take() : std::vector<WeightFile>{};
  return image;
}

}  // namespace openatc::om
