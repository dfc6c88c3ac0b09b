/**
 * @file ops/common/scatter_elements.h
 * The shared body of ScatterElements (ONNX ScatterElements-16) and the deprecated Scatter
 * (ONNX Scatter-9/11, which is ScatterElements without `reduction`):
 *   inputs data (rank r >= 1, any dtype), indices (int32/int64, rank r), updates (indices' shape,
 *   data's dtype); output = a copy of data where, for every position p of indices,
 *   output[p with the axis coordinate replaced by indices[p]] is set to (none), added to (add) or
 *   multiplied by (mul) updates[p], in row-major order of p (duplicates with "none": the last
 *   wins). Negative indices count from the end; out-of-range indices fail with their position.
 */
#ifndef OPENATC_OPS_COMMON_SCATTER_ELEMENTS_H_
#define OPENATC_OPS_COMMON_SCATTER_ELEMENTS_H_

#include "common/index_util.h"

namespace openatc_ops {

/// InferDataType of both ops: indices int32/int64, updates of data's dtype; output = data's.
ge::graphStatus ScatterElementsDtype(gert::InferDataTypeContext *ctx);

/// InferShape of both ops: output shape = data's (ranks/dims checked when known).
ge::graphStatus ScatterElementsShape(gert::InferShapeContext *ctx, int64_t axis);

/// Execute of both ops with the `axis` attribute value and reduction.
ge::graphStatus ScatterElementsRun(gert::EagerOpExecutionContext *ctx, int64_t axis, Reduction r);

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_SCATTER_ELEMENTS_H_
