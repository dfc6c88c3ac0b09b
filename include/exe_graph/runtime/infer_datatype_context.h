/**
 * @file exe_graph/runtime/infer_datatype_context.h
 * gert::InferDataTypeContext: what ShapeInferOp::InferDataType sees (GE metadef
 * `exe_graph/runtime/infer_datatype_context.h`). Called before InferShape.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/error_codes.h"

namespace gert {
class InferDataTypeContext : public ExtendedKernelContext {
 public:
  /// DT_UNDEFINED when the index is out of range.
  ge::DataType GetInputDataType(const size_t index) const;
  ge::DataType GetOptionalInputDataType(const size_t ir_index) const;
  ge::DataType GetRequiredInputDataType(const size_t ir_index) const;
  ge::DataType GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const;
  ge::DataType GetOutputDataType(const size_t index) const;
  /// GRAPH_FAILED when the index is out of range.
  ge::graphStatus SetOutputDataType(const size_t index, const ge::DataType datatype);
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
