// ir::TensorDesc <-> gert::Tensor.
#include "openatc/gert/tensor_convert.h"

namespace openatc::gert_impl {

gert::Shape ToGertShape(const std::vector<int64_t> &dims) {
  gert::Shape s;
  for (int64_t d : dims) s.AppendDim(d);
  return s;
}

std::vector<int64_t> FromGertShape(const gert::Shape &shape) {
  std::vector<int64_t> dims(shape.GetDimNum());
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = shape.GetDim(i);
  return dims;
}

void InitTensor(gert::Tensor &t, const ir::TensorDesc &desc, void *addr, size_t size,
                gert::TensorPlacement placement) {
  t.MutableStorageShape() = ToGertShape(desc.shape);
  t.MutableOriginShape() = ToGertShape(desc.origin_shape.empty() ? desc.shape : desc.origin_shape);
  t.SetStorageFormat(desc.format);
  t.SetOriginFormat(desc.origin_format);
  t.SetDataType(desc.dtype);
  t.MutableTensorData() = gert::TensorData(addr, nullptr, size, placement);
}

void UpdateDesc(ir::TensorDesc &desc, const gert::Tensor &t) {
  desc.dtype = t.GetDataType();
  desc.format = t.GetStorageFormat();
  desc.origin_format = t.GetOriginFormat();
  desc.shape = FromGertShape(t.GetStorageShape());
  desc.origin_shape = FromGertShape(t.GetOriginShape());
}

}  // namespace openatc::gert_impl
