// In-process `<<<>>>` launches of the SyncAll kernels (syncall_inprocess.cc).
#ifndef OPENATC_TESTS_RT_SYNCALL_INPROCESS_H_
#define OPENATC_TESTS_RT_SYNCALL_INPROCESS_H_

#include <cstdint>

namespace syncall_test {

/** exchange<<<blocks, nullptr, nullptr>>>(buf, out); returns the ACL error code. */
int LaunchExchange(uint32_t blocks, void *buf, void *out);
/** skip_one<<<blocks, 0, nullptr>>>(out, skipper). */
int LaunchSkipOne(uint32_t blocks, void *out, uint32_t skipper);

}  // namespace syncall_test

#endif  // OPENATC_TESTS_RT_SYNCALL_INPROCESS_H_
