/**
 * @file exe_graph/runtime/runtime_attrs.h
 * gert::RuntimeAttrs: a node's IR-declared attributes, indexed in the order the REG_OP prototype
 * declares them (ATTR / REQUIRED_ATTR), as GE hands them to operators
 * (metadef `exe_graph/runtime/runtime_attrs.h`). Unset optional attributes read as their default.
 * Pointers stay valid for the duration of the callback they were obtained in.
 */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
#define OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_

#include <cstddef>
#include <cstdint>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/runtime_tensor.h"

namespace openatc::gert_impl {
class AttrTable;
}

namespace gert {
class RuntimeAttrs {
 public:
  /// Raw pointer to attribute `index` (nullptr when out of range). The stored representation is:
  /// Int -> int64_t, Float -> float, Bool -> bool, String -> char (NUL-terminated), Type ->
  /// ge::DataType (int32), ListInt/ListFloat/ListBool/ListType -> TypedContinuousVector,
  /// ListListInt -> ContinuousVectorVector, Tensor -> gert::Tensor.
  const void *GetPointerByIndex(size_t index) const;
  template <typename T>
  const T *GetAttrPointer(size_t index) const { return static_cast<const T *>(GetPointerByIndex(index)); }
  const int64_t *GetInt(const size_t index) const { return GetAttrPointer<int64_t>(index); }
  const float *GetFloat(const size_t index) const { return GetAttrPointer<float>(index); }
  const bool *GetBool(const size_t index) const { return GetAttrPointer<bool>(index); }
  const char *GetStr(const size_t index) const { return GetAttrPointer<char>(index); }
  const Tensor *GetTensor(const size_t index) const { return GetAttrPointer<Tensor>(index); }
  const TypedContinuousVector<int64_t> *GetListInt(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
  }
  const TypedContinuousVector<float> *GetListFloat(const size_t index) const {
    return GetAttrPointer<TypedContinuousVector<float>>(index);
  }
  const ContinuousVectorVector *GetListListInt(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  const ContinuousVectorVector *GetListListFloat(const size_t index) const {
    return GetAttrPointer<ContinuousVectorVector>(index);
  }
  size_t GetAttrNum() const;

  RuntimeAttrs(const RuntimeAttrs &) = delete;
  RuntimeAttrs &operator=(const RuntimeAttrs &) = delete;

 private:
  friend class openatc::gert_impl::AttrTable;
  RuntimeAttrs() = default;
  const openatc::gert_impl::AttrTable *table_ = nullptr;
};
}  // namespace gert

#endif  // OPENATC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
