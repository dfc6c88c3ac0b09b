/**
 * @file openatc/opp/opp_paths.h
 * Where deliverables are found, as GE finds them (docs/custom-op-lifecycle.md §9):
 * ASCEND_CUSTOM_OPP_PATH is a colon-separated list of OPP roots (empty entries skipped; unset =
 * none). Per root, left to right: `<root>/libcust_opapi.so` if it exists, then every regular `*.so`
 * in `<root>/op_graph/lib/<os>/<arch>/` in name order (not recursive). The built-in operators' root
 * comes last.
 */
#ifndef OPENATC_OPP_OPP_PATHS_H_
#define OPENATC_OPP_OPP_PATHS_H_

#include <string>
#include <vector>

namespace openatc::opp {

/// "linux" and the CPU architecture this build runs on ("x86_64", "aarch64"; openatc::HostCpuArch).
std::string HostOs();
std::string HostArch();

/// The built-in operators' OPP root beside a binary or library at `binary_path`:
/// `<dir of binary_path>/../opp/built-in`, resolved (realpath); "" when that is no folder.
std::string BuiltinOppRootBeside(const std::string &binary_path);

/// The roots of ASCEND_CUSTOM_OPP_PATH in order (empty entries dropped).
std::vector<std::string> CustomOppRootsFromEnv();

/// The deliverable files of one root in GE's order. `searched` receives every location looked at
/// (for "not found" messages). A missing root or folder is not an error here.
std::vector<std::string> DeliverablesInRoot(const std::string &root, std::vector<std::string> *searched);

/// A note when `root` looks like a wrong directory level (it has no libcust_opapi.so and no
/// op_graph/, but a parent or child does); empty when the root looks right.
std::string DiagnoseRoot(const std::string &root);

}  // namespace openatc::opp

#endif  // OPENATC_OPP_OPP_PATHS_H_
