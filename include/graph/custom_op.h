/**
 * @file graph/custom_op.h
 * The GE custom-operator API (GE `graph/custom_op.h`): ge::BaseCustomOp, its six capability
 * interfaces, and registration with REG_AUTO_MAPPING_OP.
 *
 * An operator class derives (virtually) from any mix of the capability interfaces; OpenATC
 * detects capabilities as GE does (dynamic_cast, see docs/custom-op-lifecycle.md §2) and calls them
 * in GE's lifecycle (one object per op type per registry, Compile once per node, Serialize once per
 * op type, Deserialize on the per-model object; docs/custom-op-lifecycle.md §10).
 *
 * REG_AUTO_MAPPING_OP(Class) registers op type "#Class" (the macro argument as written) with a
 * creator returning `new Class()`. The first registration of an op type in a process wins.
 * Callbacks return ge::graphStatus; they must not let exceptions escape (OpenATC catches them and
 * reports the node, op type, callback and deliverable).
 */
#ifndef OPENATC_GRAPH_CUSTOM_OP_H_
#define OPENATC_GRAPH_CUSTOM_OP_H_

#include <cstdint>
#include <functional>
// <iostream>: GE's custom_op.h provides it transitively, and deliverables written against it
// (std::cerr in their error paths) compile only with it.
#include <iostream>
#include <memory>
#include <vector>

#include "exe_graph/runtime/annotated_args_context.h"
#include "exe_graph/runtime/eager_op_execution_context.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/op_compile_context.h"
#include "exe_graph/runtime/update_args_context.h"
#include "graph/ascend_string.h"
#include "graph/error_codes.h"

namespace ge {
class BaseCustomOp {
 public:
  virtual ~BaseCustomOp() = default;
};

/// Carries compile results into the OM: Serialize at `atc` save time (once per op type, on the
/// compiling object), Deserialize at OM load (on a fresh object). The buffer is opaque.
class PortableOp : virtual public BaseCustomOp {
 public:
  ~PortableOp() override = default;
  virtual graphStatus Serialize(std::vector<uint8_t> &buffer) = 0;
  virtual graphStatus Deserialize(const std::vector<uint8_t> &buffer) = 0;
};

/// Compiles kernels for the target at graph-compile time, once per node.
class CompilableOp : virtual public BaseCustomOp {
 public:
  ~CompilableOp() override = default;
  virtual graphStatus Compile(gert::OpCompileContext *ctx) = 0;
};

/// Launches kernels. Static models call it once per node at load and replay the launches.
class EagerExecuteOp : virtual public BaseCustomOp {
 public:
  ~EagerExecuteOp() override = default;
  virtual graphStatus Execute(gert::EagerOpExecutionContext *ctx) = 0;
};

/// Declares launches at compile time (GE 9.2.0); the runtime launches them with no callback.
class AnnotatedArgsOp : virtual public BaseCustomOp {
 public:
  ~AnnotatedArgsOp() override = default;
  virtual graphStatus DeclareLaunchArgs(gert::AnnotatedArgsContext &ctx) = 0;
};

/// Patches recorded host args before a replay whose input/output addresses changed.
class ArgsUpdater : virtual public BaseCustomOp {
 public:
  ~ArgsUpdater() override = default;
  virtual graphStatus UpdateHostArgs(gert::UpdateArgsContext *ctx) = 0;
};

/// Output dtypes (InferDataType, called first) and shapes (InferShape).
class ShapeInferOp : virtual public BaseCustomOp {
 public:
  ~ShapeInferOp() override = default;
  virtual graphStatus InferShape(gert::InferShapeContext *ctx) = 0;
  virtual graphStatus InferDataType(gert::InferDataTypeContext *ctx) = 0;
};

using BaseOpCreator = std::function<std::unique_ptr<BaseCustomOp>()>;
using CustomOpCreateFunc = ge::BaseCustomOp *(*)();

/// Registers an op type. The function-pointer form (what REG_AUTO_MAPPING_OP uses) also records
/// the creator in the deliverable's own list (the pull ABI an OM loader reads); the std::function
/// form registers process-wide only.
class CustomOpCreatorRegister {
 public:
  CustomOpCreatorRegister(const AscendString &operator_type, const BaseOpCreator &op_creator);
  CustomOpCreatorRegister(const AscendString &operator_type, const CustomOpCreateFunc op_creator);
  ~CustomOpCreatorRegister() = default;
};
}  // namespace ge

#define REG_JOIN(g_register, y) g_register##y
#define REG_AUTO_MAPPING_OP(custom_op_class) REG_AUTO_MAPPING_OP_UNIQ(__COUNTER__, custom_op_class)
#define REG_AUTO_MAPPING_OP_UNIQ(ctr, custom_op_class) REG_AUTO_MAPPING_OP_UNIQ_IMPL(ctr, custom_op_class)
#define REG_AUTO_MAPPING_OP_UNIQ_IMPL(ctr, custom_op_class)                                        \
  static ge::BaseCustomOp *REG_JOIN(custom_op_pull_creator, ctr)() { return new custom_op_class(); } \
  static const ge::CustomOpCreatorRegister REG_JOIN(custom_op_register, ctr)(                       \
      #custom_op_class, REG_JOIN(custom_op_pull_creator, ctr))

#endif  // OPENATC_GRAPH_CUSTOM_OP_H_
