// The table-based GM checker of the ascendc tests (test_checker.h).
#include "test_checker.h"

#include <mutex>

namespace ascendc_test {
namespace {

struct Buffer {
  uintptr_t base;
  uint64_t size;
};

std::mutex g_mutex;
std::vector<Buffer> g_buffers;
std::vector<Access> g_accesses;
int g_stop = 1;

uint64_t Check(const void *addr, uint64_t size, int is_write, const char *api, int *stop) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  uint64_t ok = 0;
  for (const Buffer &b : g_buffers) {
    if (a >= b.base && a < b.base + b.size) {
      const uint64_t room = b.base + b.size - a;
      ok = size < room ? size : room;
    }
  }
  g_accesses.push_back(Access{a, size, is_write != 0, api, ok});
  *stop = ok < size ? g_stop : 0;
  return ok;
}

const openatc_gm_checker kChecker = {OPENATC_GM_CHECK_ABI_VERSION, 0u, &Check};

}  // namespace

void AddBuffer(const void *base, uint64_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_buffers.push_back(Buffer{reinterpret_cast<uintptr_t>(base), size});
}

void ResetChecker(int stop) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_buffers.clear();
  g_accesses.clear();
  g_stop = stop;
}

const std::vector<Access> &Accesses() { return g_accesses; }

const openatc_gm_checker *TableChecker() { return &kChecker; }

}  // namespace ascendc_test
