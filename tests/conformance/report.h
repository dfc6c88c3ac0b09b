// The conformance report (docs/conformance.md): totals per folder, tier-1 summary, per-case table.
#ifndef OPENATC_TESTS_CONFORMANCE_REPORT_H_
#define OPENATC_TESTS_CONFORMANCE_REPORT_H_

#include <string>
#include <vector>

#include "runner.h"

namespace openatc::conformance {

/// Writes the markdown report to `path`. `tier1` lists the tier-1 case ids (may be empty).
/// `intro`: the title and paragraphs before "## Totals" (empty: the Debian set's).
void WriteReport(const std::string &path, const std::vector<CaseResult> &results, const std::vector<std::string> &tier1,
                 const std::string &intro = "");

}  // namespace openatc::conformance

#endif  // OPENATC_TESTS_CONFORMANCE_REPORT_H_
