// Helpers for end-to-end tests: JSON graphs written at test time, atc/omrun invocations.
#ifndef OPENATC_TESTS_E2E_E2E_UTIL_H_
#define OPENATC_TESTS_E2E_E2E_UTIL_H_

#include <string>
#include <vector>

#include "run_command.h"

namespace openatc::testing {

/// A GE IR JSON tensor descriptor: {"dtype": dtype, "shape": {"dim": dims}, "layout": "ND"}.
std::string DescJson(const std::string &dtype, const std::vector<int64_t> &dims);
/// A GE IR JSON Data op `name` (attr index) with `desc` as its input and output descriptor.
std::string DataOpJson(const std::string &name, int index, const std::string &desc);

/// Data x1, Data x2 (both `dtype`, `dims`) -> AxpyCustom(alpha) -> NetOutput, as GE IR JSON.
/// Without `set_alpha` the node has no attr map (the REG_OP default applies).
std::string AxpyGraphJson(const std::string &dtype, const std::vector<int64_t> &dims, float alpha,
                          bool set_alpha = true);

/// Data x (float32 `dims`) -> <op_type>(x) -> NetOutput, as GE IR JSON.
std::string UnaryGraphJson(const std::string &op_type, const std::vector<int64_t> &dims);

/// A graph with three Consts for the external-weight tests: y = (x + w1) * w2 + w3 on float32
/// [2, 3], w3 holding the same bytes as w1. The values are kExtW1 / kExtW2; x is the only input.
extern const float kExtW1[6];
extern const float kExtW2[6];
std::string ExternalWeightGraphJson();

/// atc --model M --soc_version host --output OUT with ASCEND_CUSTOM_OPP_PATH = opp_path
/// (unset when empty).
CommandResult RunAtc(const std::vector<std::string> &args, const std::string &opp_path);
/// omrun with ASCEND_CUSTOM_OPP_PATH unset.
CommandResult RunOmrun(const std::vector<std::string> &args);

std::string AxpyOpp();
std::string AddCustomOpp();

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_E2E_E2E_UTIL_H_
