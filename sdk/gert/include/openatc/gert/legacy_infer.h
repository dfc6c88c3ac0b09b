/**
 * @file openatc/gert/legacy_infer.h
 * INTERNAL: shape and dtype inference for an op that is not a ShapeInferOp but has legacy
 * `IMPL_OP(op_type).InferShape(fn)` / `.InferDataType(fn)` hooks (register/op_impl_registry.h,
 * docs/custom-op-lifecycle.md §4.1; GE's ascendc_add_custom sample registers only InferShape).
 *
 * GE consults these hooks when the custom op has no ShapeInferOp. Without an InferDataType hook,
 * output dtypes follow the REG_OP prototype, as GE's IR-based dtype inference does: an output
 * whose type is a DATATYPE symbol (e.g. "T") takes the dtype of the first input declared with
 * the same symbol; an output whose symbol or TensorType allows exactly one dtype takes that one.
 */
#ifndef OPENATC_GERT_LEGACY_INFER_H_
#define OPENATC_GERT_LEGACY_INFER_H_

#include <string>

#include "openatc/gert/frame.h"
#include "register/op_impl_registry.h"

namespace openatc::gert_impl {

/// The legacy hooks of one op type (null when not registered).
struct LegacyInferHooks {
  gert::InferShapeKernelFunc infer_shape = nullptr;
  gert::InferDataTypeKernelFunc infer_datatype = nullptr;
  bool dtype_same_as_first_input = false;  ///< InferOutDataTypeSameWithFirstInput()
};

/// True when IMPL_OP registered an InferShape or InferDataType hook (or
/// InferOutDataTypeSameWithFirstInput) for op_type in this process; fills *out.
bool FindLegacyInferHooks(const std::string &op_type, LegacyInferHooks *out);

/// Sets every output dtype of `frame` that is still DT_UNDEFINED from the REG_OP prototype of
/// frame.node->type (rules above), or from input 0 when `same_as_first_input`. Outputs it cannot
/// decide stay DT_UNDEFINED (the caller reports them). No prototype: nothing changes.
void InferDataTypesFromPrototype(Frame &frame, bool same_as_first_input);

}  // namespace openatc::gert_impl

#endif  // OPENATC_GERT_LEGACY_INFER_H_
