/**
 * @file exe_graph/runtime/continuous_vector.h
 * Length-prefixed arrays stored in one block (header followed by the elements), as list
 * attributes are handed to operators (GE metadef `exe_graph/runtime/continuous_vector.h`).
 * Instances are created by the runtime; operators only read them.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
#define OPENATC_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>

#include "graph/error_codes.h"

namespace gert {
class ContinuousVector {
 public:
  /// Allocates a vector with room for `capacity` elements of T, size 0. nullptr on overflow.
  template <typename T>
  static std::unique_ptr<uint8_t[]> Create(size_t capacity, size_t &total_size) {
    if (capacity > (SIZE_MAX - sizeof(ContinuousVector)) / sizeof(T)) return nullptr;
    total_size = sizeof(ContinuousVector) + capacity * sizeof(T);
    std::unique_ptr<uint8_t[]> holder(new (std::nothrow) uint8_t[total_size]());
    if (holder != nullptr) {
      auto *v = reinterpret_cast<ContinuousVector *>(holder.get());
      v->capacity_ = capacity;
      v->size_ = 0;
    }
    return holder;
  }
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return capacity_; }
  ge::graphStatus SetSize(const size_t size) {
    if (size > capacity_) return ge::GRAPH_FAILED;
    size_ = size;
    return ge::GRAPH_SUCCESS;
  }
  const void *GetData() const { return reinterpret_cast<const uint8_t *>(this) + sizeof(*this); }
  void *MutableData() { return reinterpret_cast<uint8_t *>(this) + sizeof(*this); }

 private:
  size_t capacity_;
  size_t size_;
};

template <typename T>
class TypedContinuousVector : private ContinuousVector {
 public:
  using ContinuousVector::GetCapacity;
  using ContinuousVector::GetSize;
  using ContinuousVector::SetSize;
  const T *GetData() const { return static_cast<const T *>(ContinuousVector::GetData()); }
  T *MutableData() { return static_cast<T *>(ContinuousVector::MutableData()); }
};

/// A list of ContinuousVectors (list-of-list attributes): element i is at offset offsets[i] from
/// the start of this object.
class ContinuousVectorVector {
 public:
  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return capacity_; }
  const ContinuousVector *Get(const size_t index) const {
    if (index >= size_) return nullptr;
    return reinterpret_cast<const ContinuousVector *>(reinterpret_cast<const uint8_t *>(this) + Offsets()[index]);
  }
  /// Runtime-side construction helpers.
  void Init(size_t capacity) {
    capacity_ = capacity;
    size_ = 0;
  }
  void Append(size_t offset_from_this) { MutableOffsets()[size_++] = offset_from_this; }
  static size_t HeaderSize(size_t capacity) { return sizeof(ContinuousVectorVector) + capacity * sizeof(size_t); }

 private:
  const size_t *Offsets() const {
    return reinterpret_cast<const size_t *>(reinterpret_cast<const uint8_t *>(this) + sizeof(*this));
  }
  size_t *MutableOffsets() { return reinterpret_cast<size_t *>(reinterpret_cast<uint8_t *>(this) + sizeof(*this)); }
  size_t capacity_;
  size_t size_;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_CONTINUOUS_VECTOR_H_
