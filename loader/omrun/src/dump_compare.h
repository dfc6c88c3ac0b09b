// omrun --compare OTHER: two runs of one model compared node by node from their --dump folders
// (openatc/dump/node_dump.h). Outputs are matched by the name of the graph node that produced them where that
// node survives in both builds; for each, in this run's execution order, one line with cosine
// similarity, max abs and max rel error and PASS/FAIL under --atol/--rtol (the --expected_output
// rule); then the nodes each build fused away (and into which node), and the first node beyond
// tolerance. See README.md "omrun", "Comparing two builds".
#ifndef OPENATC_OMRUN_SRC_DUMP_COMPARE_H_
#define OPENATC_OMRUN_SRC_DUMP_COMPARE_H_

#include <ostream>
#include <string>

namespace openatc::omrun {

/// Compares dump folder `mine` (this run) with `other`; writes the report to `out`. Returns true
/// when every matched output is within tolerance. A folder that is not a dump: OA2305.
bool CompareDumps(const std::string &mine, const std::string &other, double atol, double rtol, std::ostream &out);

}  // namespace openatc::omrun

#endif  // OPENATC_OMRUN_SRC_DUMP_COMPARE_H_
