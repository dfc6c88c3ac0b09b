// The process-wide and per-model custom-op registries, and the exported hooks the per-deliverable
// static library calls from REG_AUTO_MAPPING_OP's constructor.
#include "openatc/gert/custom_op_registry.h"

#include "openatc/common/log.h"

namespace openatc::gert_impl {
namespace {
thread_local int t_offline_depth = 0;
thread_local std::string t_origin;
}  // namespace

bool CustomOpRegistry::Register(const std::string &op_type, Creator creator, const std::string &origin) {
  if (op_type.empty() || !creator) return false;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(op_type);
  if (it != entries_.end()) {
    LogDebug("op type '" + op_type + "' from '" + origin + "' is already registered from '" + it->second.origin +
             "'; the first registration is kept");
    return false;
  }
  entries_[op_type] = Entry{std::move(creator), origin, nullptr};
  return true;
}

bool CustomOpRegistry::Has(const std::string &op_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.count(op_type) != 0;
}

std::string CustomOpRegistry::Origin(const std::string &op_type) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(op_type);
  return it == entries_.end() ? std::string() : it->second.origin;
}

std::vector<std::string> CustomOpRegistry::Types() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto &kv : entries_) out.push_back(kv.first);
  return out;
}

std::shared_ptr<ge::BaseCustomOp> CustomOpRegistry::GetOrCreate(const std::string &op_type, std::string *error) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(op_type);
  if (it == entries_.end()) {
    if (error) *error = "op type is not registered";
    return nullptr;
  }
  if (!it->second.instance) {
    ge::BaseCustomOp *raw = nullptr;
    try {
      raw = it->second.creator();
    } catch (const std::exception &e) {
      if (error) *error = std::string("the creator threw: ") + e.what();
      return nullptr;
    } catch (...) {
      if (error) *error = "the creator threw a non-standard exception";
      return nullptr;
    }
    if (raw == nullptr) {
      if (error) *error = "the creator returned nullptr";
      return nullptr;
    }
    it->second.instance.reset(raw);
  }
  return it->second.instance;
}

std::unique_ptr<ge::BaseCustomOp> CustomOpRegistry::CreateNew(const std::string &op_type, std::string *error) const {
  Creator creator;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(op_type);
    if (it == entries_.end()) {
      if (error) *error = "op type is not registered";
      return nullptr;
    }
    creator = it->second.creator;
  }
  try {
    std::unique_ptr<ge::BaseCustomOp> op(creator());
    if (!op && error) *error = "the creator returned nullptr";
    return op;
  } catch (const std::exception &e) {
    if (error) *error = std::string("the creator threw: ") + e.what();
  } catch (...) {
    if (error) *error = "the creator threw a non-standard exception";
  }
  return nullptr;
}

CustomOpRegistry &CustomOpRegistry::Global() {
  static CustomOpRegistry *registry = new CustomOpRegistry();  // never destroyed: ops may outlive main
  return *registry;
}

OfflineLoadingGuard::OfflineLoadingGuard() { ++t_offline_depth; }
OfflineLoadingGuard::~OfflineLoadingGuard() { --t_offline_depth; }
bool IsOfflineLoading() { return t_offline_depth > 0; }
void SetLoadingOrigin(const std::string &origin) { t_origin = origin; }

}  // namespace openatc::gert_impl

// Hooks for libcustom_op_registry_static.a (linked into every deliverable). C linkage and plain
// types only, so a deliverable built with either libstdc++ string ABI can call them.
extern "C" __attribute__((visibility("default"))) int openatc_gert_is_offline_loading() {
  return openatc::gert_impl::IsOfflineLoading() ? 1 : 0;
}

extern "C" __attribute__((visibility("default"))) int openatc_gert_register_creator(const char *op_type,
                                                                                    ge::CustomOpCreateFunc creator) {
  using openatc::gert_impl::CustomOpRegistry;
  if (op_type == nullptr || creator == nullptr) return -1;
  return CustomOpRegistry::Global().Register(op_type, [creator]() { return creator(); },
                                             openatc::gert_impl::t_origin)
             ? 0
             : -1;
}

namespace openatc::gert_impl {
// Used by the std::function form of CustomOpCreatorRegister (std::function has one ABI).
__attribute__((visibility("default"))) int RegisterCreatorFunction(const char *op_type,
                                                                   const ge::BaseOpCreator &creator) {
  if (op_type == nullptr || !creator) return -1;
  ge::BaseOpCreator copy = creator;
  return CustomOpRegistry::Global().Register(op_type, [copy]() { return copy().release(); }, t_origin) ? 0 : -1;
}
}  // namespace openatc::gert_impl
