// Per-thread last-error text and the C-boundary guard shared by every ACL entry point of
// libascendcl.so: the device's aclrt* and the loader's aclmdl* (loader/mdl). Internal, not SDK;
// the functions are hidden, for code inside libascendcl.so only.
#ifndef OPENATC_RT_ERROR_STATE_H_
#define OPENATC_RT_ERROR_STATE_H_

#include <cstring>
#include <new>
#include <string>

#include "acl/acl_base.h"
#include "openatc/common/error.h"

namespace openatc {
namespace rt {

/** The integer a caller passed for an enum parameter, read without assuming it is in range
 *  (C callers may pass any int; loading it as the enum would be undefined behaviour). */
template <typename E>
int RawEnum(const E &value) {
  static_assert(sizeof(E) == sizeof(int), "ACL enums are int-sized");
  int raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

/** Throws the project error carrying ACL code `code` (kept as the error's code text). */
[[noreturn]] void ThrowAcl(aclError code, const std::string &message, const std::string &hint = {});

/** Records the failure of `api` on this thread and returns its ACL code. */
aclError RecordFailure(const char *api, const openatc::Error &error);
aclError RecordFailure(const char *api, aclError code, const std::string &text);

/** Runs `body` (which throws openatc::Error on failure) and turns the outcome into an aclError. */
template <typename F>
aclError Guard(const char *api, F &&body) {
  try {
    body();
    return ACL_SUCCESS;
  } catch (const openatc::Error &e) {
    return RecordFailure(api, e);
  } catch (const std::bad_alloc &) {
    return RecordFailure(api, ACL_ERROR_BAD_ALLOC, "out of memory");
  } catch (const std::exception &e) {
    return RecordFailure(api, ACL_ERROR_INTERNAL_ERROR, std::string("internal error: ") + e.what());
  } catch (...) {
    return RecordFailure(api, ACL_ERROR_INTERNAL_ERROR, "internal error: unknown exception");
  }
}

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_ERROR_STATE_H_
