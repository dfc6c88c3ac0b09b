/**
 * @file openatc/host_kernel.h
 * The OpenATC host kernel ABI, version OPENATC_HOST_KERNEL_ABI_VERSION (docs/architecture.md,
 * "Host kernel ABI"). Lets a kernel for the host reference target read like an Ascend C kernel:
 *
 *   #include "openatc/host_kernel.h"
 *   OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
 *     uint32_t per = (n + GetBlockNum() - 1) / GetBlockNum();
 *     ...
 *   }
 *
 * The macro defines the exported entry `extern "C" void add_custom(const void *args, size_t
 * args_size)` that unpacks the parameters from the packed args block the launcher passes
 * (aclrtLaunchKernelWithHostArgs / aclrtLaunchKernelV2) and calls the typed body. Packing rule
 * (Ascend's): parameters in order, each at its natural alignment (pointers 8 bytes on 64-bit),
 * no padding at the start; e.g. Triton's {ptr x5, int32 x4} is offsets 0,8,...,32,40,44,48,52.
 * A block smaller than the parameters need is refused (the body does not run; nothing past the
 * block is read); the launcher checks it first through the exported
 * `size_t openatc_host_kernel_args_size_<name>(void)` and fails the launch with a message.
 *
 * Every kernel shared object built with this header exports, with default visibility:
 *   uint32_t openatc_host_kernel_abi_version(void)          -> OPENATC_HOST_KERNEL_ABI_VERSION
 *   void openatc_host_kernel_set_block(uint32_t idx, uint32_t num)
 * The launcher calls the setter on the executing thread before each block; GetBlockIdx() and
 * GetBlockNum() read those thread-local values (0 and 1 when nothing set them). The state is
 * private to each shared object (hidden visibility), so a kernel .so needs no symbol from the
 * runtime. C++ only (C++11 or later); compiles with clang++-19 and g++ 12.
 */
#ifndef OPENATC_HOST_KERNEL_H_
#define OPENATC_HOST_KERNEL_H_

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>
#include <utility>

/** ABI version exported by every kernel .so; the runtime refuses any other value. */
#define OPENATC_HOST_KERNEL_ABI_VERSION 1u

/* Ascend C spellings that mean nothing on the host. */
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
/** Global-memory address as Ascend C spells it. */
#ifndef GM_ADDR
#define GM_ADDR uint8_t *
#endif

#if defined(__FLT16_MAX__)
/** The fp16 element type (`_Float16`); only defined where the compiler has it. */
typedef _Float16 half;
#define OPENATC_HOST_KERNEL_HAS_HALF 1
#endif

namespace openatc_host_kernel_detail {

struct BlockState {
  uint32_t idx;
  uint32_t num;
};

/** This shared object's per-thread block index and count. */
__attribute__((visibility("hidden"))) inline BlockState &State() {
  static thread_local BlockState state = {0u, 1u};
  return state;
}

constexpr size_t AlignUp(size_t value, size_t align) { return (value + align - 1) / align * align; }

/** Offsets of each parameter in the packed block; element N is the total size needed. */
template <typename... OpenatcArgTs_>
struct ArgLayout {
  static constexpr size_t kCount = sizeof...(OpenatcArgTs_);
  struct Offsets {
    size_t at[kCount + 1];
  };
  static constexpr Offsets Compute() {
    const size_t sizes[kCount + 1] = {sizeof(OpenatcArgTs_)..., 0};
    const size_t aligns[kCount + 1] = {alignof(OpenatcArgTs_)..., 1};
    Offsets out{};
    size_t pos = 0;
    for (size_t i = 0; i < kCount; ++i) {
      pos = AlignUp(pos, aligns[i]);
      out.at[i] = pos;
      pos += sizes[i];
    }
    out.at[kCount] = pos;
    return out;
  }
};

template <typename OpenatcArgT_>
inline OpenatcArgT_ LoadArg(const unsigned char *at) {
  static_assert(std::is_trivially_copyable<OpenatcArgT_>::value, "host kernel parameters must be trivially copyable");
  OpenatcArgT_ value;
  memcpy(static_cast<void *>(&value), at, sizeof(OpenatcArgT_));
  return value;
}

/** Bytes of packed arguments `fn`'s parameters need. */
template <typename... OpenatcArgTs_>
constexpr size_t ArgsSizeOf(void (*)(OpenatcArgTs_...)) {
  return ArgLayout<typename std::decay<OpenatcArgTs_>::type...>::Compute().at[sizeof...(OpenatcArgTs_)];
}

template <typename... OpenatcArgTs_, size_t... OpenatcArgI_>
inline void InvokeWith(void (*fn)(OpenatcArgTs_...), const unsigned char *args, std::index_sequence<OpenatcArgI_...>) {
  constexpr typename ArgLayout<typename std::decay<OpenatcArgTs_>::type...>::Offsets off =
      ArgLayout<typename std::decay<OpenatcArgTs_>::type...>::Compute();
  (void)args;
  (void)off;
  fn(LoadArg<typename std::decay<OpenatcArgTs_>::type>(args + off.at[OpenatcArgI_])...);
}

/** Unpacks `args` (args_size bytes) for `fn` and calls it; returns false (no call) when the
 *  block is too small or null. */
template <typename... OpenatcArgTs_>
inline bool Invoke(void (*fn)(OpenatcArgTs_...), const void *args, size_t args_size) {
  const size_t need = ArgsSizeOf(fn);
  if (args_size < need || (need > 0 && args == nullptr)) return false;
  InvokeWith(fn, static_cast<const unsigned char *>(args), std::index_sequence_for<OpenatcArgTs_...>{});
  return true;
}

}  // namespace openatc_host_kernel_detail

/** Index of the block this call runs (0..GetBlockNum()-1), as Ascend C's GetBlockIdx(). */
inline int64_t GetBlockIdx() { return static_cast<int64_t>(openatc_host_kernel_detail::State().idx); }
/** Number of blocks of the current launch, as Ascend C's GetBlockNum(). */
inline int64_t GetBlockNum() { return static_cast<int64_t>(openatc_host_kernel_detail::State().num); }

/** Called by the launcher before each block on the executing thread. */
extern "C" __attribute__((weak, used, visibility("default"))) void openatc_host_kernel_set_block(uint32_t idx,
                                                                                                 uint32_t num) {
  openatc_host_kernel_detail::State().idx = idx;
  openatc_host_kernel_detail::State().num = num;
}

/** The ABI version this shared object was built against. */
extern "C" __attribute__((weak, used, visibility("default"))) uint32_t openatc_host_kernel_abi_version(void) {
  return OPENATC_HOST_KERNEL_ABI_VERSION;
}

/**
 * Defines host kernel `name` with the typed parameter list `...`; the braces that follow are its
 * body. Exports `void name(const void *args, size_t args_size)` and
 * `size_t openatc_host_kernel_args_size_<name>(void)`.
 */
#define OPENATC_HOST_KERNEL(name, ...)                                                                \
  static void openatc_host_kernel_body_##name(__VA_ARGS__);                                           \
  extern "C" __attribute__((used, visibility("default"))) size_t openatc_host_kernel_args_size_##name( \
      void) {                                                                                         \
    return ::openatc_host_kernel_detail::ArgsSizeOf(&openatc_host_kernel_body_##name);                \
  }                                                                                                   \
  extern "C" __attribute__((used, visibility("default"))) void name(const void *args, size_t args_size) { \
    (void)::openatc_host_kernel_detail::Invoke(&openatc_host_kernel_body_##name, args, args_size);    \
  }                                                                                                   \
  static void openatc_host_kernel_body_##name(__VA_ARGS__)

/*
 * ---------------------------------------------------------------------------------------------
 * In-process launch: the host spelling of Ascend C's `kernel<<<num_block, l2ctrl, stream>>>(...)`
 *
 *   OPENATC_HOST_KERNEL(add_custom, GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) { ... }
 *   int ret = OPENATC_LAUNCH(add_custom, num_block, stream)(x, y, z, n);   // 0 = ACL_SUCCESS
 *
 * For a kernel compiled into the same shared object as the code launching it (GE's ascendc and
 * data_dependent samples build their `.asc` kernel into the op's .so and call `<<<>>>` from
 * Execute). Use it in the translation unit that defines the kernel with OPENATC_HOST_KERNEL,
 * as `<<<>>>` needs the kernel's declaration; export a plain C++ wrapper (GE's
 * `launch_add_custom`) for other files.
 *
 * Design:
 *  - Arguments are converted to the kernel's parameter types at the call, so a wrong count or
 *    type is a compile error, as with `<<<>>>`; every block receives the same values.
 *  - Stream order: the helper first waits for `stream` (aclrtSynchronizeStream; nullptr is the
 *    default stream), so everything queued earlier on it has finished; the blocks then run and
 *    the call returns after the last block, so later work on the stream sees the results. An
 *    unknown stream handle returns that call's error and runs nothing.
 *  - Block-parallel like the runtime's launches: blocks 0..num_block-1 run on up to
 *    min(num_block, online CPUs, 256) threads (the calling thread is one of them), each block
 *    once, with GetBlockIdx()/GetBlockNum() set on the executing thread (thread-local, private
 *    to the kernel's .so). The calling thread's block state is restored afterwards. POSIX threads
 *    are started per launch, which keeps the header light for kernels compiled at run time.
 *  - Returns ACL_SUCCESS (0); ACL_ERROR_INVALID_PARAM (100000) when num_block is 0 or above
 *    65535 (the runtime's limit); ACL_ERROR_RT_FAILURE (500003) when a block threw (the other
 *    blocks still ran). Nothing is printed.
 *  - The launch does not go through aclrtLaunchKernel*, so stream launch observers do not see
 *    it: in a static (sink) model the runtime keeps calling the node's Execute on every run
 *    instead of replaying a recording (docs/architecture.md, "Static (sink) execution"), which is
 * correct. The code is templates only: a kernel .so that never uses OPENATC_LAUNCH references no
 * ACL symbol; one that does must link libascendcl (and pthreads, part of libc on glibc >= 2.34).
 */
#include <pthread.h>
#include <unistd.h>

extern "C" int aclrtSynchronizeStream(void *stream);

namespace openatc_host_kernel_detail {

/** The runtime's largest block count per launch. */
constexpr uint32_t kMaxLaunchBlocks = 65535u;
/** At most this many threads run one in-process launch. */
constexpr uint32_t kMaxLaunchThreads = 256u;

template <typename OpenatcFn_>
void *LaunchTrampoline(void *fn) {
  (*static_cast<OpenatcFn_ *>(fn))();
  return nullptr;
}

template <typename... OpenatcArgTs_>
class InProcessLaunch {
 public:
  typedef void (*Body)(OpenatcArgTs_...);
  InProcessLaunch(Body body, uint32_t num_block, void *stream) : body_(body), num_block_(num_block), stream_(stream) {}

  /** Runs the kernel with these arguments (the kernel's own parameter types, so they convert
   *  as in a call); see OPENATC_LAUNCH. */
  int operator()(OpenatcArgTs_... args) const {
    if (num_block_ == 0 || num_block_ > kMaxLaunchBlocks) return 100000;  // ACL_ERROR_INVALID_PARAM
    const int sync = aclrtSynchronizeStream(stream_);
    if (sync != 0) return sync;
    uint32_t next = 0;
    bool failed = false;
    const Body body = body_;
    const uint32_t num = num_block_;
    auto worker = [&]() {
      for (uint32_t b = __atomic_fetch_add(&next, 1u, __ATOMIC_RELAXED); b < num;
           b = __atomic_fetch_add(&next, 1u, __ATOMIC_RELAXED)) {
        State().idx = b;
        State().num = num;
        try {
          body(args...);
        } catch (...) {
          __atomic_store_n(&failed, true, __ATOMIC_RELAXED);
        }
      }
    };
    const BlockState saved = State();
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t want = cpus > 1 ? static_cast<uint32_t>(cpus) : 1u;
    if (want > num) want = num;
    if (want > kMaxLaunchThreads) want = kMaxLaunchThreads;
    pthread_t threads[kMaxLaunchThreads];
    uint32_t started = 0;
    for (uint32_t t = 1; t < want; ++t) {
      // Fewer threads when one cannot start: the remaining blocks run on the ones we have.
      if (pthread_create(&threads[started], nullptr, &LaunchTrampoline<decltype(worker)>, &worker) != 0) break;
      ++started;
    }
    worker();
    for (uint32_t t = 0; t < started; ++t) pthread_join(threads[t], nullptr);
    State() = saved;
    return __atomic_load_n(&failed, __ATOMIC_RELAXED) ? 500003 : 0;  // ACL_ERROR_RT_FAILURE : ACL_SUCCESS
  }

 private:
  Body body_;
  uint32_t num_block_;
  void *stream_;
};

template <typename... OpenatcArgTs_>
inline InProcessLaunch<OpenatcArgTs_...> MakeLaunch(void (*body)(OpenatcArgTs_...), uint32_t num_block,
                                                    void *stream) {
  return InProcessLaunch<OpenatcArgTs_...>(body, num_block, stream);
}

}  // namespace openatc_host_kernel_detail

/**
 * `OPENATC_LAUNCH(kernel, num_block, stream)(args...)`: runs host kernel `kernel` (defined with
 * OPENATC_HOST_KERNEL in this translation unit) on `num_block` blocks in the order of
 * `stream` (an aclrtStream, nullptr = default stream); evaluates to an int ACL error code.
 * The host equivalent of Ascend C's `kernel<<<num_block, nullptr, stream>>>(args...)`.
 */
#define OPENATC_LAUNCH(kernel, num_block, stream) \
  ::openatc_host_kernel_detail::MakeLaunch(&openatc_host_kernel_body_##kernel, (num_block), (stream))

#endif /* OPENATC_HOST_KERNEL_H_ */
