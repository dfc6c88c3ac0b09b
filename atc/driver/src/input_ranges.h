// Private to the atc driver: --input_shape ranges ("lo~hi") carried into the OM.
#ifndef OPENATC_ATC_DRIVER_SRC_INPUT_RANGES_H_
#define OPENATC_ATC_DRIVER_SRC_INPUT_RANGES_H_

#include <vector>

#include "openatc/atc/options.h"
#include "openatc/ir/graph.h"

namespace openatc::atc {

/// Node attr of a Data node (ListListInt, one [lo, hi] per dim, hi -1 = unbounded) that bounds
/// the shapes the runtime accepts for that input (loader/runtime executor, OA2202).
inline constexpr const char *kInputShapeRangeAttr = "_input_shape_range";

/// Sets kInputShapeRangeAttr on each Data node whose --input_shape entry has a bounded range
/// ("lo~hi"); entries of only fixed dims and -1 set nothing. Names that are not Data nodes are
/// left to the compiler's --input_shape check.
void ApplyInputShapeRanges(ir::Graph &graph, const std::vector<InputShape> &shapes);

}  // namespace openatc::atc

#endif  // OPENATC_ATC_DRIVER_SRC_INPUT_RANGES_H_
