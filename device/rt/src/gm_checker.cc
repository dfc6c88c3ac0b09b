// The global-memory checker of openatc/gm_check.h, exported as openatc_rt_gm_checker() and handed
// to every loaded kernel .so (binary.cc): checks an access against the innermost registered
// buffer (openatc/rt/gm_registry.h) and, on a violation, reports it once as OPENATC_GM_CHECK says
// (README.md): `fail` stops the block and fails the launch with the message (launch.cc), `warn`
// prints one warning per kernel, block and buffer and lets the kernel continue.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <utility>

#include "acl/acl_base.h"
#include "gm_launch.h"
#include "openatc/common/log.h"
#include "openatc/gm_check.h"
#include "openatc/rt/error_state.h"
#include "openatc/rt/gm_registry.h"

namespace openatc {
namespace rt {
namespace {

enum class GmMode { kFail, kWarn, kInvalid };

struct ModeRecord {
  GmMode mode = GmMode::kFail;
  std::string raw;  // the variable's text, for the error of an invalid value
};

// OPENATC_GM_CHECK, read once at library start (README.md: environment variables are read at start).
const ModeRecord &Mode() {
  static const ModeRecord record = [] {
    ModeRecord r;
    const char *v = std::getenv("OPENATC_GM_CHECK");
    if (v == nullptr) return r;
    r.raw = v;
    const std::string s = v;
    r.mode = s == "fail" ? GmMode::kFail : s == "warn" ? GmMode::kWarn : GmMode::kInvalid;
    return r;
  }();
  return record;
}
[[maybe_unused]] const bool g_mode_read_at_start = (Mode(), true);

using BlockContext = GmBlockContext;
thread_local BlockContext t_block;
thread_local std::string t_launch_violation;

std::string Hex(uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, v);
  return buf;
}

std::string Prefix() {
  if (t_block.kernel == nullptr) return "outside any kernel launch";
  return "kernel '" + *t_block.kernel + "', block " + std::to_string(t_block.block) + " of " +
         std::to_string(t_block.num_blocks);
}

// One sentence naming kernel, block, api, direction, size, and the buffer and offset (or the
// address that is in no buffer).
std::string Describe(const void *addr, uint64_t size, bool write, const char *api, uint64_t ok, const GmBuffer *holder) {
  std::string s = Prefix() + ": " + (api != nullptr && *api != '\0' ? api : "an access") + (write ? " writes " : " reads ") +
                  std::to_string(size) + " bytes";
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (holder == nullptr) {
    s += ": address " + Hex(a) + " is in no buffer the runtime handed out";
    GmBuffer before;
    if (GmRegistry::Process().Preceding(addr, &before)) {
      s += " (" + std::to_string(a - before.base - before.size) + " bytes past the end of " + before.label + ")";
    }
    return s;
  }
  return s + " at offset " + std::to_string(a - holder->base) + " of " + holder->label + ", " + std::to_string(size - ok) +
         " bytes past its end";
}

// warn mode: one warning per kernel, block and buffer (base and label) for the process's life.
void Warn(const std::string &what, const GmBuffer *holder) {
  static std::mutex mu;
  static std::set<std::string> seen;
  std::string key = (t_block.kernel ? *t_block.kernel : std::string()) + '\n' + std::to_string(t_block.block) + '\n' +
                    (holder ? Hex(holder->base) + ' ' + holder->label : std::string("(no buffer)"));
  {
    std::lock_guard<std::mutex> lock(mu);
    if (!seen.insert(std::move(key)).second) return;
  }
  LogWarning("OA2208: " + what +
             ". OPENATC_GM_CHECK=warn: the bytes outside the buffer were not written (writes) or read as zeros (reads); "
             "this is reported once per kernel, block and buffer");
}

uint64_t Check(const void *addr, uint64_t size, int is_write, const char *api, int *stop) {
  if (stop != nullptr) *stop = 0;
  if (size == 0) return 0;
  GmBuffer holder;
  const uint64_t ok = GmRegistry::Process().InBounds(addr, size, &holder);
  if (ok == size) return ok;
  const GmBuffer *found = ok > 0 ? &holder : nullptr;
  std::string what = Describe(addr, size, is_write != 0, api, ok, found);
  if (Mode().mode == GmMode::kWarn) {
    Warn(what, found);
    return ok;
  }
  if (stop != nullptr) *stop = 1;
  if (t_block.violation.empty()) t_block.violation = std::move(what);
  return ok;
}

const openatc_gm_checker kChecker = {OPENATC_GM_CHECK_ABI_VERSION, 0u, &Check};

}  // namespace

GmBlockScope::GmBlockScope(const std::string &kernel, uint32_t block, uint32_t num_blocks)
    : kernel_(t_block.kernel), block_(t_block.block), num_blocks_(t_block.num_blocks),
      violation_(std::move(t_block.violation)) {
  t_block.kernel = &kernel;
  t_block.block = block;
  t_block.num_blocks = num_blocks;
  t_block.violation.clear();
}

GmBlockScope::~GmBlockScope() {
  t_block.kernel = kernel_;
  t_block.block = block_;
  t_block.num_blocks = num_blocks_;
  t_block.violation = std::move(violation_);
}

std::string BlockViolation() { return t_block.violation; }

void SwapGmBlockContext(GmBlockContext &other) {
  using std::swap;
  swap(t_block.kernel, other.kernel);
  swap(t_block.block, other.block);
  swap(t_block.num_blocks, other.num_blocks);
  swap(t_block.violation, other.violation);
}

void CheckGmMode() {
  const ModeRecord &m = Mode();
  if (m.mode != GmMode::kInvalid) return;
  ThrowAcl(ACL_ERROR_INVALID_PARAM,
           "OPENATC_GM_CHECK is '" + m.raw + "', which is not one of its values: fail (the default), warn",
           "Unset OPENATC_GM_CHECK, or set it to fail or warn");
}

void RecordLaunchViolation(const std::string &message) { t_launch_violation = message; }

std::string TakeGmViolation() {
  std::string v = std::move(t_launch_violation);
  t_launch_violation.clear();
  return v;
}

}  // namespace rt
}  // namespace openatc

extern "C" __attribute__((visibility("default"))) const openatc_gm_checker *openatc_rt_gm_checker(void) {
  return &openatc::rt::kChecker;
}
