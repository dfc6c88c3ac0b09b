/**
 * @file exe_graph/runtime/runtime_tensor.h
 * gert::Tensor: shape (origin + storage), format, dtype and data of one tensor, as operator
 * callbacks see it (GE metadef `exe_graph/runtime/runtime_tensor.h`). Header-only; the byte-size
 * constructor uses ge::GetSizeInBytes from libregister.so.
 *
 * Addresses: at compile time (OpCompileContext) GetAddr() is null and GetSize() 0; in
 * EagerOpExecutionContext they are host addresses of the host runtime's "device" memory.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
#define OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_

#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "exe_graph/runtime/storage_format.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tensor_data.h"
#include "graph/types.h"

namespace gert {
enum TensorVersion : uint8_t { kTensorV1 = 0, kTensorV2 = 1 };

class Tensor {
 public:
  Tensor() : version_(kTensorV1), reserved_{0, 0, 0}, data_type_(ge::DT_UNDEFINED) {
    std::memset(reserved_field_, 0, sizeof(reserved_field_));
  }
  Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, ge::DataType data_type)
      : storage_shape_(storage_shape), storage_format_(storage_format), version_(kTensorV1), reserved_{0, 0, 0},
        data_type_(data_type) {
    std::memset(reserved_field_, 0, sizeof(reserved_field_));
  }
  Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
         const ge::DataType data_type, TensorData::TensorAddress addr)
      : Tensor(storage_shape, storage_format, placement, data_type, addr, nullptr) {}
  Tensor(const StorageShape &storage_shape, const StorageFormat &storage_format, const TensorPlacement placement,
         const ge::DataType data_type, TensorData::TensorAddress addr, TensorData::TensorAddrManager manager)
      : storage_shape_(storage_shape), storage_format_(storage_format), version_(kTensorV1), reserved_{0, 0, 0},
        data_type_(data_type),
        tensor_data_(addr, manager,
                     static_cast<size_t>(SizeOrZero(storage_shape.GetStorageShape().GetShapeSize(), data_type)),
                     placement) {
    std::memset(reserved_field_, 0, sizeof(reserved_field_));
  }

  const void *GetAddr() const {
    if (tensor_data_.GetPlacement() == kFollowing) return reinterpret_cast<const uint8_t *>(this) + sizeof(*this);
    return tensor_data_.GetAddr();
  }
  void *GetAddr() {
    if (tensor_data_.GetPlacement() == kFollowing) return reinterpret_cast<uint8_t *>(this) + sizeof(*this);
    return tensor_data_.GetAddr();
  }
  template <class T>
  const T *GetData() const { return static_cast<const T *>(GetAddr()); }
  template <class T>
  T *GetData() { return static_cast<T *>(GetAddr()); }
  void SetData(TensorData &&data) { tensor_data_ = std::move(data); }

  size_t GetSize() const { return tensor_data_.GetSize(); }
  void SetSize(const size_t size) { tensor_data_.SetSize(size); }
  /// Element count of the storage shape.
  int64_t GetShapeSize() const { return storage_shape_.GetStorageShape().GetShapeSize(); }

  ge::DataType GetDataType() const { return data_type_; }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }

  const StorageShape &GetShape() const { return storage_shape_; }
  StorageShape &GetShape() { return storage_shape_; }
  const Shape &GetStorageShape() const { return storage_shape_.GetStorageShape(); }
  Shape &MutableStorageShape() { return storage_shape_.MutableStorageShape(); }
  const Shape &GetOriginShape() const { return storage_shape_.GetOriginShape(); }
  Shape &MutableOriginShape() { return storage_shape_.MutableOriginShape(); }

  const StorageFormat &GetFormat() const { return storage_format_; }
  StorageFormat &MutableFormat() { return storage_format_; }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }
  ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
  void SetExpandDimsType(const ExpandDimsType &expand_dims_type) { storage_format_.SetExpandDimsType(expand_dims_type); }

  TensorPlacement GetPlacement() const { return tensor_data_.GetPlacement(); }
  void SetPlacement(const TensorPlacement placement) { tensor_data_.SetPlacement(placement); }
  const TensorData &GetTensorData() const { return tensor_data_; }
  TensorData &MutableTensorData() { return tensor_data_; }
  TensorVersion GetVersion() const { return version_; }

  /// A Tensor followed by room for its data (placement kFollowing). nullptr on a bad size.
  static std::unique_ptr<uint8_t[]> CreateFollowing(const int64_t shape_size, const ge::DataType dt,
                                                    size_t &total_size) {
    const int64_t bytes = ge::GetSizeInBytes(shape_size, dt);
    if (bytes < 0) return nullptr;
    return CreateFollowing(dt, static_cast<size_t>(bytes), total_size);
  }
  static std::unique_ptr<uint8_t[]> CreateFollowing(const ge::DataType dt, const size_t tensor_size,
                                                    size_t &total_size) {
    if (tensor_size > SIZE_MAX - sizeof(Tensor)) return nullptr;
    total_size = sizeof(Tensor) + tensor_size;
    std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total_size]);
    if (holder == nullptr) return nullptr;
    auto *t = new (holder.get()) Tensor({}, {}, kFollowing, dt, nullptr);
    t->SetSize(tensor_size);
    return holder;
  }

 private:
  static int64_t SizeOrZero(int64_t shape_size, ge::DataType dt) {
    const int64_t n = ge::GetSizeInBytes(shape_size, dt);
    return n < 0 ? 0 : n;
  }
  StorageShape storage_shape_;
  StorageFormat storage_format_;
  TensorVersion version_;
  uint8_t reserved_[3] __attribute__((unused));  // layout padding kept for ABI size
  ge::DataType data_type_;
  TensorData tensor_data_;
  uint8_t reserved_field_[40];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_TENSOR_H_
