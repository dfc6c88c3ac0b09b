/**
 * @file kernel_operator_base.h
 * Shared pieces of the Ascend C host library (kernel_operator.h): the chip's UB size, the error
 * every API misuse throws, element type names for messages, the enums and constants kernels
 * name (TPosition, pipe_t, event_t, HardEvent, RoundMode, CMPMODE, SELMODE), bfloat16_t, and the
 * per-block state (atomic mode, vector mask, event flags) that TPipe resets when a block starts.
 * Part of the host Ascend C API described in docs/architecture.md ("Host RTC").
 */
#ifndef OPENATC_ASCENDC_KERNEL_OPERATOR_BASE_H_
#define OPENATC_ASCENDC_KERNEL_OPERATOR_BASE_H_

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <exception>
#include <string>
#include <type_traits>
#include <utility>

#include "openatc/host_kernel.h"

/* Execution-space and address-space qualifiers that mean nothing on the host. */
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(...)
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __host__
#define __host__
#endif

/* Bytes of Unified Buffer per block. The toolchain always passes the emulated chip's value
 * (-DOPENATC_ASCENDC_UB_SIZE=<bytes>, from the chip facts table); 196608 (192 KiB, dav-2201) is
 * only the default for hand-built tests. */
#ifndef OPENATC_ASCENDC_UB_SIZE
#define OPENATC_ASCENDC_UB_SIZE 196608
#endif

namespace openatc {
namespace ascendc {

/** Thrown by every Ascend C call used wrongly: what() is "block <i>: <call>: <problem>". The
 *  launcher catches it at the block boundary and adds the kernel name. */
class KernelError : public std::exception {
 public:
  explicit KernelError(std::string message) : message_(std::move(message)) {}
  const char *what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/** Throws KernelError for `api` (e.g. "DataCopy", "TQue::DeQue") in the running block. */
[[noreturn]] inline void Fail(const char *api, const std::string &problem) {
  throw KernelError("block " + std::to_string(::GetBlockIdx()) + ": " + api + ": " + problem);
}

/** Decimal text of any integer, for messages. */
template <typename OpenatcIntT_>
inline std::string Num(OpenatcIntT_ value) {
  return std::to_string(value);
}

/** Bytes of one DataBlock, the unit of UB alignment and of DataCopy lengths. */
constexpr uint32_t kBlockBytes = 32;
/** Bytes one vector repeat reads (8 DataBlocks). */
constexpr uint32_t kRepeatBytes = 256;

constexpr uint64_t AlignUp32(uint64_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }

}  // namespace ascendc
}  // namespace openatc

/** bfloat16 storage with float arithmetic (conversions round to nearest even). */
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float value) {  // NOLINT: implicit like the device type
    uint32_t u;
    memcpy(&u, &value, sizeof(u));
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
    } else {
      bits = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
  }
  operator float() const {
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
  }
};

namespace openatc {
namespace ascendc {

/** The element type's spelling in messages. */
template <typename T>
inline const char *TypeName() {
  if (std::is_same<T, float>::value) return "float";
#ifdef OPENATC_HOST_KERNEL_HAS_HALF
  if (std::is_same<T, half>::value) return "half";
#endif
  if (std::is_same<T, bfloat16_t>::value) return "bfloat16_t";
  if (std::is_same<T, double>::value) return "double";
  if (std::is_same<T, bool>::value) return "bool";
  if (std::is_same<T, int8_t>::value) return "int8_t";
  if (std::is_same<T, uint8_t>::value) return "uint8_t";
  if (std::is_same<T, int16_t>::value) return "int16_t";
  if (std::is_same<T, uint16_t>::value) return "uint16_t";
  if (std::is_same<T, int32_t>::value) return "int32_t";
  if (std::is_same<T, uint32_t>::value) return "uint32_t";
  if (std::is_same<T, int64_t>::value) return "int64_t";
  if (std::is_same<T, uint64_t>::value) return "uint64_t";
  return "element";
}

/** Keeps a parameter out of template deduction (a float literal for a half tensor). */
template <typename T>
struct NonDeduced {
  using type = T;
};

}  // namespace ascendc
}  // namespace openatc

/** Pipes, as the device compiler names them (PipeBarrier<PIPE_V>). */
enum pipe_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2,
              PIPE_FIX, PIPE_NUM };
/** Event ids of SetFlag/WaitFlag. */
enum event_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {

/** Where a tensor lives; VECIN, VECOUT and VECCALC are the Unified Buffer. */
enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX };
using QuePosition = TPosition;

/** Cross-pipe events, named source_destination. */
enum class HardEvent : uint8_t { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
                                 MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2,
                                 MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S,
                                 FIX_MTE3, MAX };
using TEventID = int8_t;

enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
                       CAST_HYBRID };
enum class CMPMODE { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode { NORMAL = 0, COUNTER };

constexpr uint32_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint64_t MASK_PLACEHOLDER = 0;

/** Debug output of a kernel (printf's format), prefixed by nothing, to stdout. */
__attribute__((format(printf, 1, 2))) inline void printf(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vprintf(fmt, args);
  va_end(args);
}

/** Bytes of one DataBlock. */
inline constexpr uint32_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }
/** Bytes of Unified Buffer of the emulated chip. */
inline constexpr uint32_t GetUBSizeInBytes() { return OPENATC_ASCENDC_UB_SIZE; }
/** Bytes of Unified Buffer a kernel may use at run time: all of it on the host (no reserve). */
inline constexpr uint32_t GetRuntimeUBSize() { return OPENATC_ASCENDC_UB_SIZE; }

}  // namespace AscendC

#ifndef PRINTF
#define PRINTF AscendC::printf
#endif

namespace openatc {
namespace ascendc {

/** The device builtins `block_idx` / `block_num`: read the running block's index / count. */
struct BlockIdxBuiltin {
  operator int64_t() const { return ::GetBlockIdx(); }
};
struct BlockNumBuiltin {
  operator int64_t() const { return ::GetBlockNum(); }
};

[[noreturn]] inline void AssertFailed(const char *file, int line, const char *text, const std::string &detail) {
  Fail("ascendc_assert", std::string("assertion '") + text + "' failed at " + file + ":" + std::to_string(line) +
                             (detail.empty() ? "" : ": " + detail));
}
inline void AssertImpl(const char *file, int line, const char *text, bool cond) {
  if (!cond) AssertFailed(file, line, text, "");
}
template <typename... OpenatcArgs_>
inline void AssertImpl(const char *file, int line, const char *text, bool cond, const char *fmt,
                       OpenatcArgs_... args) {
  if (cond) return;
  char detail[512];
  snprintf(detail, sizeof(detail), fmt, args...);
  AssertFailed(file, line, text, detail);
}

}  // namespace ascendc
}  // namespace openatc

static const openatc::ascendc::BlockIdxBuiltin block_idx [[maybe_unused]];
static const openatc::ascendc::BlockNumBuiltin block_num [[maybe_unused]];

/** ascendc_assert(cond) / ascendc_assert(cond, fmt, ...): a failed assertion ends the block with
 *  KernelError (never abort). */
#ifndef ascendc_assert
#define ascendc_assert(...) ::openatc::ascendc::AssertImpl(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)
#endif

namespace openatc {
namespace ascendc {

enum class AtomicOp : uint8_t { kNone, kAdd, kMax, kMin };
constexpr int kEventIds = 8;

/** One block's core registers: atomic mode, vector mask, event flag counts. */
struct CoreState {
  AtomicOp atomic = AtomicOp::kNone;
  bool mask_counter = false;  // SetMaskCount: the mask is an element count
  uint64_t mask_lo = ~0ull;
  uint64_t mask_hi = ~0ull;
  uint32_t flags[static_cast<int>(AscendC::HardEvent::MAX)][kEventIds] = {};
  uint64_t cmp_mask[2] = {0, 0};  // the CMPMASK register (mask-form Compare)
  bool pad_set = false;           // SetPadValue was called
  uint64_t pad_bits = 0;          // its value's bytes
};

/** This shared object's per-thread core state (hidden, like host_kernel.h's block state). */
__attribute__((visibility("hidden"))) inline CoreState &Core() {
  static thread_local CoreState state;
  return state;
}

/** Back to the state a block starts in (InitSocState; every TPipe constructor). */
inline void ResetCore() { Core() = CoreState(); }

}  // namespace ascendc
}  // namespace openatc

#endif  // OPENATC_ASCENDC_KERNEL_OPERATOR_BASE_H_
