// Conversion of a graph built with the GE API (ge::Graph, snapshotted by reg::ViewGraph) to the
// IR graph the compiler takes (internal to libge_runner).
#ifndef OPENATC_GE_RUNNER_GRAPH_TO_IR_H_
#define OPENATC_GE_RUNNER_GRAPH_TO_IR_H_

#include <string>

#include "graph/graph.h"
#include "openatc/ir/graph.h"

namespace openatc::ge_runner {

/// Snapshots `graph` and converts it: nodes, edges, control edges, the descriptors the program
/// set (update_input_desc_* / update_output_desc_*; the rest are left for shape inference), attrs
/// and Const tensors. The result then goes through the GE IR front end's normalisation (it is
/// written as ModelDef JSON and read back), so Data `index` renumbering (GE's rule: renumber in
/// node order unless the indices are exactly 0..n-1), NetOutput completion from the graph outputs
/// and the edge checks are exactly those of `atc --framework 1`. `where` names the graph in
/// errors ("graph 3 (g)"). Throws openatc::Error: OA2404 for an empty graph, a graph without
/// outputs, a cycle or an attribute kind the IR cannot hold; front-end codes (OA10xx) otherwise.
ir::Graph GraphToIr(const ge::Graph &graph, const std::string &where);

}  // namespace openatc::ge_runner

#endif  // OPENATC_GE_RUNNER_GRAPH_TO_IR_H_
