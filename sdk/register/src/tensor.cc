// ge::Shape, ge::TensorDesc, ge::Tensor (graph/tensor.h): in-memory value types of the graph API.
#include "sdk_visibility.h"

#include <cstring>
#include <utility>

#include "graph/tensor.h"
#include "utils/extern_math_util.h"

namespace ge {

class ShapeImpl {
 public:
  std::vector<int64_t> dims;
};

class TensorDescImpl {
 public:
  Shape shape;
  Shape origin_shape;
  bool origin_shape_set = false;
  Format format = FORMAT_ND;
  Format origin_format = FORMAT_ND;
  DataType dtype = DT_FLOAT;
  std::string name;
  int64_t size = 0;
  int64_t real_dim_cnt = -1;  // -1: follow the shape's rank
  Placement placement = kPlacementHost;
  std::vector<std::pair<int64_t, int64_t>> shape_range;
};

class TensorImpl {
 public:
  TensorDesc desc;
  std::vector<uint8_t> data;
};

// ---------------------------------------------------------------- Shape
Shape::Shape() : impl_(std::make_unique<ShapeImpl>()) {}
Shape::~Shape() = default;
Shape::Shape(const std::vector<int64_t> &dims) : impl_(std::make_unique<ShapeImpl>()) { impl_->dims = dims; }
Shape::Shape(const Shape &other) : impl_(std::make_unique<ShapeImpl>(*other.impl_)) {}
Shape::Shape(Shape &&other) noexcept : impl_(std::make_unique<ShapeImpl>()) { std::swap(impl_, other.impl_); }
Shape &Shape::operator=(const Shape &other) {
  if (this != &other) *impl_ = *other.impl_;
  return *this;
}
Shape &Shape::operator=(Shape &&other) noexcept {
  // Keep `other` usable: swap instead of leaving it with a null impl.
  std::swap(impl_, other.impl_);
  return *this;
}

size_t Shape::GetDimNum() const { return impl_->dims.size(); }
int64_t Shape::GetDim(size_t idx) const { return idx < impl_->dims.size() ? impl_->dims[idx] : 0; }
graphStatus Shape::SetDim(size_t idx, int64_t value) {
  if (idx >= impl_->dims.size()) {
    openatc::reg::SetSdkError("Shape::SetDim: index " + std::to_string(idx) + " is out of range for a rank-" +
                              std::to_string(impl_->dims.size()) + " shape; build the Shape with all its dims first");
    return GRAPH_FAILED;
  }
  impl_->dims[idx] = value;
  return GRAPH_SUCCESS;
}
std::vector<int64_t> Shape::GetDims() const { return impl_->dims; }
int64_t Shape::GetShapeSize() const {
  if (impl_->dims.empty()) return 0;
  int64_t product = 1;
  for (int64_t d : impl_->dims) {
    if (d < 0) return -1;
  }
  for (int64_t d : impl_->dims) {
    if (d == 0) return 0;
    if (MulOverflow(product, d, product)) return -1;
  }
  return product;
}
graphStatus Shape::SetUnknownDimNum() {
  if (impl_->dims.empty()) {
    impl_->dims = {UNKNOWN_DIM_NUM};
  } else {
    for (auto &d : impl_->dims) d = UNKNOWN_DIM;
  }
  return GRAPH_SUCCESS;
}

// ---------------------------------------------------------------- TensorDesc
TensorDesc::TensorDesc() : impl_(std::make_unique<TensorDescImpl>()) {}
TensorDesc::~TensorDesc() = default;
TensorDesc::TensorDesc(Shape shape, Format format, DataType dt) : impl_(std::make_unique<TensorDescImpl>()) {
  Update(shape, format, dt);
}
TensorDesc::TensorDesc(const TensorDesc &desc) : impl_(std::make_unique<TensorDescImpl>(*desc.impl_)) {}
TensorDesc::TensorDesc(TensorDesc &&desc) noexcept : impl_(std::make_unique<TensorDescImpl>()) {
  std::swap(impl_, desc.impl_);
}
TensorDesc &TensorDesc::operator=(const TensorDesc &desc) {
  if (this != &desc) *impl_ = *desc.impl_;
  return *this;
}
TensorDesc &TensorDesc::operator=(TensorDesc &&desc) noexcept {
  std::swap(impl_, desc.impl_);
  return *this;
}

void TensorDesc::Update(const Shape &shape, Format format, DataType dt) {
  impl_->shape = shape;
  impl_->origin_shape = shape;
  impl_->origin_shape_set = true;
  impl_->format = format;
  impl_->origin_format = format;
  impl_->dtype = dt;
}
Shape TensorDesc::GetShape() const { return impl_->shape; }
void TensorDesc::SetShape(const Shape &shape) { impl_->shape = shape; }
Shape TensorDesc::GetOriginShape() const { return impl_->origin_shape_set ? impl_->origin_shape : impl_->shape; }
void TensorDesc::SetOriginShape(const Shape &origin_shape) {
  impl_->origin_shape = origin_shape;
  impl_->origin_shape_set = true;
}
graphStatus TensorDesc::SetShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range) {
  impl_->shape_range = range;
  return GRAPH_SUCCESS;
}
graphStatus TensorDesc::GetShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const {
  range = impl_->shape_range;
  return GRAPH_SUCCESS;
}
graphStatus TensorDesc::SetUnknownDimNumShape() {
  impl_->shape = Shape(std::vector<int64_t>{UNKNOWN_DIM_NUM});
  return GRAPH_SUCCESS;
}
Format TensorDesc::GetFormat() const { return impl_->format; }
void TensorDesc::SetFormat(Format format) { impl_->format = format; }
Format TensorDesc::GetOriginFormat() const { return impl_->origin_format; }
void TensorDesc::SetOriginFormat(Format origin_format) { impl_->origin_format = origin_format; }
DataType TensorDesc::GetDataType() const { return impl_->dtype; }
void TensorDesc::SetDataType(DataType dt) { impl_->dtype = dt; }
graphStatus TensorDesc::GetName(AscendString &name) const {
  name = AscendString(impl_->name.c_str(), impl_->name.size());
  return GRAPH_SUCCESS;
}
void TensorDesc::SetName(const char_t *name) { impl_->name = name != nullptr ? name : ""; }
int64_t TensorDesc::GetSize() const { return impl_->size; }
void TensorDesc::SetSize(int64_t size) { impl_->size = size; }
int64_t TensorDesc::GetRealDimCnt() const {
  return impl_->real_dim_cnt >= 0 ? impl_->real_dim_cnt : static_cast<int64_t>(impl_->shape.GetDimNum());
}
void TensorDesc::SetRealDimCnt(int64_t real_dim_cnt) { impl_->real_dim_cnt = real_dim_cnt; }
Placement TensorDesc::GetPlacement() const { return impl_->placement; }
void TensorDesc::SetPlacement(Placement placement) { impl_->placement = placement; }

// ---------------------------------------------------------------- Tensor
Tensor::Tensor() : impl_(std::make_shared<TensorImpl>()) {}
Tensor::~Tensor() = default;
Tensor::Tensor(const TensorDesc &tensor_desc) : impl_(std::make_shared<TensorImpl>()) { impl_->desc = tensor_desc; }
Tensor::Tensor(const TensorDesc &tensor_desc, const std::vector<uint8_t> &data) : Tensor(tensor_desc) {
  impl_->data = data;
}
Tensor::Tensor(const TensorDesc &tensor_desc, const uint8_t *data, size_t size) : Tensor(tensor_desc) {
  if (data != nullptr) impl_->data.assign(data, data + size);
}
Tensor::Tensor(const Tensor &other) = default;
Tensor::Tensor(Tensor &&other) noexcept : impl_(std::make_shared<TensorImpl>()) { std::swap(impl_, other.impl_); }
Tensor &Tensor::operator=(const Tensor &other) = default;
Tensor &Tensor::operator=(Tensor &&other) noexcept {
  std::swap(impl_, other.impl_);
  return *this;
}

TensorDesc Tensor::GetTensorDesc() const { return impl_->desc; }
graphStatus Tensor::SetTensorDesc(const TensorDesc &tensor_desc) {
  impl_->desc = tensor_desc;
  return GRAPH_SUCCESS;
}
const uint8_t *Tensor::GetData() const { return impl_->data.empty() ? nullptr : impl_->data.data(); }
uint8_t *Tensor::GetData() { return impl_->data.empty() ? nullptr : impl_->data.data(); }
size_t Tensor::GetSize() const { return impl_->data.size(); }
graphStatus Tensor::SetData(const uint8_t *data, size_t size) {
  if (data == nullptr && size > 0) {
    openatc::reg::SetSdkError("Tensor::SetData: data is null but size is " + std::to_string(size) +
                              " bytes; pass a valid buffer or size 0");
    return GRAPH_PARAM_INVALID;
  }
  if (data == nullptr) {
    impl_->data.clear();
  } else {
    impl_->data.assign(data, data + size);
  }
  return GRAPH_SUCCESS;
}
graphStatus Tensor::SetData(const std::vector<uint8_t> &data) {
  impl_->data = data;
  return GRAPH_SUCCESS;
}
graphStatus Tensor::SetData(std::vector<uint8_t> &&data) {
  impl_->data = std::move(data);
  return GRAPH_SUCCESS;
}
graphStatus Tensor::SetData(const char_t *data) {
  if (data == nullptr) {
    openatc::reg::SetSdkError("Tensor::SetData: the string is null; pass a NUL-terminated string");
    return GRAPH_PARAM_INVALID;
  }
  const size_t len = std::strlen(data) + 1U;
  const auto *bytes = reinterpret_cast<const uint8_t *>(data);
  impl_->data.assign(bytes, bytes + len);
  return GRAPH_SUCCESS;
}
graphStatus Tensor::IsValid() const {
  const std::vector<int64_t> dims = impl_->desc.GetShape().GetDims();
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0 || MulOverflow(count, d, count)) return GRAPH_FAILED;
  }
  const int64_t expect = GetSizeInBytes(count, impl_->desc.GetDataType());
  if (expect < 0 || static_cast<uint64_t>(expect) != impl_->data.size()) return GRAPH_FAILED;
  return GRAPH_SUCCESS;
}
Tensor Tensor::Clone() const {
  Tensor copy(impl_->desc);
  copy.impl_->data = impl_->data;
  return copy;
}

}  // namespace ge
