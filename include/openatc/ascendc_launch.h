/**
 * @file openatc/ascendc_launch.h
 * The host form of Ascend C's launch syntax (docs/architecture.md, "Host RTC"). The source
 * preparation of the host RTC and of `bisheng` rewrites
 *
 *   kernel<<<numBlocks, dynUBufSize, stream>>>(args...);
 *
 * into `::openatc_ascendc::Launch<&kernel>("kernel", numBlocks, dynUBufSize, stream)(args...)`
 * and includes this header. The arguments convert to the kernel's parameter types (a wrong count
 * or type is a compile error, as with `<<<>>>`), are packed with the Ascend args layout of
 * openatc/host_kernel.h and run through libascendcl's launch path
 * (openatc_rt_launch_host_kernel): stream order, the runtime's thread pool and its global-memory
 * checks apply as for aclrtLaunchKernel*. dynUBufSize is `nullptr` or `0` (GE's samples pass
 * nullptr, the devkit's 0); any other value fails the launch (the host has no dynamic UB).
 * The launch returns the ACL error code (0 = success); statements that ignore it, as `<<<>>>`
 * launches do, find the failure text in aclGetRecentErrMsg().
 *
 * `ACLRT_LAUNCH_KERNEL(kernel)(numBlocks, stream, args...)`, the kernel-launch projects'
 * spelling, goes the same way. When the object calls SyncAll anywhere, its launches run their
 * blocks cooperatively (openatc_rt_launch_cooperative_host_kernel, openatc/block_sync.h).
 */
#ifndef OPENATC_ASCENDC_LAUNCH_H_
#define OPENATC_ASCENDC_LAUNCH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "openatc/block_sync.h"
#include "openatc/host_kernel.h"

extern "C" {
/** libascendcl's in-process launch: runs `entry` once per block (calling `set_block` first on the
 *  executing thread) after the work queued on `stream`; `name` appears in error messages.
 *  Returns an ACL error code; the text is in aclGetRecentErrMsg(). */
int openatc_rt_launch_host_kernel(const char *name, void (*entry)(const void *, size_t),
                                  void (*set_block)(uint32_t, uint32_t), uint32_t num_blocks, uint64_t dyn_ubuf_size,
                                  void *stream, const void *args, size_t args_size);
/** The same for an object that calls SyncAll: the blocks run cooperatively (openatc/block_sync.h). */
int openatc_rt_launch_cooperative_host_kernel(const char *name, void (*entry)(const void *, size_t),
                                              void (*set_block)(uint32_t, uint32_t), uint32_t num_blocks,
                                              uint64_t dyn_ubuf_size, void *stream, const void *args,
                                              size_t args_size);
}

namespace openatc_ascendc {

/** The second launch parameter: `nullptr` (GE) or a byte count (`0`, the devkit). */
struct DynUBuf {
  uint64_t bytes;
  DynUBuf(std::nullptr_t) : bytes(0) {}  // NOLINT: implicit, as the launch syntax passes it
  template <typename OpenatcT_, typename = typename std::enable_if<std::is_integral<OpenatcT_>::value>::type>
  DynUBuf(OpenatcT_ n) : bytes(static_cast<uint64_t>(n)) {}  // NOLINT
};

template <auto OpenatcFn_, typename OpenatcSig_ = decltype(OpenatcFn_)>
class Launch;

/** One launch of kernel `OpenatcFn_`; see the file comment. */
template <auto OpenatcFn_, typename... OpenatcPs_>
class Launch<OpenatcFn_, void (*)(OpenatcPs_...)> {
  using Layout = ::openatc_host_kernel_detail::ArgLayout<typename std::decay<OpenatcPs_>::type...>;
  static constexpr size_t kCount = sizeof...(OpenatcPs_);

 public:
  Launch(const char *name, uint32_t num_blocks, DynUBuf dyn, void *stream)
      : name_(name), num_blocks_(num_blocks), dyn_(dyn.bytes), stream_(stream) {}
  Launch(const char *name, uint32_t num_blocks, DynUBuf dyn) : Launch(name, num_blocks, dyn, nullptr) {}

  int operator()(OpenatcPs_... args) const {
    constexpr typename Layout::Offsets off = Layout::Compute();
    unsigned char block[off.at[kCount] + 1];
    Pack(block, off, std::index_sequence_for<OpenatcPs_...>{}, args...);
    if (::openatc_block_sync_detail::Used()) {  // this object calls SyncAll somewhere
      return openatc_rt_launch_cooperative_host_kernel(name_, &Entry, &SetBlock, num_blocks_, dyn_, stream_, block,
                                                       off.at[kCount]);
    }
    return openatc_rt_launch_host_kernel(name_, &Entry, &SetBlock, num_blocks_, dyn_, stream_, block, off.at[kCount]);
  }

  /** The host-ABI entry the runtime calls per block (hidden: each shared object its own). */
  __attribute__((visibility("hidden"))) static void Entry(const void *args, size_t size) { (void)::openatc_host_kernel_detail::Invoke(OpenatcFn_, args, size); }
  /** Sets this shared object's block state (hidden, so never another object's). */
  __attribute__((visibility("hidden"))) static void SetBlock(uint32_t idx, uint32_t num) {
    ::openatc_host_kernel_detail::State().idx = idx;
    ::openatc_host_kernel_detail::State().num = num;
  }

 private:
  template <size_t... OpenatcI_>
  static void Pack(unsigned char *block, const typename Layout::Offsets &off, std::index_sequence<OpenatcI_...>,
                   const OpenatcPs_ &...args) {
    (void)block;
    (void)off;
    int unused[] = {0, (std::memcpy(block + off.at[OpenatcI_], static_cast<const void *>(&args), sizeof(args)), 0)...};
    (void)unused;
  }

  const char *name_;
  uint32_t num_blocks_;
  uint64_t dyn_;
  void *stream_;
};

/** The packed layout of `fn`'s parameters for aclrtLaunchKernelWithArgsArray: *count pairs
 *  {offset, size}, in parameter order (exported per kernel by the generated entries). Hidden, so
 *  its table is private to each shared object (not a unique global that would pin it in memory). */
template <typename... OpenatcPs_>
__attribute__((visibility("hidden"))) inline const size_t *ParamLayout(void (*)(OpenatcPs_...), size_t *count) {
  using Layout = ::openatc_host_kernel_detail::ArgLayout<typename std::decay<OpenatcPs_>::type...>;
  struct Table {
    size_t at[2 * sizeof...(OpenatcPs_) + 1];
    Table() : at() {
      constexpr typename Layout::Offsets off = Layout::Compute();
      const size_t sizes[sizeof...(OpenatcPs_) + 1] = {sizeof(typename std::decay<OpenatcPs_>::type)..., 0};
      for (size_t i = 0; i < sizeof...(OpenatcPs_); ++i) {
        at[2 * i] = off.at[i];
        at[2 * i + 1] = sizes[i];
      }
    }
  };
  static const Table table;
  *count = sizeof...(OpenatcPs_);
  return table.at;
}

/** `ACLRT_LAUNCH_KERNEL(kernel)(numBlocks, stream, args...)`. */
template <auto OpenatcFn_, typename OpenatcSig_ = decltype(OpenatcFn_)>
class AclrtLaunch;

template <auto OpenatcFn_, typename... OpenatcPs_>
class AclrtLaunch<OpenatcFn_, void (*)(OpenatcPs_...)> {
 public:
  explicit AclrtLaunch(const char *name) : name_(name) {}
  int operator()(uint32_t num_blocks, void *stream, OpenatcPs_... args) const {
    return Launch<OpenatcFn_>(name_, num_blocks, nullptr, stream)(args...);
  }

 private:
  const char *name_;
};

}  // namespace openatc_ascendc

#define ACLRT_LAUNCH_KERNEL(kernel) ::openatc_ascendc::AclrtLaunch<&kernel>(#kernel)

#endif  // OPENATC_ASCENDC_LAUNCH_H_
