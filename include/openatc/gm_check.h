/**
 * @file openatc/gm_check.h
 * Checked global memory: the C ABI between a kernel's shared object (built with
 * kernel_operator.h, the Ascend C host library) and the runtime that launches it
 * (docs/architecture.md, "Host RTC"; OPENATC_GM_CHECK in README.md).
 *
 * The runtime keeps a registry of the buffers it handed out (each aclrtMalloc block, each
 * planned tensor of a loaded model, each workspace); the innermost registered buffer holding an
 * address is the one an access is checked against. Kernel code reports every global-memory
 * access it makes through the Ascend C API (GlobalTensor, DataCopy, ...) before making it:
 *
 *   int stop = 0;
 *   uint64_t ok = checker->check(addr, size, is_write, "DataCopy", &stop);
 *
 * `ok` is the number of bytes of [addr, addr + size), counted from addr, that lie inside the
 * buffer holding addr (0 when no registered buffer holds addr). ok == size: the access is
 * allowed. ok < size: a violation, already reported by the runtime (kernel, block, buffer,
 * offset, size, api); then
 *   stop != 0 (OPENATC_GM_CHECK=fail, the default): the caller must not make the access and must
 *             end the block by throwing (any type); the launch fails and names the violation;
 *   stop == 0 (OPENATC_GM_CHECK=warn): the caller makes the first `ok` bytes of the access,
 *             drops the rest of a write and reads zeros for the rest of a read, and continues.
 *
 * A kernel shared object receives the checker through the optional export
 *   void openatc_host_kernel_set_gm_checker(const openatc_gm_checker *checker);
 * which the runtime calls once after loading it (aclrtBinaryLoadFromData and friends); code
 * linked into a program that also links libascendcl.so (in-process `<<<>>>` launches) gets it
 * from libascendcl's export `const openatc_gm_checker *openatc_rt_gm_checker(void)`. A null
 * checker (or none set) means: no checking. The runtime knows which launch and block is
 * running on the calling thread; the kernel passes only the access.
 */
#ifndef OPENATC_GM_CHECK_H_
#define OPENATC_GM_CHECK_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of struct openatc_gm_checker; a runtime fills abi_version with it. */
#define OPENATC_GM_CHECK_ABI_VERSION 1u

typedef struct openatc_gm_checker {
  uint32_t abi_version; /**< OPENATC_GM_CHECK_ABI_VERSION */
  uint32_t reserved;
  /** See the file comment. `api` is the Ascend C call making the access ("DataCopy", ...). */
  uint64_t (*check)(const void *addr, uint64_t size, int is_write, const char *api, int *stop);
} openatc_gm_checker;

#ifdef __cplusplus
}
#endif

#endif  // OPENATC_GM_CHECK_H_
