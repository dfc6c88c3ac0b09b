/**
 * @file exe_graph/runtime/storage_shape.h
 * gert::StorageShape: origin shape (as the framework sees it) and storage shape (as laid out in
 * memory), GE metadef `exe_graph/runtime/storage_shape.h`. GetShape() is the origin shape.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
#define OPENATC_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_

#include <cstring>

#include "exe_graph/runtime/shape.h"

namespace gert {
struct StorageShape {
 public:
  StorageShape() { std::memset(reserved_, 0, sizeof(reserved_)); }
  StorageShape(const std::initializer_list<int64_t> &origin_shape,
               const std::initializer_list<int64_t> &storage_shape)
      : origin_shape_(origin_shape), storage_shape_(storage_shape) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  const Shape &GetOriginShape() const { return origin_shape_; }
  const Shape &GetShape() const { return origin_shape_; }
  const Shape &GetStorageShape() const { return storage_shape_; }
  Shape &MutableOriginShape() { return origin_shape_; }
  Shape &MutableShape() { return origin_shape_; }
  Shape &MutableStorageShape() { return storage_shape_; }
  bool operator==(const StorageShape &other) const {
    return origin_shape_ == other.origin_shape_ && storage_shape_ == other.storage_shape_;
  }
  bool operator!=(const StorageShape &other) const { return !(*this == other); }

 private:
  Shape origin_shape_;
  Shape storage_shape_;
  uint8_t reserved_[40];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_STORAGE_SHAPE_H_
