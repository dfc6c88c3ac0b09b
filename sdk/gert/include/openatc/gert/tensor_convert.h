/**
 * @file openatc/gert/tensor_convert.h
 * INTERNAL: conversions between ir::TensorDesc (graph/OM descriptors) and gert::Tensor (what
 * operator callbacks see). Storage shape/format come from TensorDesc::shape/format, origin from
 * origin_shape/origin_format (origin_shape empty and shape non-empty means "same as storage").
 */
#ifndef OPENATC_GERT_TENSOR_CONVERT_H_
#define OPENATC_GERT_TENSOR_CONVERT_H_

#include <vector>

#include "exe_graph/runtime/runtime_tensor.h"
#include "openatc/ir/graph.h"

namespace openatc::gert_impl {
gert::Shape ToGertShape(const std::vector<int64_t> &dims);
std::vector<int64_t> FromGertShape(const gert::Shape &shape);
/// A tensor with desc's shapes, formats and dtype; `addr`/`size` as given (null/0 at compile time).
void InitTensor(gert::Tensor &t, const ir::TensorDesc &desc, void *addr, size_t size,
                gert::TensorPlacement placement = gert::kOnDeviceHbm);
/// dtype, formats and shapes of `t` into `desc` (name and validity kept).
void UpdateDesc(ir::TensorDesc &desc, const gert::Tensor &t);
}  // namespace openatc::gert_impl

#endif  // OPENATC_GERT_TENSOR_CONVERT_H_
