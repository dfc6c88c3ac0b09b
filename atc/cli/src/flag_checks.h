// The checks of ATC's deployment flags after parsing (internal to atc/cli; docs/atc-deploy-flags.md).
#ifndef OPENATC_ATC_CLI_FLAG_CHECKS_H_
#define OPENATC_ATC_CLI_FLAG_CHECKS_H_

#include <string>

#include "openatc/atc/options.h"

namespace openatc {
namespace atc {

/// ATC's error code for a value outside a flag's allowed set: E10005 for the true/false flags
/// --allow_hf32 and --save_original_model, E10006 for --external_weight, else E10001.
const char *AllowedValueCode(const std::string &flag);

/// The value of other flag `name`, "" when it was not given.
std::string FlagValue(const Options &o, const std::string &name);

/// --singleop's rules (docs/atc-deploy-flags.md §5): --output and --soc_version required (E10054),
/// the JSON file must exist (E10023), --model, --framework, --insert_op_conf,
/// --display_model_info=1 and --mode other than 0 refused (E10001).
void CheckSingleOp(const Options &o);

/// Everything else of docs/atc-deploy-flags.md: gears, precision modes and their files,
/// --output_type, --insert_op_conf and its combinations, --raw_ge_options, ...
void CheckDeploymentFlags(const Options &o);

/// The gear flags and --input_shape_range against --input_shape (gear_flags.cc).
void CheckGearFlags(const Options &o);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_CLI_FLAG_CHECKS_H_
