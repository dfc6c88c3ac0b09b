/**
 * @file openatc/opp/capabilities.h
 * Capability detection as GE does it (docs/custom-op-lifecycle.md §2, GE's CustomOpCast):
 * dynamic_cast to each interface. Bits as GE's CustomOpCapability: kEagerExecute=1, kCompilable=2,
 * kShapeInfer=4, kPortable=8, kArgsUpdater=16, kAnnotatedArgs=32.
 */
#ifndef OPENATC_OPP_CAPABILITIES_H_
#define OPENATC_OPP_CAPABILITIES_H_

#include <cstdint>
#include <string>

#include "graph/custom_op.h"

namespace openatc::opp {
enum Capability : uint32_t {
  kEagerExecute = 1u << 0,
  kCompilable = 1u << 1,
  kShapeInfer = 1u << 2,
  kPortable = 1u << 3,
  kArgsUpdater = 1u << 4,
  kAnnotatedArgs = 1u << 5,
};
uint32_t DetectCapabilities(ge::BaseCustomOp *op);
/// "EagerExecuteOp+CompilableOp+..." in GE's declaration order; "none" for 0.
std::string CapabilitiesToString(uint32_t mask);
}  // namespace openatc::opp

#endif  // OPENATC_OPP_CAPABILITIES_H_
