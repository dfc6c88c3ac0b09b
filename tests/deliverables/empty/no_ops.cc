// Deliverables that register no op type (no REG_AUTO_MAPPING_OP): atc loads them and warns once
// per file that it provides nothing (tests/e2e/e2e_bad_input_test.cc). With WITH_PULL_ABI the
// .so references the pull ABI, so it exports an empty creator list; without, it has no ABI.
#include <cstddef>

#include "graph/custom_op.h"
#include "graph/custom_op_pull_registry.h"

#ifdef WITH_PULL_ABI
extern "C" size_t OpenAtcTestNoOpsCount() { return GetRegisteredCustomOpCreatorNum(); }
#else
extern "C" int OpenAtcTestNoOpsMarker() { return 0; }
#endif
