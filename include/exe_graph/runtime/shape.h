/**
 * @file exe_graph/runtime/shape.h
 * gert::Shape: a fixed-capacity (25 dims) tensor shape, header-only, as GE defines it
 * (metadef `exe_graph/runtime/shape.h`). A dim of -1 is unknown; a single dim -2 is unknown rank;
 * zero dims is a scalar (GetShapeSize() == 1).
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_SHAPE_H_
#define OPENATC_EXE_GRAPH_RUNTIME_SHAPE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "utils/extern_math_util.h"

namespace gert {
struct Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();

  Shape() : dim_num_(0), dims_{0} { std::memset(reserved_, 0, sizeof(reserved_)); }
  /// More than kMaxDimNum dims leaves the shape empty, as GE does.
  Shape(const std::initializer_list<int64_t> &args) : Shape() {
    if (args.size() > kMaxDimNum) return;
    dim_num_ = args.size();
    size_t i = 0;
    for (int64_t d : args) dims_[i++] = d;
  }
  Shape(const Shape &other) : Shape() { CopyFrom(other); }
  Shape &operator=(const Shape &other) {
    if (this != &other) CopyFrom(other);
    return *this;
  }

  bool operator==(const Shape &rhs) const {
    if (dim_num_ != rhs.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i)
      if (dims_[i] != rhs.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape &rhs) const { return !(*this == rhs); }

  /// Product of the dims; 1 for a scalar; kInvalidDimValue on int64 overflow.
  int64_t GetShapeSize() const {
    int64_t size = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (ge::MulOverflow(size, dims_[i], size)) return kInvalidDimValue;
    }
    return size;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(const size_t dim_num) { dim_num_ = dim_num > kMaxDimNum ? kMaxDimNum : dim_num; }
  /// kInvalidDimValue when idx >= kMaxDimNum.
  int64_t GetDim(const size_t idx) const { return idx < kMaxDimNum ? dims_[idx] : kInvalidDimValue; }
  /// Ignored when idx >= kMaxDimNum. Like GE, raises the dim count only to idx (call SetDimNum).
  void SetDim(size_t idx, const int64_t dim_value) {
    if (idx >= kMaxDimNum) return;
    dims_[idx] = dim_value;
    if (dim_num_ < idx) dim_num_ = idx;
  }
  /// Ignored when the shape already has kMaxDimNum dims.
  Shape &AppendDim(const int64_t value) {
    if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = value;
    return *this;
  }
  const int64_t &operator[](const size_t idx) const { return dims_[idx]; }
  int64_t &operator[](const size_t idx) { return dims_[idx]; }

 private:
  void CopyFrom(const Shape &other) {
    dim_num_ = other.dim_num_ > kMaxDimNum ? kMaxDimNum : other.dim_num_;
    for (size_t i = 0; i < kMaxDimNum; ++i) dims_[i] = i < dim_num_ ? other.dims_[i] : 0;
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  size_t dim_num_;
  int64_t dims_[kMaxDimNum];
  uint8_t reserved_[40];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_SHAPE_H_
