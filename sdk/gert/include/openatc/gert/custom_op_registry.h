/**
 * @file openatc/gert/custom_op_registry.h
 * INTERNAL: registries of custom-op creators and the per-registry op instances
 * (docs/custom-op-lifecycle.md §3, §10).
 *
 * - The process-wide registry receives every REG_AUTO_MAPPING_OP of every deliverable dlopen'ed
 *   for compilation (first registration of an op type wins, as in GE). `atc` uses it.
 * - A per-model registry is filled from an OM-embedded deliverable's own creator list (the pull
 *   ABI) while the "offline loading" guard is set on this thread, so loading a model never touches
 *   the process-wide registry.
 * Each registry creates one op object per op type, lazily, and hands out the same object after.
 */
#ifndef OPENATC_GERT_CUSTOM_OP_REGISTRY_H_
#define OPENATC_GERT_CUSTOM_OP_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graph/custom_op.h"

namespace openatc::gert_impl {

class CustomOpRegistry {
 public:
  using Creator = std::function<ge::BaseCustomOp *()>;

  /// Registers `op_type`. Returns false (and keeps the first) for a duplicate or a null creator.
  /// `origin` names where it came from (the deliverable path) for messages.
  bool Register(const std::string &op_type, Creator creator, const std::string &origin);
  bool Has(const std::string &op_type) const;
  /// Where op_type was registered from ("" if unknown or absent).
  std::string Origin(const std::string &op_type) const;
  std::vector<std::string> Types() const;  ///< sorted
  /// The shared op object of `op_type`, created on first use; nullptr when not registered or the
  /// creator returned nullptr / threw (the reason is returned through *error).
  std::shared_ptr<ge::BaseCustomOp> GetOrCreate(const std::string &op_type, std::string *error = nullptr);

  /// A new object of `op_type`, not the shared one (for round-trip checks); nullptr with *error
  /// when not registered or the creator fails.
  std::unique_ptr<ge::BaseCustomOp> CreateNew(const std::string &op_type, std::string *error = nullptr) const;

  /// The process-wide registry.
  static CustomOpRegistry &Global();

 private:
  struct Entry {
    Creator creator;
    std::string origin;
    std::shared_ptr<ge::BaseCustomOp> instance;
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;
};

/// While alive on this thread, REG_AUTO_MAPPING_OP registrations skip the process-wide registry
/// (GE's "offline custom-op .so loading" guard). Set around dlopen of OM-embedded deliverables.
class OfflineLoadingGuard {
 public:
  OfflineLoadingGuard();
  ~OfflineLoadingGuard();
  OfflineLoadingGuard(const OfflineLoadingGuard &) = delete;
  OfflineLoadingGuard &operator=(const OfflineLoadingGuard &) = delete;
};
bool IsOfflineLoading();

/// The deliverable whose static initialisers are running on this thread (set by the loader around
/// dlopen so registrations can name their origin).
void SetLoadingOrigin(const std::string &origin);

}  // namespace openatc::gert_impl

#endif  // OPENATC_GERT_CUSTOM_OP_REGISTRY_H_
