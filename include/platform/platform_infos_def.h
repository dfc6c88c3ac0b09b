/**
 * @file platform/platform_infos_def.h
 * fe::PlatFormInfos and fe::OptionalInfos: the target description OpCompileContext::
 * GetPlatformInfos fills (hicann/runtime `pkg_inc/platform/platform_infos_def.h`; members per
 * docs/custom-op-lifecycle.md §5.1). Samples read `GetPlatformResWithLock("version", "NpuArch",
 * v)`, `GetCoreNum()`, `GetSocVersion()` and `GetAICoreNum()`.
 *
 * ABI: the classes hold a core count and a shared handle to a label/key/value store inside
 * libregister.so. Every method is inline and talks to the store through the `extern "C"`
 * functions below, which pass text as (pointer, length) and hand results back through a
 * callback, so the caller's std::string is built by the caller's own code. A deliverable built
 * with either libstdc++ string ABI therefore works.
 *
 * PlatFormInfos stores (label, key) -> value; the host target fills e.g. ("version", "NpuArch")
 * = "host", ("version", "SoC_version") = "host", ("SoCInfo", "ai_core_cnt") = "<cores>".
 * OptionalInfos uses the same store with label "" and keys "soc_version", "core_type",
 * "ai_core_num", "l1_fusion_flag". Copies of either class share the store (as GE's do).
 */
#ifndef OPENATC_PLATFORM_PLATFORM_INFOS_DEF_H_
#define OPENATC_PLATFORM_PLATFORM_INFOS_DEF_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "platform/platform_info_def.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

extern "C" {
/// Receives one text value (not NUL-terminated; `len` bytes).
typedef void (*OpenAtcTextSink)(void *ctx, const char *data, size_t len);
/// Receives one key/value pair.
typedef void (*OpenAtcPairSink)(void *ctx, const char *key, size_t key_len, const char *value,
                                size_t value_len);

/// New empty store; never null (aborts only on out-of-memory, like operator new).
OPENATC_SDK_API void *OpenAtcInfoStoreCreate(void);
OPENATC_SDK_API void OpenAtcInfoStoreDestroy(void *store);
/// Sets (label, key) = value. Returns 0, or -1 when `store` is null.
OPENATC_SDK_API int OpenAtcInfoStoreSet(void *store, const char *label, size_t label_len, const char *key,
                                        size_t key_len, const char *value, size_t value_len);
/// Calls `sink` once with the value of (label, key) and returns 0; -1 (sink not called) when
/// absent or `store` is null. Thread-safe against concurrent Set/Clear.
OPENATC_SDK_API int OpenAtcInfoStoreGet(const void *store, const char *label, size_t label_len, const char *key,
                                        size_t key_len, OpenAtcTextSink sink, void *ctx);
/// Calls `sink` for every key of `label` in key order; returns 0 when the label exists, else -1.
OPENATC_SDK_API int OpenAtcInfoStoreGetLabel(const void *store, const char *label, size_t label_len,
                                             OpenAtcPairSink sink, void *ctx);
/// Removes every key of `label`.
OPENATC_SDK_API void OpenAtcInfoStoreClearLabel(void *store, const char *label, size_t label_len);
/// Serialises the store and `core_num` into one text buffer passed once to `sink`.
OPENATC_SDK_API int OpenAtcInfoStoreSave(const void *store, uint32_t core_num, OpenAtcTextSink sink, void *ctx);
/// Replaces the store's contents from a SaveToBuffer text; -1 (store unchanged) when the buffer is
/// malformed. `core_num` receives the saved core count.
OPENATC_SDK_API int OpenAtcInfoStoreLoad(void *store, const char *buf, size_t len, uint32_t *core_num);
}

namespace fe {

class PlatFormInfosImpl;
class OptionalInfosImpl;

namespace openatc_detail {
inline void AssignText(void *ctx, const char *data, size_t len) {
  static_cast<std::string *>(ctx)->assign(data, len);
}
inline void InsertPair(void *ctx, const char *key, size_t key_len, const char *value, size_t value_len) {
  (*static_cast<std::map<std::string, std::string> *>(ctx))[std::string(key, key_len)] =
      std::string(value, value_len);
}
template <typename Impl>
std::shared_ptr<Impl> NewStore() {
  return std::shared_ptr<Impl>(static_cast<Impl *>(OpenAtcInfoStoreCreate()),
                               [](Impl *p) { OpenAtcInfoStoreDestroy(p); });
}
inline uint32_t ParseCount(const std::string &text) {
  if (text.empty() || text.size() > 10) return 0U;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return 0U;
    v = v * 10U + static_cast<uint64_t>(c - '0');
  }
  return v > 0xFFFFFFFFULL ? 0U : static_cast<uint32_t>(v);
}
}  // namespace openatc_detail

/// Platform resources: label -> (key -> value) text, plus a core count.
class PlatFormInfos {
 public:
  /// Creates the store if needed; always true.
  bool Init() {
    if (!platform_infos_impl_) platform_infos_impl_ = openatc_detail::NewStore<PlatFormInfosImpl>();
    return true;
  }
  /// Value of (label, key); false (val unchanged) when absent.
  bool GetPlatformRes(const std::string &label, const std::string &key, std::string &val) {
    return platform_infos_impl_ &&
           OpenAtcInfoStoreGet(platform_infos_impl_.get(), label.data(), label.size(), key.data(), key.size(),
                               &openatc_detail::AssignText, &val) == 0;
  }
  bool GetPlatformResWithLock(const std::string &label, const std::string &key, std::string &val) {
    return GetPlatformRes(label, key, val);
  }
  /// Every key of `label`; false when the label is absent.
  bool GetPlatformRes(const std::string &label, std::map<std::string, std::string> &res) {
    return platform_infos_impl_ &&
           OpenAtcInfoStoreGetLabel(platform_infos_impl_.get(), label.data(), label.size(),
                                    &openatc_detail::InsertPair, &res) == 0;
  }
  bool GetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res) {
    return GetPlatformRes(label, res);
  }
  /// Replaces every key of `label` with `res`.
  void SetPlatformRes(const std::string &label, std::map<std::string, std::string> &res) {
    Init();
    OpenAtcInfoStoreClearLabel(platform_infos_impl_.get(), label.data(), label.size());
    for (const auto &kv : res) {
      OpenAtcInfoStoreSet(platform_infos_impl_.get(), label.data(), label.size(), kv.first.data(),
                          kv.first.size(), kv.second.data(), kv.second.size());
    }
  }
  void SetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res) {
    SetPlatformRes(label, res);
  }
  uint32_t GetCoreNum() const { return core_num_; }
  uint32_t GetCoreNumWithLock() const { return core_num_; }
  void SetCoreNum(const uint32_t &core_num) { core_num_ = core_num; }
  /// "AiCore" -> SoCInfo/ai_core_cnt, "VectorCore" -> SoCInfo/vector_core_cnt; 0 when unknown.
  uint32_t GetCoreNumByType(const std::string &core_type) {
    const std::string key = core_type == "VectorCore" ? "vector_core_cnt"
                            : core_type == "AiCore"   ? "ai_core_cnt"
                                                      : std::string();
    std::string text;
    if (key.empty() || !GetPlatformRes("SoCInfo", key, text)) return 0U;
    return openatc_detail::ParseCount(text);
  }
  /// Text form of the store and core count (OpenATC's own format), for LoadFromBuffer.
  std::string SaveToBuffer() {
    std::string out;
    Init();
    OpenAtcInfoStoreSave(platform_infos_impl_.get(), core_num_, &openatc_detail::AssignText, &out);
    return out;
  }
  /// false (contents unchanged) when the buffer is not a SaveToBuffer text.
  bool LoadFromBuffer(const char *buf_ptr, const size_t buf_len) {
    Init();
    uint32_t core_num = 0U;
    if (OpenAtcInfoStoreLoad(platform_infos_impl_.get(), buf_ptr, buf_len, &core_num) != 0) return false;
    core_num_ = core_num;
    return true;
  }

 private:
  uint32_t core_num_{0};
  std::shared_ptr<PlatFormInfosImpl> platform_infos_impl_{nullptr};
};

/// Options of one compilation: SoC version, core type, AI core count, L1 fusion flag.
class OptionalInfos {
 public:
  bool Init() {
    if (!optional_infos_impl_) optional_infos_impl_ = openatc_detail::NewStore<OptionalInfosImpl>();
    return true;
  }
  std::string GetSocVersion() { return Get("soc_version"); }
  std::string GetCoreType() { return Get("core_type"); }
  /// 0 when unset.
  uint32_t GetAICoreNum() { return openatc_detail::ParseCount(Get("ai_core_num")); }
  std::string GetL1FusionFlag() { return Get("l1_fusion_flag"); }
  void SetSocVersion(std::string soc_version) { Set("soc_version", soc_version); }
  void SetCoreType(std::string core_type) { Set("core_type", core_type); }
  void SetAICoreNum(uint32_t ai_core_num) { Set("ai_core_num", std::to_string(ai_core_num)); }
  void SetL1FusionFlag(std::string l1_fusion_flag) { Set("l1_fusion_flag", l1_fusion_flag); }

 private:
  std::string Get(const std::string &key) const {
    std::string val;
    if (optional_infos_impl_) {
      OpenAtcInfoStoreGet(optional_infos_impl_.get(), "", 0U, key.data(), key.size(), &openatc_detail::AssignText,
                          &val);
    }
    return val;
  }
  void Set(const std::string &key, const std::string &val) {
    Init();
    OpenAtcInfoStoreSet(optional_infos_impl_.get(), "", 0U, key.data(), key.size(), val.data(), val.size());
  }
  std::shared_ptr<OptionalInfosImpl> optional_infos_impl_{nullptr};
};

}  // namespace fe

#endif  // OPENATC_PLATFORM_PLATFORM_INFOS_DEF_H_
