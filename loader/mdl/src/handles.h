// Live-handle tracking for the opaque aclmdlDesc / aclmdlDataset objects, so that a destroyed,
// never-created or garbage handle gets ACL_ERROR_INVALID_PARAM instead of a crash.
#ifndef OPENATC_MDL_SRC_HANDLES_H_
#define OPENATC_MDL_SRC_HANDLES_H_

#include <mutex>
#include <string>
#include <unordered_set>

#include "openatc/rt/error_state.h"

namespace openatc {
namespace mdl {

/** A set of live objects of one kind. Thread-safe. `kind` names the type in messages. */
template <typename T>
class LiveSet {
 public:
  explicit LiveSet(const char *kind, const char *creator) : kind_(kind), creator_(creator) {}
  void Insert(T *p) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_.insert(p);
  }
  /** Removes `p`; throws ACL_ERROR_INVALID_PARAM when it is not live. */
  void Erase(const T *p) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.erase(const_cast<T *>(p)) == 0) ThrowNotLive(p);
  }
  /** `p` itself; throws ACL_ERROR_INVALID_PARAM when null or not live. */
  T *Check(const T *p, const char *name) const {
    if (p == nullptr) rt::ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string(name) + " is a null pointer");
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.count(const_cast<T *>(p)) == 0) ThrowNotLive(p);
    return const_cast<T *>(p);
  }

 private:
  [[noreturn]] void ThrowNotLive(const void *) const {
    rt::ThrowAcl(ACL_ERROR_INVALID_PARAM, std::string("the ") + kind_ + " is not live (never created, or already destroyed)",
                 std::string("Pass an object from ") + creator_ + " that was not destroyed");
  }
  const char *kind_;
  const char *creator_;
  mutable std::mutex mutex_;
  std::unordered_set<T *> live_;
};

}  // namespace mdl
}  // namespace openatc

#endif  // OPENATC_MDL_SRC_HANDLES_H_
