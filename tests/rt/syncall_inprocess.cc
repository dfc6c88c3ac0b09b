// The SyncAll kernels compiled into the test and launched in process, as a `.asc` file's
// `kernel<<<n, nullptr, stream>>>(...)` becomes after the host RTC's source preparation.
#include "syncall_inprocess.h"

#include "kernel_operator.h"
#include "openatc/ascendc_launch.h"
#include "syncall_kernels.h"

OPENATC_SYNCALL_KERNELS

namespace syncall_test {

int LaunchExchange(uint32_t blocks, void *buf, void *out) {
  return ::openatc_ascendc::Launch<&exchange>("exchange", blocks, nullptr, nullptr)(static_cast<uint8_t *>(buf),
                                                                                    static_cast<uint8_t *>(out));
}

int LaunchSkipOne(uint32_t blocks, void *out, uint32_t skipper) {
  return ::openatc_ascendc::Launch<&skip_one>("skip_one", blocks, 0)(static_cast<uint8_t *>(out), skipper);
}

}  // namespace syncall_test
