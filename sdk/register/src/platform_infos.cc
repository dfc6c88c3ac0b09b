// The label/key/value store behind fe::PlatFormInfos / fe::OptionalInfos (the extern "C"
// OpenAtcInfoStore* functions of platform/platform_infos_def.h) and openatc::reg::
// FillPlatformInfos (openatc/register/platform.h).
#include "sdk_visibility.h"

#include <map>
#include <mutex>
#include <thread>

#include "openatc/register/platform.h"
#include "platform/platform_infos_def.h"

namespace openatc::reg {
namespace {
struct InfoStore {
  mutable std::mutex mu;
  std::map<std::string, std::map<std::string, std::string>> labels;
};

InfoStore *AsStore(void *p) { return static_cast<InfoStore *>(p); }
const InfoStore *AsStore(const void *p) { return static_cast<const InfoStore *>(p); }
std::string Text(const char *p, size_t n) { return (p == nullptr || n == 0U) ? std::string() : std::string(p, n); }

// SaveToBuffer format (ours): "OAPI1\n" "core_num <n>\n" then per entry
// "<len>:<label><len>:<key><len>:<value>\n".
constexpr char kMagic[] = "OAPI1\n";
void AppendField(std::string &out, const std::string &s) { out += std::to_string(s.size()) + ":" + s; }

bool ReadNumber(const char *buf, size_t len, size_t &pos, char stop, uint64_t &value) {
  value = 0;
  size_t digits = 0;
  while (pos < len && buf[pos] >= '0' && buf[pos] <= '9') {
    if (++digits > 19) return false;
    value = value * 10U + static_cast<uint64_t>(buf[pos++] - '0');
  }
  if (digits == 0 || pos >= len || buf[pos] != stop) return false;
  ++pos;
  return true;
}

bool ReadField(const char *buf, size_t len, size_t &pos, std::string &out) {
  uint64_t n = 0;
  if (!ReadNumber(buf, len, pos, ':', n) || n > len - pos) return false;
  out.assign(buf + pos, static_cast<size_t>(n));
  pos += static_cast<size_t>(n);
  return true;
}
}  // namespace

PlatformDescription HostPlatformDescription() {
  PlatformDescription d;
  const unsigned n = std::thread::hardware_concurrency();
  d.core_num = n == 0U ? 1U : n;
  return d;
}

void FillPlatformInfos(const PlatformDescription &desc, fe::PlatFormInfos &platform_infos,
                       fe::OptionalInfos &optional_infos) {
  platform_infos.Init();
  std::map<std::string, std::map<std::string, std::string>> labels;
  labels["version"]["SoC_version"] = desc.soc_version;
  labels["version"]["NpuArch"] = desc.npu_arch;
  labels["SoCInfo"]["ai_core_cnt"] = std::to_string(desc.core_num);
  labels["SoCInfo"]["vector_core_cnt"] = std::to_string(desc.core_num);
  for (const auto &[label, keys] : desc.extra) {
    for (const auto &[key, value] : keys) labels[label][key] = value;
  }
  for (auto &[label, keys] : labels) platform_infos.SetPlatformRes(label, keys);
  platform_infos.SetCoreNum(desc.core_num);
  optional_infos.Init();
  optional_infos.SetSocVersion(desc.soc_version);
  optional_infos.SetCoreType(desc.core_type);
  optional_infos.SetAICoreNum(desc.core_num);
  optional_infos.SetL1FusionFlag("false");
}

}  // namespace openatc::reg

using openatc::reg::AsStore;
using openatc::reg::Text;

extern "C" {

void *OpenAtcInfoStoreCreate(void) { return new openatc::reg::InfoStore(); }

void OpenAtcInfoStoreDestroy(void *store) { delete AsStore(store); }

int OpenAtcInfoStoreSet(void *store, const char *label, size_t label_len, const char *key, size_t key_len,
                        const char *value, size_t value_len) {
  if (store == nullptr) return -1;
  auto *s = AsStore(store);
  std::lock_guard<std::mutex> lock(s->mu);
  s->labels[Text(label, label_len)][Text(key, key_len)] = Text(value, value_len);
  return 0;
}

int OpenAtcInfoStoreGet(const void *store, const char *label, size_t label_len, const char *key, size_t key_len,
                        OpenAtcTextSink sink, void *ctx) {
  if (store == nullptr || sink == nullptr) return -1;
  const auto *s = AsStore(store);
  std::lock_guard<std::mutex> lock(s->mu);
  const auto l = s->labels.find(Text(label, label_len));
  if (l == s->labels.end()) return -1;
  const auto k = l->second.find(Text(key, key_len));
  if (k == l->second.end()) return -1;
  sink(ctx, k->second.data(), k->second.size());
  return 0;
}

int OpenAtcInfoStoreGetLabel(const void *store, const char *label, size_t label_len, OpenAtcPairSink sink,
                             void *ctx) {
  if (store == nullptr || sink == nullptr) return -1;
  const auto *s = AsStore(store);
  std::lock_guard<std::mutex> lock(s->mu);
  const auto l = s->labels.find(Text(label, label_len));
  if (l == s->labels.end()) return -1;
  for (const auto &kv : l->second) sink(ctx, kv.first.data(), kv.first.size(), kv.second.data(), kv.second.size());
  return 0;
}

void OpenAtcInfoStoreClearLabel(void *store, const char *label, size_t label_len) {
  if (store == nullptr) return;
  auto *s = AsStore(store);
  std::lock_guard<std::mutex> lock(s->mu);
  s->labels.erase(Text(label, label_len));
}

int OpenAtcInfoStoreSave(const void *store, uint32_t core_num, OpenAtcTextSink sink, void *ctx) {
  if (store == nullptr || sink == nullptr) return -1;
  const auto *s = AsStore(store);
  std::string out = openatc::reg::kMagic;
  out += "core_num " + std::to_string(core_num) + "\n";
  {
    std::lock_guard<std::mutex> lock(s->mu);
    for (const auto &[label, keys] : s->labels) {
      for (const auto &[key, value] : keys) {
        openatc::reg::AppendField(out, label);
        openatc::reg::AppendField(out, key);
        openatc::reg::AppendField(out, value);
        out += "\n";
      }
    }
  }
  sink(ctx, out.data(), out.size());
  return 0;
}

int OpenAtcInfoStoreLoad(void *store, const char *buf, size_t len, uint32_t *core_num) {
  using openatc::reg::ReadField;
  using openatc::reg::ReadNumber;
  if (store == nullptr || buf == nullptr || core_num == nullptr) return -1;
  const std::string magic = openatc::reg::kMagic;
  const std::string core_prefix = "core_num ";
  if (len < magic.size() + core_prefix.size() || std::string(buf, magic.size()) != magic ||
      std::string(buf + magic.size(), core_prefix.size()) != core_prefix) {
    openatc::reg::SetSdkError("PlatFormInfos::LoadFromBuffer: the buffer is not a PlatFormInfos::SaveToBuffer text "
                              "(bad header); pass the exact bytes SaveToBuffer returned");
    return -1;
  }
  size_t pos = magic.size() + core_prefix.size();
  uint64_t cores = 0;
  if (!ReadNumber(buf, len, pos, '\n', cores) || cores > 0xFFFFFFFFULL) {
    openatc::reg::SetSdkError("PlatFormInfos::LoadFromBuffer: bad core_num line; pass the exact bytes SaveToBuffer returned");
    return -1;
  }
  std::map<std::string, std::map<std::string, std::string>> labels;
  while (pos < len) {
    std::string label, key, value;
    if (!ReadField(buf, len, pos, label) || !ReadField(buf, len, pos, key) || !ReadField(buf, len, pos, value) ||
        pos >= len || buf[pos] != '\n') {
      openatc::reg::SetSdkError("PlatFormInfos::LoadFromBuffer: entry at byte " + std::to_string(pos) +
                                " is truncated or malformed; pass the exact bytes SaveToBuffer returned");
      return -1;
    }
    ++pos;
    labels[label][key] = value;
  }
  auto *s = AsStore(store);
  std::lock_guard<std::mutex> lock(s->mu);
  s->labels = std::move(labels);
  *core_num = static_cast<uint32_t>(cores);
  return 0;
}

}  // extern "C"
