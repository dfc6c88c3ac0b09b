// gert::EagerOpExecutionContext, UpdateArgsContext, OpCompileContext and AnnotatedArgsContext:
// each call is delegated to the Frame's Services (the compiler or the executor).
#include "openatc/gert/frame.h"
#include "openatc/weight_packing.h"

namespace gert {
using openatc::gert_impl::ContextAccess;
using openatc::gert_impl::Frame;

namespace {
Frame *F(const ExtendedKernelContext *c) {
  Frame *f = ContextAccess::Get(c);
  return (f != nullptr && f->services != nullptr) ? f : nullptr;
}
}  // namespace

rtStream EagerOpExecutionContext::GetStream() const {
  Frame *f = F(this);
  return f ? f->services->Stream(*f) : nullptr;
}
Tensor *EagerOpExecutionContext::MallocOutputTensor(size_t index, const StorageShape &shape,
                                                    const StorageFormat &format, ge::DataType dtype) {
  Frame *f = F(this);
  return f ? f->services->MallocOutputTensor(*f, index, shape, format, dtype) : nullptr;
}
Tensor *EagerOpExecutionContext::MakeOutputRefInput(size_t output_index, size_t input_index) const {
  Frame *f = F(this);
  return f ? f->services->MakeOutputRefInput(*f, output_index, input_index) : nullptr;
}
void *EagerOpExecutionContext::MallocWorkSpace(size_t size) {
  Frame *f = F(this);
  return f ? f->services->MallocWorkSpace(*f, size) : nullptr;
}
const KernelArgs *EagerOpExecutionContext::MallocReadOnlyDevArgs(void *host_args, size_t args_size) const {
  Frame *f = F(this);
  return f ? f->services->MallocReadOnlyDevArgs(*f, host_args, args_size) : nullptr;
}
const KernelArgs *UpdateArgsContext::GetKernelArgs(Placement placement, size_t index) const {
  Frame *f = F(this);
  return f ? f->services->GetKernelArgs(*f, placement, index) : nullptr;
}

ge::graphStatus OpCompileContext::GetOption(const ge::AscendString &option_key, ge::AscendString &option) const {
  Frame *f = F(this);
  std::string value;
  if (f == nullptr || !f->services->GetOption(option_key.GetString(), &value)) return ge::GRAPH_FAILED;
  option = ge::AscendString(value.c_str(), value.size());
  return ge::GRAPH_SUCCESS;
}
ge::graphStatus OpCompileContext::GetPlatformInfos(fe::PlatFormInfos &platform_info,
                                                   fe::OptionalInfos &optional_infos) const {
  Frame *f = F(this);
  return f ? f->services->GetPlatformInfos(platform_info, optional_infos) : ge::GRAPH_FAILED;
}

WorkspaceAddr AnnotatedArgsContext::MallocWorkSpace(size_t size) {
  Frame *f = F(this);
  if (f == nullptr || size == 0) return {0U, nullptr};
  return f->services->AnnotatedMallocWorkSpace(*f, size);
}
uint32_t AnnotatedArgsContext::GetStreamId() const {
  Frame *f = F(this);
  return f ? f->services->GetStreamId(*f) : UINT32_MAX;
}
ge::graphStatus AnnotatedArgsContext::AddLaunch(const AnnotatedKernelLaunchInfo &launch_info,
                                                AnnotatedKernelArgs &&args) {
  Frame *f = F(this);
  if (f == nullptr) return ge::GRAPH_FAILED;
  if (launch_info.kernel_name == nullptr || launch_info.kernel_name[0] == '\0' || launch_info.kernel_bin == nullptr ||
      launch_info.kernel_bin_size == 0U || launch_info.block_dim == 0U || launch_info.stream_id == UINT32_MAX) {
    return ge::GRAPH_PARAM_INVALID;
  }
  return f->services->AddLaunch(*f, launch_info, std::move(args));
}

}  // namespace gert

void *openatc::NodeState(const gert::ExtendedKernelContext *ctx) {
  const openatc::gert_impl::Frame *f = openatc::gert_impl::ContextAccess::Get(ctx);
  return f != nullptr ? f->node_state : nullptr;
}
