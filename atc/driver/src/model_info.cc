// ATC's "Display Model Info" block (docs/atc-deploy-flags.md §7): printed after a build with
// --display_model_info=1 and first by --mode=6, with this OM's real sizes; a number GE's OM has
// and ours does not is -1.
#include <sstream>

#include "modes.h"
#include "openatc/common/version.h"

namespace openatc::atc {
namespace {

int64_t SegmentBytes(const om::ContainerInfo &info, std::initializer_list<om::SegmentKind> kinds, bool raw) {
  int64_t total = 0;
  for (const auto &s : info.segments)
    for (om::SegmentKind k : kinds)
      if (s.kind == k) total += static_cast<int64_t>(raw ? s.raw_size : s.stored_size);
  return total;
}

std::string BuildOption(const om::Model &m, const std::string &key) {
  auto it = m.build_options.find(key);
  return it == m.build_options.end() ? std::string() : it->second;
}

}  // namespace

std::string RecordedCommandLine(const om::Model &m) {
  std::string line = "atc";
  for (const auto &[k, v] : m.build_options) line += " --" + k + "=" + v;
  return line;
}

std::string ModelInfoBlock(const om::Model &m, const om::ContainerInfo &info, const std::string &command_line) {
  using K = om::SegmentKind;
  std::ostringstream o;
  o << "============ Display Model Info start ============\n"
    << "Original Atc command line: " << command_line << "\n"
    << "system   info: atc_version[" << OPENATC_PRODUCER << "], soc_version[" << m.target.soc_version
    << "], framework_type[" << BuildOption(m, "framework") << "].\n"
    // One in-order executor: one stream, no events between nodes.
    << "resource info: memory_size[" << m.graph.arena_bytes << " B], weight_size["
    << SegmentBytes(info, {K::kWeight}, true) << " B], stream_num[1], event_num[0].\n"
    << "om       info: modeldef_size[" << info.envelope_size << " B], weight_data_size["
    << SegmentBytes(info, {K::kWeight}, false) << " B], tbe_kernels_size["
    << SegmentBytes(info, {K::kArtifact, K::kKernel}, false) << " B], cust_aicpu_kernel_store_size[-1 B], "
    << "task_info_size[-1 B], so_store_size[" << SegmentBytes(info, {K::kDeliverable}, false) << " B].\n"
    << "============ Display Model Info end   ============\n";
  return o.str();
}

}  // namespace openatc::atc
