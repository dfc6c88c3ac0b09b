/**
 * @file graph/operator_factory.h
 * Creating operators by type name (metadef `external/graph/operator_factory.h`). REG_OP's
 * OP_END_FACTORY_REG registers a creator for its op type through OperatorCreatorRegister; the
 * first registration of a type in the process wins (later ones are ignored with a warning).
 */
#ifndef OPENATC_GRAPH_OPERATOR_FACTORY_H_
#define OPENATC_GRAPH_OPERATOR_FACTORY_H_

#include <functional>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/operator.h"

#ifndef OPENATC_SDK_API
#define OPENATC_SDK_API __attribute__((visibility("default")))
#endif

namespace ge {

/// Creates an operator of one type; the argument is the node name.
using OpCreatorV2 = std::function<Operator(const AscendString &)>;

class OPENATC_SDK_API OperatorFactory {
 public:
  /// A new node `operator_name` of type `operator_type`; an empty Operator (IsEmpty()) when no
  /// creator is registered for the type or the creator fails.
  static Operator CreateOperator(const char_t *operator_name, const char_t *operator_type);
  [[deprecated("use CreateOperator(const char_t *, const char_t *)")]] static Operator CreateOperator(
      const std::string &operator_name, const std::string &operator_type) {
    return CreateOperator(operator_name.c_str(), operator_type.c_str());
  }
  /// Every registered op type, sorted by name.
  static graphStatus GetOpsTypeList(std::vector<AscendString> &all_ops);
  static bool IsExistOp(const char_t *operator_type);
  [[deprecated("use IsExistOp(const char_t *)")]] static bool IsExistOp(const std::string &operator_type) {
    return IsExistOp(operator_type.c_str());
  }
};

/// Registers `op_creator` for `operator_type` when constructed (a static object per REG_OP).
/// The prototype (IR inputs, outputs, attributes) is captured once by creating one instance.
class OPENATC_SDK_API OperatorCreatorRegister {
 public:
  OperatorCreatorRegister(const AscendString &operator_type, const OpCreatorV2 &op_creator);
  ~OperatorCreatorRegister() = default;
};

}  // namespace ge

#endif  // OPENATC_GRAPH_OPERATOR_FACTORY_H_
