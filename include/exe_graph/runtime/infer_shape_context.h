/**
 * @file exe_graph/runtime/infer_shape_context.h
 * gert::InferShapeContext: what ShapeInferOp::InferShape sees (GE metadef
 * `exe_graph/runtime/infer_shape_context.h`). Input shapes are origin shapes; write each output's
 * shape through GetOutputShape (-1 = unknown dim, a single -2 = unknown rank).
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
#define OPENATC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/shape.h"

namespace gert {
enum class InputExternLayout : uint32_t { kInferShapeFunc = 1, kInferenceContext = 2 };

class InferShapeContext : public ExtendedKernelContext {
 public:
  const Shape *GetInputShape(const size_t index) const;
  /// Host data only for inputs whose value is known at compile time (Const); else address null.
  const Tensor *GetInputTensor(const size_t index) const { return InputTensor(index); }
  const Shape *GetOptionalInputShape(const size_t ir_index) const;
  const Shape *GetRequiredInputShape(const size_t ir_index) const;
  const Shape *GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const;
  const Tensor *GetOptionalInputTensor(const size_t ir_index) const { return IrInputTensor(ir_index, 0, 1); }
  const Tensor *GetRequiredInputTensor(const size_t ir_index) const { return IrInputTensor(ir_index, 0, 0); }
  const Tensor *GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
    return IrInputTensor(ir_index, relative_index, 2);
  }
  Shape *GetOutputShape(const size_t index);
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
