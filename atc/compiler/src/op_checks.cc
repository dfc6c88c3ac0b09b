// The checks of openatc/compiler/op_checks.h: one wording for compile errors and --mode=3.
#include "openatc/compiler/op_checks.h"

#include "openatc/opp/capabilities.h"

namespace openatc::compiler {

OpCheckProblem CannotCreateProblem(const std::string &why) {
  return {"OA1402", "cannot create the op object: " + why, "Fix the op's constructor"};
}

std::vector<OpCheckProblem> CapabilityProblems(uint32_t caps, bool require_portable, const std::string &where) {
  std::vector<OpCheckProblem> out;
  // An AnnotatedArgsOp's declared launches carry its compiled kernel into the OM (README.md
  // "Python custom ops": Python compile + declare_launch_args rely on it).
  if (require_portable && (caps & opp::kCompilable) && !(caps & (opp::kPortable | opp::kAnnotatedArgs))) {
    out.push_back({"OA1107",
                   "the op is a CompilableOp but not a PortableOp" + where +
                       ", so its compile results cannot be carried into an OM",
                   "Derive the class from ge::PortableOp and implement Serialize/Deserialize"});
  }
  if (!(caps & (opp::kEagerExecute | opp::kAnnotatedArgs))) {
    out.push_back({"OA1108", "the op has neither EagerExecuteOp nor AnnotatedArgsOp" + where + ", so it cannot run",
                   "Implement ge::EagerExecuteOp::Execute"});
  }
  return out;
}

OpCheckProblem NotFromDeliverableProblem() {
  return {"OA1109",
          "the op type is registered in this process but by no deliverable of the OPP roots, so it cannot be "
          "embedded in the OM",
          "Build the op as a deliverable .so under an ASCEND_CUSTOM_OPP_PATH root"};
}

}  // namespace openatc::compiler
