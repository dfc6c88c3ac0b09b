// gert::AnnotatedKernelArgs: an ordered list of tagged 8-byte argument slots with sticky errors.
#include <climits>
#include <cstring>

#include "exe_graph/runtime/annotated_args_context.h"
#include "graph/utils/args_format_desc_utils.h"

namespace gert {
namespace {
struct Slot {
  ge::AddrType type;
  uint32_t index;
  uint64_t value;  // logical address or custom value
};
struct Impl {
  std::vector<Slot> slots;
  bool failed = false;
};
Impl *I(void *p) { return static_cast<Impl *>(p); }

ge::graphStatus Push(void *impl, ge::AddrType type, uint32_t index, uint64_t value) {
  Impl *im = I(impl);
  if (im == nullptr || im->failed) return ge::GRAPH_FAILED;
  if (type != ge::AddrType::CUSTOM_VALUE && index > static_cast<uint32_t>(INT32_MAX)) {
    im->failed = true;
    return ge::GRAPH_PARAM_INVALID;
  }
  im->slots.push_back({type, index, value});
  return ge::GRAPH_SUCCESS;
}
uint64_t AddrBits(const void *p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }
}  // namespace

AnnotatedKernelArgs::AnnotatedKernelArgs() : impl_(new Impl()) {}
AnnotatedKernelArgs::AnnotatedKernelArgs(const AnnotatedKernelArgs &other)
    : impl_(new Impl(*I(other.impl_))) {}
AnnotatedKernelArgs &AnnotatedKernelArgs::operator=(const AnnotatedKernelArgs &other) {
  if (this != &other) {
    Impl *copy = new Impl(*I(other.impl_));
    delete I(impl_);
    impl_ = copy;
  }
  return *this;
}
AnnotatedKernelArgs::AnnotatedKernelArgs(AnnotatedKernelArgs &&other) noexcept : impl_(other.impl_) {
  other.impl_ = nullptr;
}
AnnotatedKernelArgs &AnnotatedKernelArgs::operator=(AnnotatedKernelArgs &&other) noexcept {
  if (this != &other) {
    delete I(impl_);
    impl_ = other.impl_;
    other.impl_ = nullptr;
  }
  return *this;
}
AnnotatedKernelArgs::~AnnotatedKernelArgs() { delete I(impl_); }

ge::graphStatus AnnotatedKernelArgs::AppendArg(const InputAddr &input) {
  return Push(impl_, ge::AddrType::INPUT_INSTANCE, input.index, AddrBits(input.addr));
}
ge::graphStatus AnnotatedKernelArgs::AppendArg(const OutputAddr &output) {
  return Push(impl_, ge::AddrType::OUTPUT_INSTANCE, output.index, AddrBits(output.addr));
}
ge::graphStatus AnnotatedKernelArgs::AppendArg(const WorkspaceAddr &workspace) {
  return Push(impl_, ge::AddrType::WORKSPACE, workspace.index, AddrBits(workspace.addr));
}
ge::graphStatus AnnotatedKernelArgs::AppendArg(uint64_t value) {
  return Push(impl_, ge::AddrType::CUSTOM_VALUE, 0U, value);
}

ge::graphStatus AnnotatedKernelArgs::ExtractArgsData(std::vector<uint8_t> &args_data,
                                                     std::vector<ge::ArgDesc> &arg_descs) const {
  const Impl *im = I(impl_);
  if (im == nullptr || im->failed) return ge::GRAPH_FAILED;
  args_data.assign(im->slots.size() * sizeof(uint64_t), 0U);
  arg_descs.clear();
  for (size_t i = 0; i < im->slots.size(); ++i) {
    const Slot &s = im->slots[i];
    std::memcpy(args_data.data() + i * sizeof(uint64_t), &s.value, sizeof(uint64_t));
    ge::ArgDesc d{};
    d.addr_type = s.type;
    d.ir_idx = s.type == ge::AddrType::CUSTOM_VALUE ? -1 : static_cast<int32_t>(s.index);
    d.folded = false;
    if (s.type == ge::AddrType::CUSTOM_VALUE) std::memcpy(d.reserved, &s.value, sizeof(s.value));
    arg_descs.push_back(d);
  }
  return ge::GRAPH_SUCCESS;
}

}  // namespace gert
