/**
 * @file graph/tensor.h
 * The graph-building tensor API of GE (metadef `external/graph/tensor.h`): ge::Shape,
 * ge::TensorDesc and ge::Tensor. Sample graph builders use them to describe Data nodes and to
 * hold input/output data (docs/custom-op-lifecycle.md §11).
 *
 * ABI: every class holds only a pointer to library-side state and every method that touches
 * strings takes or returns `const char *` / AscendString, so code built with
 * `-D_GLIBCXX_USE_CXX11_ABI=0` links against libregister.so unchanged.
 */
#ifndef OPENATC_GRAPH_TENSOR_H_
#define OPENATC_GRAPH_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/types.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace ge {

class ShapeImpl;
class TensorDescImpl;
class TensorImpl;

/// Dimension value meaning "unknown size" (GE UNKNOWN_DIM).
constexpr int64_t UNKNOWN_DIM = -1;
/// Single dimension value meaning "unknown rank" (GE UNKNOWN_DIM_NUM).
constexpr int64_t UNKNOWN_DIM_NUM = -2;

/// A list of dimensions (value semantics: copies are deep).
class OPENATC_SDK_API Shape {
 public:
  /// Rank-0 (scalar) shape.
  Shape();
  ~Shape();
  explicit Shape(const std::vector<int64_t> &dims);
  Shape(const Shape &other);
  Shape(Shape &&other) noexcept;
  Shape &operator=(const Shape &other);
  Shape &operator=(Shape &&other) noexcept;

  size_t GetDimNum() const;
  /// Dimension `idx`; 0 when `idx` is out of range (GE behaviour).
  int64_t GetDim(size_t idx) const;
  /// GRAPH_FAILED when `idx` >= GetDimNum().
  graphStatus SetDim(size_t idx, int64_t value);
  std::vector<int64_t> GetDims() const;
  /// Product of the dims. GE graph-API rules: 0 for a rank-0 shape, -1 when a dim is negative
  /// (unknown), 0 when any dim is 0, -1 when the product overflows int64.
  int64_t GetShapeSize() const;
  /// Sets every dim to -1 keeping the rank; a rank-0 shape becomes [-2] (unknown rank).
  graphStatus SetUnknownDimNum();

 private:
  std::unique_ptr<ShapeImpl> impl_;
};

/// Shape, format, dtype and name of one tensor (value semantics: copies are deep).
class OPENATC_SDK_API TensorDesc {
 public:
  /// Rank-0 shape, FORMAT_ND, DT_FLOAT.
  TensorDesc();
  ~TensorDesc();
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);
  TensorDesc(const TensorDesc &desc);
  TensorDesc(TensorDesc &&desc) noexcept;
  TensorDesc &operator=(const TensorDesc &desc);
  TensorDesc &operator=(TensorDesc &&desc) noexcept;

  /// Sets shape, format and dtype at once (origin shape/format too, as GE does).
  void Update(const Shape &shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT);
  Shape GetShape() const;
  void SetShape(const Shape &shape);
  Shape GetOriginShape() const;
  void SetOriginShape(const Shape &origin_shape);
  /// Dynamic-shape bounds, one (min, max) pair per dim; max -1 = unbounded.
  graphStatus SetShapeRange(const std::vector<std::pair<int64_t, int64_t>> &range);
  graphStatus GetShapeRange(std::vector<std::pair<int64_t, int64_t>> &range) const;
  /// Makes the shape [-2] (unknown rank).
  graphStatus SetUnknownDimNumShape();

  Format GetFormat() const;
  void SetFormat(Format format);
  Format GetOriginFormat() const;
  void SetOriginFormat(Format origin_format);
  DataType GetDataType() const;
  void SetDataType(DataType dt);

  /// Tensor name (GE keeps it for graph inputs/outputs); "" when unset.
  graphStatus GetName(AscendString &name) const;
  void SetName(const char_t *name);
  [[deprecated("use SetName(const char_t *)")]] void SetName(const std::string &name) {
    SetName(name.c_str());
  }

  /// Data size in bytes recorded on the descriptor (not computed); 0 when unset.
  int64_t GetSize() const;
  void SetSize(int64_t size);
  /// Rank actually used (GE RealDimCnt); defaults to the shape's rank.
  int64_t GetRealDimCnt() const;
  void SetRealDimCnt(int64_t real_dim_cnt);
  Placement GetPlacement() const;
  void SetPlacement(Placement placement);

 private:
  std::unique_ptr<TensorDescImpl> impl_;
};

/// A descriptor plus host data bytes. Copies share the data (as in GE); Clone() deep-copies.
class OPENATC_SDK_API Tensor {
 public:
  /// Empty tensor: default TensorDesc, no data.
  Tensor();
  ~Tensor();
  explicit Tensor(const TensorDesc &tensor_desc);
  Tensor(const TensorDesc &tensor_desc, const std::vector<uint8_t> &data);
  /// Copies `size` bytes from `data` (no copy when `data` is null).
  Tensor(const TensorDesc &tensor_desc, const uint8_t *data, size_t size);
  Tensor(const Tensor &other);
  Tensor(Tensor &&other) noexcept;
  Tensor &operator=(const Tensor &other);
  Tensor &operator=(Tensor &&other) noexcept;

  TensorDesc GetTensorDesc() const;
  graphStatus SetTensorDesc(const TensorDesc &tensor_desc);

  /// Host bytes, or nullptr when the tensor has no data.
  const uint8_t *GetData() const;
  uint8_t *GetData();
  /// Data size in bytes.
  size_t GetSize() const;
  /// Replaces the data with a copy of `size` bytes; GRAPH_PARAM_INVALID when `data` is null and
  /// `size` > 0.
  graphStatus SetData(const uint8_t *data, size_t size);
  graphStatus SetData(const std::vector<uint8_t> &data);
  graphStatus SetData(std::vector<uint8_t> &&data);
  /// Stores a NUL-terminated string as DT_STRING-style bytes (the text plus its NUL).
  graphStatus SetData(const char_t *data);
  /// GRAPH_SUCCESS when the data size equals GetSizeInBytes(shape size, dtype) of the descriptor
  /// (a rank-0 shape counts 1 element); GRAPH_FAILED otherwise.
  graphStatus IsValid() const;
  /// Deep copy (descriptor and data).
  Tensor Clone() const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

}  // namespace ge

#endif  // OPENATC_GRAPH_TENSOR_H_
