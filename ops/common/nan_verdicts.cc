// The running thread's non-finite verdicts (ops/common/nan_verdicts.h).
#include "common/nan_verdicts.h"

namespace openatc_ops {
namespace {

struct Verdict {
  int64_t id = 0;
  const float *p = nullptr;
  int64_t n = 0;
  bool nonfinite = false;
};

struct VerdictTable {
  Verdict slots[kNanVerdicts];
  int next = 0;  ///< the slot the next new id takes (the oldest)
};

thread_local VerdictTable table;

}  // namespace

void RecordNanVerdict(int64_t id, const float *p, int64_t n, bool nonfinite) {
  if (id == 0) return;
  Verdict *slot = nullptr;
  for (Verdict &v : table.slots)
    if (v.id == id) slot = &v;
  if (slot == nullptr) {
    slot = &table.slots[table.next];
    table.next = (table.next + 1) % kNanVerdicts;
  }
  *slot = {id, p, n, nonfinite};
}

int RecalledNanVerdict(int64_t id, const float *p, int64_t n) {
  if (id == 0) return -1;
  for (const Verdict &v : table.slots)
    if (v.id == id) return v.p == p && v.n == n ? static_cast<int>(v.nonfinite) : -1;
  return -1;
}

}  // namespace openatc_ops
