// Source preparation for Ascend C (docs/architecture.md "Host RTC"): the one step shared by the
// host RTC (aclrtcCompileProg) and the host `bisheng` driver (device/rtc/bisheng/) that turns Ascend C
// source as users write it into host C++:
//  - `kernel<<<blocks, dyn_ubuf, stream>>>(args...)` becomes a call of the in-process launch
//    helper of ascendc/openatc_ascendc_launch.h (line numbers are kept: errors point at the
//    user's lines);
//  - every `__global__` function definition (extern "C" or C++ linkage) gets an exported host-ABI
//    entry `openatc_ascendc_entry_<name>(const void *args, size_t size)` plus
//    `openatc_ascendc_args_size_<name>()` and `openatc_ascendc_params_<name>(size_t *count)` (the
//    parameters' {offset, size} pairs), appended after a #line directive; template kernels get
//    entries only through name expressions (aclrtcAddNameExpr), as on the device.
#ifndef OPENATC_RTC_SRC_SOURCE_PREP_H_
#define OPENATC_RTC_SRC_SOURCE_PREP_H_

#include <string>
#include <vector>

namespace openatc {
namespace rtc {

/** A `__global__` function definition found in the source text. */
struct KernelDef {
  std::string name;      ///< unqualified name, e.g. "add_custom"
  bool is_template = false;
  int line = 0;          ///< 1-based line of `__global__`
};

/** A name expression (aclrtcAddNameExpr) and the lowered name its entry is exported under. */
struct NameExpr {
  std::string expression;  ///< e.g. "scale_kernel<float, 4>"
  std::string lowered;     ///< e.g. "scale_kernel__openatc_expr_0"
};

/** Comments, string and character literals replaced by spaces (newlines kept), so scans see code
 *  only. Raw string literals are handled; line continuations are kept as they are. */
std::string MaskNonCode(const std::string &source);

/** The `__global__` function definitions of `source`, in order, each name once. */
std::vector<KernelDef> FindKernels(const std::string &source);

/** Rewrites every `<<<...>>>` launch; throws openatc::Error (code "ACL176003",
 *  ACL_ERROR_RTC_COMPILATION) naming `file` and the line of a malformed launch. */
std::string RewriteLaunches(const std::string &source, const std::string &file);

/**
 * The whole preparation: `#include "ascendc/openatc_ascendc_launch.h"`-free prologue (a
 * `#line 1 "<file>"`), the rewritten source, then the generated entries for the non-template
 * kernels and for `exprs`. `file` is the name compile errors show.
 */
std::string PrepareAscendC(const std::string &source, const std::string &file, const std::vector<NameExpr> &exprs);

/** The lowered name of the i-th name expression `expression` (its leading identifier + suffix). */
std::string LoweredName(const std::string &expression, size_t index);

}  // namespace rtc
}  // namespace openatc

#endif  // OPENATC_RTC_SRC_SOURCE_PREP_H_
