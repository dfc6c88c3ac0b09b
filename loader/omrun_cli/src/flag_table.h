// omrun's one flag table (internal): name, kind, default and help line (README.md "omrun").
#ifndef OPENATC_OMRUN_CLI_FLAG_TABLE_H_
#define OPENATC_OMRUN_CLI_FLAG_TABLE_H_

#include <string>
#include <vector>

namespace openatc {
namespace omrun {

struct OmrunFlag {
  const char *name;         ///< canonical name, no dashes
  bool is_bool;             ///< takes no separate value
  const char *placeholder;  ///< "LIST", "DIR", "N", ... for the help text
  const char *default_text; ///< "" = none
  const char *help;
};

const std::vector<OmrunFlag> &OmrunFlagTable();
const OmrunFlag *FindOmrunFlag(const std::string &name);

}  // namespace omrun
}  // namespace openatc

#endif  // OPENATC_OMRUN_CLI_FLAG_TABLE_H_
