/**
 * @file register/op_impl_registry.h
 * Legacy `IMPL_OP(op_type).InferShape(fn)` registration (metadef
 * `external/register/op_impl_registry.h`; only what docs/custom-op-lifecycle.md §4.1 lists).
 * Each builder call records the function for the op type in a process-wide table inside
 * libregister.so, which OpenATC's compiler consults for ops that have no ShapeInferOp.
 * A later registration for the same op type and hook replaces the earlier one.
 */
#ifndef OPENATC_REGISTER_OP_IMPL_REGISTRY_H_
#define OPENATC_REGISTER_OP_IMPL_REGISTRY_H_

#include <cstdint>
#include <initializer_list>
#include <memory>

#include "exe_graph/runtime/infer_datatype_context.h"  // GE's header gives the hooks' contexts too
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/ascend_string.h"
#include "graph/types.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace gert {

class InferShapeContext;
class InferDataTypeContext;

/// Shape inference hook; returns a ge::graphStatus (0 = success).
using InferShapeKernelFunc = uint32_t (*)(InferShapeContext *);
/// Dtype inference hook; returns a ge::graphStatus (0 = success).
using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext *);

class OpImplRegisterV2Impl;

class OPENATC_SDK_API OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const ge::char_t *op_type);
  OpImplRegisterV2(const OpImplRegisterV2 &register_data);
  OpImplRegisterV2(OpImplRegisterV2 &&register_data) noexcept;
  OpImplRegisterV2 &operator=(const OpImplRegisterV2 &) = delete;
  OpImplRegisterV2 &operator=(OpImplRegisterV2 &&) = delete;
  ~OpImplRegisterV2();

  /// Records `infer_shape_func` for this op type (a null function is ignored with a warning).
  OpImplRegisterV2 &InferShape(InferShapeKernelFunc infer_shape_func);
  OpImplRegisterV2 &InferDataType(InferDataTypeKernelFunc infer_datatype_func);
  /// Output dtypes = dtype of input 0.
  OpImplRegisterV2 &InferOutDataTypeSameWithFirstInput();
  /// Inputs (IR indices) whose data, not just shape, shape inference reads.
  OpImplRegisterV2 &InputsDataDependency(std::initializer_list<int32_t> inputs);
  /// Outputs (IR indices) whose shape is only known after execution.
  OpImplRegisterV2 &OutputShapeDependOnCompute(std::initializer_list<int32_t> outputs);

 private:
  std::unique_ptr<OpImplRegisterV2Impl> impl_;
};

}  // namespace gert

#ifndef VAR_UNUSED
#define VAR_UNUSED __attribute__((unused))
#endif
#define OPENATC_IMPL_OP_JOIN_IMPL(a, b) a##b
#define OPENATC_IMPL_OP_JOIN(a, b) OPENATC_IMPL_OP_JOIN_IMPL(a, b)
#define OPENATC_IMPL_OP_UNIQ(op_type, n) \
  static gert::OpImplRegisterV2 VAR_UNUSED OPENATC_IMPL_OP_JOIN(op_impl_register_##op_type, n) = \
      gert::OpImplRegisterV2(#op_type)
/// `IMPL_OP(AddCustom).InferShape(InferShapeAddCustom);`
#define IMPL_OP(op_type) OPENATC_IMPL_OP_UNIQ(op_type, __COUNTER__)

#endif  // OPENATC_REGISTER_OP_IMPL_REGISTRY_H_
