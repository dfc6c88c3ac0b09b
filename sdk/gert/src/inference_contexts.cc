// gert::InferShapeContext and InferDataTypeContext over the Frame's tensors (origin shapes, dtypes).
#include "openatc/gert/frame.h"

namespace gert {

const Shape *InferShapeContext::GetInputShape(const size_t index) const {
  const Tensor *t = InputTensor(index);
  return t ? &t->GetOriginShape() : nullptr;
}
const Shape *InferShapeContext::GetOptionalInputShape(const size_t ir_index) const {
  const Tensor *t = IrInputTensor(ir_index, 0, 1);
  return t ? &t->GetOriginShape() : nullptr;
}
const Shape *InferShapeContext::GetRequiredInputShape(const size_t ir_index) const {
  const Tensor *t = IrInputTensor(ir_index, 0, 0);
  return t ? &t->GetOriginShape() : nullptr;
}
const Shape *InferShapeContext::GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
  const Tensor *t = IrInputTensor(ir_index, relative_index, 2);
  return t ? &t->GetOriginShape() : nullptr;
}
Shape *InferShapeContext::GetOutputShape(const size_t index) {
  Tensor *t = OutputTensor(index);
  return t ? &t->MutableOriginShape() : nullptr;
}

ge::DataType InferDataTypeContext::GetInputDataType(const size_t index) const {
  const Tensor *t = InputTensor(index);
  return t ? t->GetDataType() : ge::DT_UNDEFINED;
}
ge::DataType InferDataTypeContext::GetOptionalInputDataType(const size_t ir_index) const {
  const Tensor *t = IrInputTensor(ir_index, 0, 1);
  return t ? t->GetDataType() : ge::DT_UNDEFINED;
}
ge::DataType InferDataTypeContext::GetRequiredInputDataType(const size_t ir_index) const {
  const Tensor *t = IrInputTensor(ir_index, 0, 0);
  return t ? t->GetDataType() : ge::DT_UNDEFINED;
}
ge::DataType InferDataTypeContext::GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const {
  const Tensor *t = IrInputTensor(ir_index, relative_index, 2);
  return t ? t->GetDataType() : ge::DT_UNDEFINED;
}
ge::DataType InferDataTypeContext::GetOutputDataType(const size_t index) const {
  const Tensor *t = OutputTensor(index);
  return t ? t->GetDataType() : ge::DT_UNDEFINED;
}
ge::graphStatus InferDataTypeContext::SetOutputDataType(const size_t index, const ge::DataType datatype) {
  Tensor *t = OutputTensor(index);
  if (t == nullptr) return ge::GRAPH_FAILED;
  t->SetDataType(datatype);
  return ge::GRAPH_SUCCESS;
}

}  // namespace gert
