// What the launcher (launch.cc) tells the global-memory checker (gm_checker.cc): which kernel
// and block runs on the calling thread, and what a block that stopped on a violation left.
#ifndef OPENATC_RT_SRC_GM_LAUNCH_H_
#define OPENATC_RT_SRC_GM_LAUNCH_H_

#include <cstdint>
#include <stdexcept>
#include <string>

namespace openatc {
namespace rt {

/** What the checker knows of the block running on a thread. */
struct GmBlockContext {
  const std::string *kernel = nullptr;  // null outside a launch
  uint32_t block = 0;
  uint32_t num_blocks = 0;
  std::string violation;  // fail mode: the first violation of this block
};

/** Swaps this thread's block context with `other`: a cooperative launch (coop_launch.cc) keeps
 *  each fiber's context while it is switched out. */
void SwapGmBlockContext(GmBlockContext &other);

/** Sets this thread's running block (the kernel name must outlive the scope), with no violation
 *  yet; the destructor restores what was set before (a launch made from inside a block). */
class GmBlockScope {
 public:
  GmBlockScope(const std::string &kernel, uint32_t block, uint32_t num_blocks);
  ~GmBlockScope();
  GmBlockScope(const GmBlockScope &) = delete;
  GmBlockScope &operator=(const GmBlockScope &) = delete;

 private:
  const std::string *kernel_;
  uint32_t block_, num_blocks_;
  std::string violation_;
};

/** The violation that stopped the current block on this thread (fail mode), or "" — read in the
 *  block's catch handler. */
std::string BlockViolation();

/** Thrown out of a block that stopped on a violation; carries the checker's message. */
class GmViolationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/** Throws (ACL_ERROR_INVALID_PARAM) when OPENATC_GM_CHECK, read at library start, is neither
 *  unset, "fail" nor "warn"; called before every launch. */
void CheckGmMode();

/** Records `message` as this (launching) thread's last launch-failing violation (TakeGmViolation). */
void RecordLaunchViolation(const std::string &message);

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_GM_LAUNCH_H_
