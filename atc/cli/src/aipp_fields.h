// The fields of one AIPP `aipp_op` block: typed setters with GE's ranges and the block checks
// (docs/atc-deploy-flags.md §2). Internal to atc/cli.
#ifndef OPENATC_ATC_CLI_AIPP_FIELDS_H_
#define OPENATC_ATC_CLI_AIPP_FIELDS_H_

#include <set>
#include <string>

#include "openatc/atc/aipp_config.h"

namespace openatc {
namespace atc {

/// Sets field `key` of `op` from the token `value` (`quoted`: it was a "string"). Throws E10001
/// naming `file`, `line` and the field for an unknown key, a wrong type or a value out of range.
void SetAippField(AippOp &op, const std::string &key, const std::string &value, bool quoted, int line,
                  const std::string &file);

/// Block rules once all fields are read (`given`: the keys the block set): aipp_mode required,
/// input_format for static, max_src_image_size for dynamic, crop and padding inside the image;
/// then GE's defaults (CSC matrix and biases). Throws E10001 naming the block's line.
void CheckAippBlock(AippOp &op, const std::set<std::string> &given, const std::string &file);

}  // namespace atc
}  // namespace openatc

#endif  // OPENATC_ATC_CLI_AIPP_FIELDS_H_
