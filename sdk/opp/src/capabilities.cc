// Capability detection by dynamic_cast, as GE's CustomOpCast does.
#include "openatc/opp/capabilities.h"

namespace openatc::opp {
uint32_t DetectCapabilities(ge::BaseCustomOp *op) {
  if (op == nullptr) return 0;
  uint32_t m = 0;
  if (dynamic_cast<ge::EagerExecuteOp *>(op)) m |= kEagerExecute;
  if (dynamic_cast<ge::CompilableOp *>(op)) m |= kCompilable;
  if (dynamic_cast<ge::ShapeInferOp *>(op)) m |= kShapeInfer;
  if (dynamic_cast<ge::PortableOp *>(op)) m |= kPortable;
  if (dynamic_cast<ge::ArgsUpdater *>(op)) m |= kArgsUpdater;
  if (dynamic_cast<ge::AnnotatedArgsOp *>(op)) m |= kAnnotatedArgs;
  return m;
}

std::string CapabilitiesToString(uint32_t mask) {
  static const struct {
    uint32_t bit;
    const char *name;
  } kNames[] = {{kPortable, "PortableOp"},         {kCompilable, "CompilableOp"}, {kEagerExecute, "EagerExecuteOp"},
                {kAnnotatedArgs, "AnnotatedArgsOp"}, {kArgsUpdater, "ArgsUpdater"}, {kShapeInfer, "ShapeInferOp"}};
  std::string s;
  for (const auto &n : kNames) {
    if (mask & n.bit) {
      if (!s.empty()) s += "+";
      s += n.name;
    }
  }
  return s.empty() ? "none" : s;
}
}  // namespace openatc::opp
