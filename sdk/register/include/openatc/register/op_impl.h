/**
 * @file openatc/register/op_impl.h
 * INTERNAL (not part of the public SDK): what legacy `IMPL_OP(op).InferShape(fn)...` recorded
 * for an op type (register/op_impl_registry.h).
 */
#ifndef OPENATC_REGISTER_OP_IMPL_H_
#define OPENATC_REGISTER_OP_IMPL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "openatc/register/attr_value.h"
#include "register/op_impl_registry.h"

namespace openatc::reg {

struct OpImplFuncs {
  gert::InferShapeKernelFunc infer_shape = nullptr;
  gert::InferDataTypeKernelFunc infer_datatype = nullptr;
  bool output_dtype_same_as_first_input = false;
  std::vector<int32_t> inputs_data_dependency;
  std::vector<int32_t> output_shape_depend_on_compute;
};

/// False when nothing was registered for op_type; else copies the record into *out.
OPENATC_REG_INTERNAL_API bool FindOpImpl(const std::string &op_type, OpImplFuncs *out);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_OP_IMPL_H_
