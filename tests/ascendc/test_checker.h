// A GM checker for the ascendc tests, implementing openatc/gm_check.h over a table of buffers:
// ok = bytes of the access inside the registered buffer holding its address (0 if none).
#ifndef OPENATC_TESTS_ASCENDC_TEST_CHECKER_H_
#define OPENATC_TESTS_ASCENDC_TEST_CHECKER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/gm_check.h"

namespace ascendc_test {

struct Access {
  uintptr_t addr;
  uint64_t size;
  bool is_write;
  std::string api;
  uint64_t ok;
};

/** Registers [base, base + size) as one buffer. */
void AddBuffer(const void *base, uint64_t size);
/** Forgets every buffer and access; `stop` is what violations report (1 = fail, 0 = warn). */
void ResetChecker(int stop);
/** Accesses reported since the last reset (one thread at a time). */
const std::vector<Access> &Accesses();
/** The checker struct (ABI version 1) over the table. */
const openatc_gm_checker *TableChecker();

}  // namespace ascendc_test

#endif  // OPENATC_TESTS_ASCENDC_TEST_CHECKER_H_
