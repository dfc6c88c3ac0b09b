// atc --mode=6: ATC's "Display Model Info" block (model_info.cc), then our model summary of an OpenATC OM (identity, inputs/outputs, op types with
// capabilities and artifact sizes, deliverables, segment table, build options), or the header
// facts of a GE OM (docs/ge-om.md §2), which this runtime cannot execute.
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include "modes.h"
#include "openatc/common/dtype.h"
#include "openatc/opp/capabilities.h"

namespace openatc::atc {
namespace {

std::string DescText(const ir::TensorDesc &d) {
  return DataTypeName(d.dtype) + " " + ShapeToString(d.shape) + " " + FormatName(d.format);
}

void PrintGeOm(const GeOmHeader &h, const std::string &path) {
  std::ostringstream o;
  char ver[32];
  std::snprintf(ver, sizeof ver, "0x%08x", h.version);
  o << "GE OM (magic IMOD, made by CANN's ATC): " << path << " (" << h.file_size << " bytes)\n"
    << "  version: " << ver << " (" << (h.version >> 28) << "." << ((h.version >> 24) & 0xf)
    << ")\n"
    << "  headsize: " << h.headsize << "\n"
    << "  model name: " << h.name << "\n"
    << "  model_length: " << h.model_length
    << (h.model_length + 256 == h.file_size ? " (matches the file size)"
                                             : " (does NOT match the file size - 256)")
    << "\n"
    << "  length: " << h.length << "\n"
    << "  model_num: " << h.model_num << "\n"
    << "  is_unknow_model: " << int(h.is_unknow_model)
    << (h.is_unknow_model ? " (dynamic)" : " (static)") << "\n"
    << "  platform_version: " << h.platform_version << "\n"
    << "  platform_type: " << int(h.platform_type) << "\n"
    << "  om_ir_version: " << h.om_ir_version << "\n"
    << "  modeltype: " << int(h.modeltype) << "\n"
    << "  genmode: " << int(h.genmode) << (h.genmode ? " (online)" : " (offline)") << "\n"
    << "  is_encrypt: " << int(h.is_encrypt) << "\n"
    << "  is_checksum: " << int(h.is_checksum) << "\n"
    << "  need_check_os_cpu_info: " << int(h.need_check_os_cpu_info) << "\n"
    << "  ops: " << h.ops << "\n"
    << "This runtime cannot execute a GE OM: rebuild the model with OpenATC's atc.\n";
  std::cout << o.str();
}

void PrintOpenAtcOm(const om::Model &m, const om::ContainerInfo &info, const std::string &path) {
  std::ostringstream o;
  o << "OpenATC OM: " << path << " (" << info.file_size << " bytes)\n"
    << "  model name: " << m.graph.name << "\n"
    << "  producer: " << m.producer << "\n"
    << "  target: " << m.target.soc_version
    << (m.target.arch.empty() ? "" : " (" + m.target.arch + ")") << "\n"
    << "  format version: " << m.format_major << "." << m.format_minor << " (minimum reader "
    << m.min_reader_major << "." << m.min_reader_minor << ")\n"
    << "  build time: "
    << (m.build_time >= 0 ? std::to_string(m.build_time) + " (SOURCE_DATE_EPOCH)" : "none")
    << "\n";
  const auto ins = ModelInputs(m.graph), outs = ModelOutputs(m.graph);
  o << "inputs: " << ins.size() << "\n";
  for (size_t i = 0; i < ins.size(); ++i)
    o << "  [" << i << "] " << ins[i].name << ": " << DescText(ins[i].desc) << "\n";
  o << "outputs: " << outs.size() << "\n";
  for (size_t i = 0; i < outs.size(); ++i)
    o << "  [" << i << "] " << outs[i].name << ": " << DescText(outs[i].desc) << "\n";

  std::map<std::string, size_t> count;
  for (const auto &n : m.graph.nodes) ++count[n.type];
  std::map<std::string, const om::OpArtifact *> art;
  for (const auto &a : m.artifacts) art[a.op_type] = &a;
  o << "op types: " << count.size() << " (" << m.graph.nodes.size() << " nodes)\n";
  for (const auto &[type, n] : count) {
    o << "  " << type << " x" << n;
    auto it = art.find(type);
    if (it == art.end()) {
      o << ": built-in\n";
      continue;
    }
    const om::OpArtifact &a = *it->second;
    o << ": capabilities " << opp::CapabilitiesToString(a.capabilities);
    if (a.has_payload)
      o << ", artifact " << a.payload.size << " bytes (xxh3 " << Hex64(a.hash) << ")";
    else
      o << ", no artifact";
    if (a.deliverable >= 0 && static_cast<size_t>(a.deliverable) < m.deliverables.size())
      o << ", deliverable " << m.deliverables[a.deliverable].file_name;
    o << "\n";
  }
  o << "deliverables: " << m.deliverables.size() << "\n";
  for (size_t k = 0; k < m.deliverables.size(); ++k) {
    const auto &d = m.deliverables[k];
    o << "  [" << k << "] " << d.file_name << ": " << d.data.size << " bytes, xxh3 "
      << Hex64(d.hash) << ", sdk " << d.sdk_version << ", ops";
    for (const auto &t : d.op_types) o << " " << t;
    o << "\n";
  }
  o << "segments: " << info.segments.size() << " (envelope " << info.envelope_size
    << " bytes at " << info.envelope_offset << ", segment area " << info.segment_area_size
    << " bytes at " << info.segment_area_offset << ")\n";
  for (size_t k = 0; k < info.segments.size(); ++k) {
    const auto &s = info.segments[k];
    o << "  #" << k << " " << om::SegmentKindName(s.kind) << " " << om::SegmentCodecName(s.codec)
      << " at " << s.file_offset << ": " << s.stored_size << " bytes stored, " << s.raw_size
      << " raw, xxh3 " << Hex64(s.hash) << "\n";
  }
  o << "build options: " << m.build_options.size() << "\n";
  for (const auto &[k, v] : m.build_options) o << "  " << k << ": " << v << "\n";
  std::cout << o.str();
}

}  // namespace

void DisplayModel(const Options &options) {
  uint64_t size = 0;
  const auto head = ReadHead(options.om, 256, &size);
  if (om::LooksLikeGeOm(head.data(), head.size())) {
    PrintGeOm(ParseGeOmHeader(head, size, options.om), options.om);
    return;
  }
  const om::Model model = om::ReadFile(options.om);  // "not an OM file" for anything else
  const om::ContainerInfo info = om::InspectFile(options.om);
  std::cout << ModelInfoBlock(model, info, RecordedCommandLine(model));
  PrintOpenAtcOm(model, info, options.om);
}

}  // namespace openatc::atc
