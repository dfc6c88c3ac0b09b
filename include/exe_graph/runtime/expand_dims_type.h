/**
 * @file exe_graph/runtime/expand_dims_type.h
 * gert::ExpandDimsType: which axes a padding rule inserts when a shape of lower rank is expanded
 * (GE metadef `exe_graph/runtime/expand_dims_type.h`). Up to 56 axes; bit i set = axis i inserted.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
#define OPENATC_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "exe_graph/runtime/shape.h"
#include "graph/error_codes.h"
#include "graph/types.h"

namespace gert {
class ExpandDimsType {
 public:
  using AxisIndex = uint64_t;
  static constexpr size_t kMaxExpandSize = 56;

  ExpandDimsType() : size_(0), mask_(0) { std::memset(reserved_, 0, sizeof(reserved_)); }
  /// A string of '0'/'1', '1' = inserted axis; ignored when longer than kMaxExpandSize.
  explicit ExpandDimsType(const ge::char_t *const expand_dims_type) : ExpandDimsType() {
    if (expand_dims_type == nullptr) return;
    const size_t len = std::strlen(expand_dims_type);
    if (len > kMaxExpandSize) return;
    size_ = len;
    for (size_t i = 0; i < len; ++i)
      if (expand_dims_type[i] == '1') SetExpandIndex(i);
  }
  explicit ExpandDimsType(const int64_t reshape_type_mask) : ExpandDimsType() {
    if (reshape_type_mask == 0) return;
    size_ = static_cast<uint64_t>(reshape_type_mask) >> kMaxExpandSize;
    mask_ = static_cast<uint64_t>(reshape_type_mask) & ((1ULL << kMaxExpandSize) - 1U);
  }
  bool operator==(const ExpandDimsType &other) const { return size_ == other.size_ && mask_ == other.mask_; }
  AxisIndex GetFullSize() const { return size_; }
  void SetExpandIndex(const AxisIndex index) {
    if (index < kMaxExpandSize) mask_ |= (1ULL << index);
  }
  bool IsExpandIndex(const AxisIndex index) const {
    return index < kMaxExpandSize && ((mask_ >> index) & 1U) != 0U;
  }
  /// Inserts size-1 axes where the rule says; GRAPH_SUCCESS with out_shape = shape when there is
  /// no rule or the shape already has the full rank.
  ge::graphStatus Expand(const Shape &shape, Shape &out_shape) const {
    if (size_ == 0 || shape.GetDimNum() >= size_) {
      out_shape = shape;
      return ge::GRAPH_SUCCESS;
    }
    Shape result;
    size_t src = 0;
    for (AxisIndex i = 0; i < size_; ++i) {
      if (IsExpandIndex(i)) {
        result.AppendDim(1);
      } else {
        if (src >= shape.GetDimNum()) return ge::GRAPH_FAILED;
        result.AppendDim(shape.GetDim(src++));
      }
    }
    out_shape = result;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Expand(Shape &shape) const {
    Shape out;
    const ge::graphStatus ret = Expand(shape, out);
    if (ret == ge::GRAPH_SUCCESS) shape = out;
    return ret;
  }

 private:
  uint64_t size_ : 8;
  uint64_t mask_ : 56;
  uint8_t reserved_[40];
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
