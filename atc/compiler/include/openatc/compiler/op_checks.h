/**
 * @file openatc/compiler/op_checks.h
 * The one list of checks a custom op type must pass before atc compiles it, shared by compiling
 * (which stops at the first problem, as an openatc::Error) and by `--mode=3` (which lists every
 * problem of every node in check_result.json). Codes (README.md, "Error codes"):
 *   OA1402 the op object cannot be created;
 *   OA1107 a CompilableOp that is not a PortableOp (its compile results could not reach an OM);
 *   OA1108 neither EagerExecuteOp nor AnnotatedArgsOp (nothing could run it);
 *   OA1109 registered in this process but by no deliverable of the OPP roots (cannot be embedded).
 * OA1104 (not registered at all) is reported per graph, listing every such type:
 * compiler::CheckRegistered (atc/compiler/src/resolve_ops.h).
 */
#ifndef OPENATC_COMPILER_OP_CHECKS_H_
#define OPENATC_COMPILER_OP_CHECKS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace openatc::compiler {

struct OpCheckProblem {
  std::string code;
  std::string message;  ///< what is wrong, without the node/op-type prefix
  std::string hint;     ///< what to do
};

/// OA1402 for an op object the registry could not create (`why`: the registry's reason).
OpCheckProblem CannotCreateProblem(const std::string &why);
/// OA1107 (only with `require_portable`: a CompilableOp with neither PortableOp nor
/// AnnotatedArgsOp) and OA1108 for an op type with capability bits `caps`
/// (openatc/opp/capabilities.h); `where` is appended to each message, e.g. " (deliverable 'x.so')".
std::vector<OpCheckProblem> CapabilityProblems(uint32_t caps, bool require_portable, const std::string &where = {});
/// OA1109 for an op type no deliverable of the OPP roots provides.
OpCheckProblem NotFromDeliverableProblem();

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_OP_CHECKS_H_
