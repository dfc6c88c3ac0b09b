/**
 * @file openatc/common/host_value.h
 * A model value of any ONNX kind in host memory (openatc::ir::ValueKind): a dense tensor, a
 * sequence of tensors, or an optional of either. What the runtime's native ops pass around
 * (loader/runtime/src/native_ops.h), what LoadedModel::RunValues takes and returns for models
 * whose inputs or outputs are sequences or optionals (openatc/runtime/model.h), and what omrun's
 * value files read and write (openatc/tensor_io/value_io.h).
 */
#ifndef OPENATC_COMMON_HOST_VALUE_H_
#define OPENATC_COMMON_HOST_VALUE_H_

#include <string>
#include <vector>

#include "openatc/common/host_tensor.h"
#include "openatc/ir/graph.h"

namespace openatc {

/// `kind` says which member holds the value: `tensor` for kTensor and kOptionalTensor, `seq`
/// for kSequence and kOptionalSequence. An optional's `present` false is ONNX's None (both
/// members then empty); a kTensor or kSequence value is always present. An absent optional
/// input of a node inside a run is a kTensor value with `present` false.
struct HostValue {
  ir::ValueKind kind = ir::ValueKind::kTensor;
  bool present = true;
  HostTensor tensor;
  std::vector<HostTensor> seq;
};

/// "tensor", "sequence", "optional tensor", "optional sequence" (for messages and outputs.json).
inline std::string ValueKindName(ir::ValueKind k) {
  switch (k) {
    case ir::ValueKind::kSequence: return "sequence";
    case ir::ValueKind::kOptionalTensor: return "optional tensor";
    case ir::ValueKind::kOptionalSequence: return "optional sequence";
    default: return "tensor";
  }
}

/// Whether a value of kind `k` holds a sequence (when present).
inline bool IsSequenceKind(ir::ValueKind k) {
  return k == ir::ValueKind::kSequence || k == ir::ValueKind::kOptionalSequence;
}

/// A plain tensor value.
inline HostValue TensorHostValue(HostTensor t) {
  HostValue v;
  v.tensor = std::move(t);
  return v;
}

}  // namespace openatc

#endif  // OPENATC_COMMON_HOST_VALUE_H_
