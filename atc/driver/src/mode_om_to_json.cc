// atc --mode=1: an OpenATC OM (or a GE IR graph file) -> the graph as ge.proto.ModelDef JSON that
// atc compiles again, plus, for an OM, its facts in the sibling file "<x>.om_info.json"
// (tensors, artifacts, deliverables, the plan, target, producer, build options, container segments).
#include <cstring>

#include <nlohmann/json.hpp>

#include "modes.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/frontend/ge_ir_reader.h"
#include "openatc/frontend/ge_ir_writer.h"
#include "openatc/opp/capabilities.h"

namespace openatc::atc {
namespace {

using nlohmann::ordered_json;

ordered_json DescJson(const ir::TensorDesc &d) {
  return {{"dtype", DataTypeName(d.dtype)},
          {"shape", d.shape},
          {"format", FormatName(d.format)}};
}

ordered_json IoJson(const std::vector<ModelIo> &ios) {
  ordered_json a = ordered_json::array();
  for (const auto &io : ios) {
    ordered_json j = {{"name", io.name}};
    j.update(DescJson(io.desc));
    a.push_back(j);
  }
  return a;
}

// The compiler's plan (OM NodePlan): the arena, and per planned node its output offsets,
// workspaces and declared launches.
ordered_json PlanJson(const ir::Graph &g) {
  ordered_json nodes = ordered_json::array();
  for (const auto &n : g.nodes) {
    if (n.plan.empty()) continue;
    ordered_json launches = ordered_json::array();
    for (const auto &l : n.plan.launches) {
      ordered_json slots = ordered_json::array();
      for (const auto &s : l.slots) slots.push_back({{"addr_type", s.addr_type}, {"index", s.index}, {"value", s.value}});
      launches.push_back({{"kernel_name", l.kernel_name},
                          {"block_dim", l.block_dim},
                          {"binary_bytes", l.binary.size},
                          {"xxh3", Hex64(HashBytes(l.binary))},
                          {"slots", slots}});
    }
    nodes.push_back({{"node", n.name},
                     {"output_offsets", n.plan.output_offsets},
                     {"workspace_bytes", n.plan.workspace_bytes},
                     {"launches", launches}});
  }
  return {{"arena_bytes", g.arena_bytes}, {"nodes", nodes}};
}

ordered_json OmFacts(const om::Model &m, const om::ContainerInfo &info) {
  ordered_json j;
  j["format_version"] = std::to_string(m.format_major) + "." + std::to_string(m.format_minor);
  j["min_reader_version"] =
      std::to_string(m.min_reader_major) + "." + std::to_string(m.min_reader_minor);
  j["producer"] = m.producer;
  j["target"] = {{"soc_version", m.target.soc_version}, {"arch", m.target.arch}};
  j["model_name"] = m.graph.name;
  if (m.build_time >= 0) j["build_time"] = m.build_time;
  j["build_options"] = m.build_options;  // std::map: sorted keys
  j["inputs"] = IoJson(ModelInputs(m.graph));
  j["outputs"] = IoJson(ModelOutputs(m.graph));

  ordered_json tensors = ordered_json::array();
  for (const auto &n : m.graph.nodes)
    for (const auto &[name, a] : n.attrs) {
      if (a.kind != ir::AttrKind::kTensor || !a.t) continue;
      ordered_json t = {{"node", n.name}, {"attr", name}};
      t.update(DescJson(a.t->desc));
      t["bytes"] = a.t->data.size;
      t["xxh3"] = Hex64(HashBytes(a.t->data));
      tensors.push_back(t);
    }
  j["tensors"] = tensors;

  ordered_json arts = ordered_json::array();
  for (const auto &a : m.artifacts) {
    ordered_json x = {{"op_type", a.op_type},
                      {"capabilities", opp::CapabilitiesToString(a.capabilities)},
                      {"capability_mask", a.capabilities},
                      {"deliverable", a.deliverable >= 0 &&
                                              static_cast<size_t>(a.deliverable) <
                                                  m.deliverables.size()
                                          ? ordered_json(m.deliverables[a.deliverable].file_name)
                                          : ordered_json(nullptr)},
                      {"portable", a.has_payload},
                      {"producer", a.producer},
                      {"bytes", a.payload.size},
                      {"xxh3", Hex64(a.hash)}};
    arts.push_back(x);
  }
  j["artifacts"] = arts;

  ordered_json dels = ordered_json::array();
  for (const auto &d : m.deliverables)
    dels.push_back({{"file_name", d.file_name},
                    {"sdk_version", d.sdk_version},
                    {"bytes", d.data.size},
                    {"xxh3", Hex64(d.hash)},
                    {"op_types", d.op_types}});
  j["deliverables"] = dels;
  j["plan"] = PlanJson(m.graph);

  ordered_json segs = ordered_json::array();
  for (size_t k = 0; k < info.segments.size(); ++k) {
    const auto &s = info.segments[k];
    segs.push_back({{"index", k},
                    {"kind", om::SegmentKindName(s.kind)},
                    {"codec", om::SegmentCodecName(s.codec)},
                    {"file_offset", s.file_offset},
                    {"stored_bytes", s.stored_size},
                    {"raw_bytes", s.raw_size},
                    {"xxh3", Hex64(s.hash)}});
  }
  j["container"] = {{"file_bytes", info.file_size},
                    {"preamble_bytes", info.preamble_size},
                    {"envelope", {{"offset", info.envelope_offset},
                                  {"bytes", info.envelope_size},
                                  {"xxh3", Hex64(info.envelope_hash)}}},
                    {"segment_area", {{"offset", info.segment_area_offset},
                                      {"bytes", info.segment_area_size}}},
                    {"segments", segs}};
  return j;
}

bool IsOpenAtcOmOrForeignOm(const std::string &path) {
  uint64_t size = 0;
  const auto head = ReadHead(path, 4, &size);
  const bool om_ext = path.size() >= 3 && path.compare(path.size() - 3, 3, ".om") == 0;
  return om_ext || (head.size() == 4 && (std::memcmp(head.data(), "OAOM", 4) == 0 ||
                                         om::LooksLikeGeOm(head.data(), head.size())));
}

}  // namespace

void ConvertToJson(const Options &options) {
  if (IsOpenAtcOmOrForeignOm(options.om)) {
    // ReadFile refuses GE OMs and other files with their own messages (OA2001/OA2002).
    const om::Model model = om::ReadFile(options.om);
    const om::ContainerInfo info = om::InspectFile(options.om);
    WriteTextAtomic(options.json, frontend::WriteGeIrJson(model.graph));
    const std::string info_path = OmInfoPath(options.json);
    WriteTextAtomic(info_path, OmFacts(model, info).dump(2) + "\n");
    LogInfo("wrote '" + options.json + "' and '" + info_path + "'");
    return;
  }
  if (options.framework == 5)
    throw Error(ErrorCategory::kUsage, "E10001",
                "--mode=1 with --framework=5 (ONNX) is not available in this OpenATC version",
                "Pass an OM or a GE IR graph file (.json, .air, .txt) to --om")
        .WithFile(options.om);
  WriteTextAtomic(options.json, frontend::WriteGeIrJson(frontend::ReadGeIrFile(options.om)));
  LogInfo("wrote '" + options.json + "'");
}

void ConvertTextDumpToJson(const Options &options) {
  WriteTextAtomic(options.json,
                  frontend::WriteGeIrJson(frontend::ReadGeIrFile(options.om, frontend::GeIrEncoding::kText)));
  LogInfo("wrote '" + options.json + "'");
}

}  // namespace openatc::atc
