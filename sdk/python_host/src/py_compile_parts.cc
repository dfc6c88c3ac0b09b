// Python compile / declare_launch_args behind CompilableOp / AnnotatedArgsOp: the bridge's
// compile_call with a query function (options, platform facts, stream id, workspaces) and, for
// declare_launch_args, an add_launch that turns the Python argument list into
// gert::AnnotatedKernelArgs and calls AnnotatedArgsContext::AddLaunch, as a C++ op would.
#include "py_compile_parts.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "exe_graph/runtime/annotated_args_context.h"
#include "exe_graph/runtime/op_compile_context.h"

namespace openatc::python_host {
namespace {

char *Dup(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

struct CallState {
  const gert::OpCompileContext *compile = nullptr;
  gert::AnnotatedArgsContext *annotated = nullptr;
  gert_impl::Frame *frame = nullptr;
  std::vector<gert::WorkspaceAddr> workspaces;
  bool have_platform = false;  // one snapshot per callback, as GE's GetPlatformInfos
  fe::PlatFormInfos platform;
  fe::OptionalInfos optional;
};

bool PlatformAnswer(CallState &s, const std::string &what, const char *a, const char *b, std::string &out) {
  if (!s.have_platform) {
    s.platform.Init();
    s.optional.Init();
    if (s.compile->GetPlatformInfos(s.platform, s.optional) != ge::GRAPH_SUCCESS) return false;
    s.have_platform = true;
  }
  if (what == "res") return s.platform.GetPlatformResWithLock(a, b, out);
  if (what == "group") {
    std::map<std::string, std::string> group;
    if (!s.platform.GetPlatformResWithLock(a, group)) return false;
    out = nlohmann::json(group).dump();
    return true;
  }
  if (what == "core_num") {
    out = std::to_string(*a != '\0' ? s.platform.GetCoreNumByType(a) : s.platform.GetCoreNumWithLock());
    return true;
  }
  if (what == "soc_version") out = s.optional.GetSocVersion();
  else if (what == "ai_core_num") out = std::to_string(s.optional.GetAICoreNum());
  else return false;
  return true;
}

int Query(void *call_ctx, const char *what_text, const char *a, const char *b, char **answer) {
  auto &s = *static_cast<CallState *>(call_ctx);
  const std::string what = what_text;
  std::string out;
  try {
    if (s.annotated != nullptr && what == "stream_id") {
      out = std::to_string(s.annotated->GetStreamId());
    } else if (s.annotated != nullptr && what == "workspace") {
      const gert::WorkspaceAddr w = s.annotated->MallocWorkSpace(static_cast<size_t>(std::stoull(a)));
      if (w.addr == nullptr) return 1;
      s.workspaces.push_back(w);
      out = std::to_string(w.index) + " " + std::to_string(reinterpret_cast<uintptr_t>(w.addr));
    } else if (s.compile != nullptr && what == "option") {
      ge::AscendString value;
      if (s.compile->GetOption(ge::AscendString(a), value) != ge::GRAPH_SUCCESS) return 1;
      out = value.GetString();
    } else if (s.compile == nullptr || !PlatformAnswer(s, what, a, b, out)) {
      return 1;
    }
  } catch (const std::exception &) {
    return 1;
  }
  *answer = Dup(out);
  return 0;
}

// One Python slot as a gert argument; "" or why it is refused.
std::string AppendSlot(CallState &s, const OaPySlot &slot, gert::AnnotatedKernelArgs &args) {
  const std::vector<gert::Tensor *> &io = slot.kind == kOaPySlotInput ? s.frame->inputs : s.frame->outputs;
  ge::graphStatus status = ge::GRAPH_FAILED;
  switch (slot.kind) {
    case kOaPySlotInput:
    case kOaPySlotOutput:
      if (slot.index >= io.size()) return "slot index " + std::to_string(slot.index) + " out of range";
      status = slot.kind == kOaPySlotInput ? args.AppendArg(gert::InputAddr{slot.index, io[slot.index]->GetAddr()})
                                           : args.AppendArg(gert::OutputAddr{slot.index, io[slot.index]->GetAddr()});
      break;
    case kOaPySlotWorkspace:
      for (const auto &w : s.workspaces)
        if (w.index == slot.index) status = args.AppendArg(w);
      break;
    case kOaPySlotScalar:
      status = args.AppendArg(slot.value);
      break;
    default:
      return "unknown slot kind " + std::to_string(slot.kind);
  }
  return status == ge::GRAPH_SUCCESS ? "" : "the argument was refused";
}

int AddLaunch(void *call_ctx, const char *kernel_name, const void *kernel_bin, uint64_t bin_size, uint32_t block_dim,
              uint32_t stream_id, const OaPySlot *slots, uint32_t n_slots, char **error) {
  auto &s = *static_cast<CallState *>(call_ctx);
  gert::AnnotatedKernelArgs args;
  for (uint32_t i = 0; i < n_slots; ++i) {
    const std::string why = AppendSlot(s, slots[i], args);
    if (!why.empty()) {
      *error = Dup("argument " + std::to_string(i) + ": " + why);
      return 1;
    }
  }
  gert::AnnotatedKernelLaunchInfo info;
  info.kernel_name = kernel_name;
  info.kernel_bin = kernel_bin;
  info.kernel_bin_size = static_cast<size_t>(bin_size);
  info.block_dim = block_dim;
  info.stream_id = stream_id;
  if (s.annotated->AddLaunch(info, std::move(args)) != ge::GRAPH_SUCCESS) {
    *error = Dup("AnnotatedArgsContext::AddLaunch refused the launch of '" + std::string(kernel_name) + "'");
    return 1;
  }
  return 0;
}

ge::graphStatus Run(const PyOpInfo &info, const char *callback, CallState &state) {
  InputViews in, out;
  Collect(state.frame->inputs, true, in);
  Collect(state.frame->outputs, true, out);
  const OaPyCompileCall call{Query, state.annotated != nullptr ? AddLaunch : nullptr, &state};
  char *err = nullptr;
  const auto n_in = static_cast<uint32_t>(in.tensors.size());
  const auto n_out = static_cast<uint32_t>(out.tensors.size());
  if (info.api->compile_call(info.op_type.c_str(), callback, in.tensors.data(), n_in, out.tensors.data(), n_out, &call,
                             GetAttr, state.frame, &err) != kOaPyOk)
    CallFailed(info, state.frame, callback, err);
  return ge::GRAPH_SUCCESS;
}

}  // namespace

ge::graphStatus PyCompilePart::Compile(gert::OpCompileContext *ctx) {
  CallState state;
  state.compile = ctx;
  state.frame = gert_impl::ContextAccess::Get(ctx);
  return Run(info_, "compile", state);
}

ge::graphStatus PyAnnotatedPart::DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) {
  CallState state;
  state.annotated = &ctx;
  state.frame = gert_impl::ContextAccess::Get(&ctx);
  return Run(info_, "declare_launch_args", state);
}

}  // namespace openatc::python_host
