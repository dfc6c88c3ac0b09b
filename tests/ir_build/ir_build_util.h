// Helpers of the offline build API tests (ge/ge_ir_build.h): the AxpyCustom graph built with the
// GE API, running atc on its AIR file, and running an OM with omrun on raw inputs.
#ifndef OPENATC_TESTS_IR_BUILD_IR_BUILD_UTIL_H_
#define OPENATC_TESTS_IR_BUILD_IR_BUILD_UTIL_H_

#include <map>
#include <string>
#include <vector>

#include "ge/ge_ir_build.h"
#include "graph/graph.h"

namespace openatc::testing {

using IrOptions = std::map<ge::AscendString, ge::AscendString>;

/// The fixed build time both front doors record (the OM holds SOURCE_DATE_EPOCH's time).
inline constexpr const char *kEpoch = "1700000000";

/// Sets ASCEND_CUSTOM_OPP_PATH (tests/opp/axpy) and SOURCE_DATE_EPOCH for this process; call
/// before aclgrphBuildInitialize.
void SetBuildEnvironment();
/// Graph `name`: Data x1, x2 (float32 [8]) -> AxpyCustom "axpy" (alpha) -> output. Needs the
/// axpy deliverable loaded (its REG_OP prototype).
ge::Graph AxpyGraph(const char *name, float alpha);
/// The inputs AxpyGraph's tests feed, and alpha * x1 + x2 computed here.
std::vector<float> X1();
std::vector<float> X2();
std::vector<float> Expected(float alpha);

/// `atc --model=<name> --framework=1 --soc_version=<soc> --output=atc` run inside `dir` (so the
/// recorded --model is `name`, as aclgrphBuildModel records the graph's name); `env` added.
/// Returns the exit code; the output is in *log.
int AtcInDir(const std::string &dir, const std::string &name, const std::string &soc,
             const std::map<std::string, std::string> &env, std::string *log);
/// omrun `om` on X1(), X2() (raw .bin files in `dir`); the floats of output 0.
std::vector<float> RunOm(const std::string &dir, const std::string &om);

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_IR_BUILD_IR_BUILD_UTIL_H_
