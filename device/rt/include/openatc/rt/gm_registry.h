/**
 * @file openatc/rt/gm_registry.h
 * The device's registry of global-memory buffers, against which kernels' accesses are checked
 * (openatc/gm_check.h; OPENATC_GM_CHECK in README.md; docs/architecture.md "Host RTC"). Internal
 * C++ API of libascendcl for the rest of the runtime; not part of the public SDK.
 *
 * Who registers what: the device registers each aclrtMalloc block; the executor (loader/runtime)
 * registers each planned tensor, workspace, run-time allocated output and caller buffer of a
 * model run. A buffer is {base, size, label}; the label names it in messages ("aclrtMalloc block
 * of 64 bytes", "tensor 'add1:0' of model m.om (64 bytes, planned)"). Buffers may nest (a
 * caller's tensor inside an aclrtMalloc block) and may share a base; an address is checked
 * against the INNERMOST buffer holding it (greatest base, then smallest size).
 *
 * Thread safety: every function may be called from any thread, also while kernels run.
 */
#ifndef OPENATC_RT_GM_REGISTRY_H_
#define OPENATC_RT_GM_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <tuple>

#include "openatc/rt/runtime.h"

namespace openatc {
namespace rt {

/** One registered buffer as a lookup returns it. */
struct GmBuffer {
  uintptr_t base = 0;
  uint64_t size = 0;  ///< bytes
  std::string label;
};

/** A set of buffers with innermost lookup. The process's registry is Process(); tests may make
 *  their own. */
class OPENATC_RT_EXPORT GmRegistry {
 public:
  /** Registers [base, base + size). Returns an id for Remove (never 0); size 0 or a null base
   *  registers nothing and returns 0. */
  uint64_t Add(const void *base, uint64_t size, std::string label);
  /** Unregisters the buffer `id` returned by Add; 0 and unknown ids are ignored. */
  void Remove(uint64_t id);
  /** The innermost buffer holding `addr`; false when none does. */
  bool Find(const void *addr, GmBuffer *out) const;
  /** For an address no buffer holds: the registered buffer that starts closest below it (what an
   *  overrun from that buffer reaches); false when none starts below it. */
  bool Preceding(const void *addr, GmBuffer *out) const;
  /** True when one registered buffer holds all of [base, base + size). */
  bool Covers(const void *base, uint64_t size) const;
  /** The contract's `ok` (openatc/gm_check.h): bytes of [addr, addr + size) from addr that lie
   *  in the innermost buffer holding addr (0 when none holds it); `holder` receives that buffer. */
  uint64_t InBounds(const void *addr, uint64_t size, GmBuffer *holder) const;
  size_t count() const;

  /** The registry of this process (the one the checker uses). */
  static GmRegistry &Process();

 private:
  // Ordered by base, then size DESCENDING, then id: walking down from an address meets the
  // innermost candidate first.
  using Key = std::tuple<uintptr_t, uint64_t, uint64_t>;  // base, ~size, id
  struct Entry {
    uint64_t size;
    std::string label;
  };
  const std::pair<const Key, Entry> *FindLocked(uintptr_t addr) const;

  mutable std::shared_mutex mutex_;
  std::map<Key, Entry> entries_;
  std::map<uint64_t, Key> by_id_;
  uint64_t next_id_ = 1;
  uint64_t max_size_ = 0;  ///< largest size ever registered: bounds the downward walk
};

/** RAII registration in the process's registry (no-op for size 0 / null). Movable. */
class GmRegistration {
 public:
  GmRegistration() = default;
  GmRegistration(const void *base, uint64_t size, std::string label)
      : id_(GmRegistry::Process().Add(base, size, std::move(label))) {}
  ~GmRegistration() { GmRegistry::Process().Remove(id_); }
  GmRegistration(GmRegistration &&o) noexcept : id_(o.id_) { o.id_ = 0; }
  GmRegistration &operator=(GmRegistration &&o) noexcept {
    if (this != &o) {
      GmRegistry::Process().Remove(id_);
      id_ = o.id_;
      o.id_ = 0;
    }
    return *this;
  }
  GmRegistration(const GmRegistration &) = delete;
  GmRegistration &operator=(const GmRegistration &) = delete;

 private:
  uint64_t id_ = 0;
};

/** The message of the last global-memory violation that failed a launch made on the calling
 *  thread (OPENATC_GM_CHECK=fail), and clears it; "" when none. The executor calls it when a
 *  node fails, to report the violation (OA2208) instead of the op's generic failure. */
OPENATC_RT_EXPORT std::string TakeGmViolation();

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_GM_REGISTRY_H_
