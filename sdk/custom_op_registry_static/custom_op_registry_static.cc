// libcustom_op_registry_static.a: linked into every deliverable. Gives each .so its own creator
// list (built with hidden visibility so two deliverables never share one) and the exported C pull
// ABI, and forwards registrations to the process-wide registry in libgert.so unless an OM is
// being loaded on this thread. Kept in one translation unit so linking any registration pulls in
// the whole ABI.
#include <cstring>
#include <list>
#include <mutex>
#include <string>

#include "graph/custom_op.h"
#include "graph/custom_op_pull_registry.h"

#ifndef OPENATC_SDK_VERSION
#error "OPENATC_SDK_VERSION must be defined by the build"
#endif

// Provided by libgert.so.
extern "C" int openatc_gert_is_offline_loading();
extern "C" int openatc_gert_register_creator(const char *op_type, ge::CustomOpCreateFunc creator);
namespace openatc::gert_impl {
int RegisterCreatorFunction(const char *op_type, const ge::BaseOpCreator &creator);
}

namespace {
struct LocalEntry {
  std::string op_type;
  ge::CustomOpCreateFunc creator;
};
std::mutex &LocalMutex() {
  static std::mutex mu;
  return mu;
}
// std::list keeps each op_type's storage stable, so pulled `const char *` stay valid.
std::list<LocalEntry> &LocalList() {
  static std::list<LocalEntry> list;
  return list;
}
}  // namespace

namespace ge {
void RegisterCustomOpLocalCreator(const char *const op_type, const CustomOpCreateFunc creator) {
  if (op_type == nullptr || op_type[0] == '\0' || creator == nullptr) return;
  std::lock_guard<std::mutex> lock(LocalMutex());
  LocalList().push_back({op_type, creator});
}

CustomOpCreatorRegister::CustomOpCreatorRegister(const AscendString &operator_type, const CustomOpCreateFunc op_creator) {
  RegisterCustomOpLocalCreator(operator_type.GetString(), op_creator);
  if (openatc_gert_is_offline_loading() == 0) {
    (void)openatc_gert_register_creator(operator_type.GetString(), op_creator);  // first wins
  }
}

CustomOpCreatorRegister::CustomOpCreatorRegister(const AscendString &operator_type, const BaseOpCreator &op_creator) {
  if (openatc_gert_is_offline_loading() == 0) {
    (void)openatc::gert_impl::RegisterCreatorFunction(operator_type.GetString(), op_creator);
  }
}
}  // namespace ge

extern "C" {
__attribute__((visibility("default"))) uint32_t GetRegisteredCustomOpCreatorAbiVersion() {
  return ge::kCustomOpCreatorPullAbiVersion;
}

__attribute__((visibility("default"))) size_t GetRegisteredCustomOpCreatorNum() {
  std::lock_guard<std::mutex> lock(LocalMutex());
  return LocalList().size();
}

__attribute__((visibility("default"))) int32_t GetRegisteredCustomOpCreators(ge::CustomOpTypeToCreator *creators,
                                                                             const size_t creator_num,
                                                                             const size_t creator_struct_size) {
  std::lock_guard<std::mutex> lock(LocalMutex());
  const auto &list = LocalList();
  if (creator_num < list.size()) return -1;
  if (creator_num > 0 && creators == nullptr) return -1;
  if (creator_struct_size < sizeof(ge::CustomOpTypeToCreator)) return -1;
  auto *out = reinterpret_cast<uint8_t *>(creators);
  size_t i = 0;
  for (const auto &e : list) {
    ge::CustomOpTypeToCreator entry{static_cast<uint32_t>(sizeof(ge::CustomOpTypeToCreator)), e.op_type.c_str(),
                                    e.creator};
    std::memcpy(out + i * creator_struct_size, &entry, sizeof(entry));
    ++i;
  }
  return 0;
}

__attribute__((visibility("default"))) const char *OpenAtcDeliverableSdkVersion() { return OPENATC_SDK_VERSION; }
}
