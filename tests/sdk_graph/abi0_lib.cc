// A deliverable-like shared library built with -D_GLIBCXX_USE_CXX11_ABI=0 (as GE samples are):
// it uses AscendString, REG_OP (with std::string-typed attrs) and fe::PlatFormInfos through the
// SDK headers, and reports what it saw as text, so a normal-ABI test can check it.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "graph/operator_reg.h"
#include "platform/platform_infos_def.h"

#if _GLIBCXX_USE_CXX11_ABI != 0
#error "this file must be built with -D_GLIBCXX_USE_CXX11_ABI=0"
#endif

namespace ge {
REG_OP(Abi0Op)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .ATTR(mode, String, "hello")
    .ATTR(tags, ListString, {"t1", "t2"})
    .OP_END_FACTORY_REG(Abi0Op);
}  // namespace ge

namespace {
int Put(const std::string &text, char *out, size_t cap) {
  if (out == nullptr || cap == 0U) return -1;
  const size_t n = text.size() < cap - 1U ? text.size() : cap - 1U;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  return static_cast<int>(text.size());
}
}  // namespace

/// Exercises the SDK from old-ABI code; writes "key=value;" pairs into `out`.
extern "C" __attribute__((visibility("default"))) int sdk_graph_abi0_run(char *out, size_t cap) {
  std::string r;
  ge::AscendString a("abc");
  const std::string s(a.GetString(), a.GetLength());
  r += "ascend=" + s + ";";
  r += std::string("null_vs_empty=") + (ge::AscendString() == ge::AscendString("") ? "eq" : "ne") + ";";

  ge::op::Abi0Op op("n0");
  r += "mode=" + op.get_attr_mode() + ";";
  op.set_attr_mode(std::string("world"));
  r += "mode2=" + op.get_attr_mode() + ";";
  const std::vector<std::string> tags = op.get_attr_tags();
  r += "tags=" + std::to_string(tags.size()) + ":" + (tags.empty() ? "" : tags[1]) + ";";
  r += "in_name=" + ge::op::Abi0Op::name_in_x() + ";";

  fe::PlatFormInfos pi;
  pi.Init();
  std::map<std::string, std::string> res = {{"NpuArch", "abi0arch"}};
  pi.SetPlatformRes("version", res);
  std::string v;
  pi.GetPlatformResWithLock("version", "NpuArch", v);
  r += "arch=" + v + ";";
  fe::OptionalInfos oi;
  oi.SetSocVersion("socX");
  r += "soc=" + oi.GetSocVersion() + ";";
  return Put(r, out, cap);
}

/// Reads PlatFormInfos/OptionalInfos filled by normal-ABI code (as a custom op's Compile does).
extern "C" __attribute__((visibility("default"))) int sdk_graph_abi0_read_platform(fe::PlatFormInfos *pi,
                                                                                 fe::OptionalInfos *oi, char *out,
                                                                                 size_t cap) {
  std::string arch;
  if (!pi->GetPlatformResWithLock("version", "NpuArch", arch)) arch = "<missing>";
  const std::string r = "arch=" + arch + ";cores=" + std::to_string(pi->GetCoreNum()) + ";soc=" + oi->GetSocVersion() +
                        ";aicore=" + std::to_string(oi->GetAICoreNum()) + ";";
  return Put(r, out, cap);
}
