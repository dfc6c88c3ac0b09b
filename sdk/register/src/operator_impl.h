// Private to libregister: the state behind a ge::Operator handle (one graph node), and
// OperatorAccess, the friend that lets library code reach it.
#ifndef OPENATC_REGISTER_SRC_OPERATOR_IMPL_H_
#define OPENATC_REGISTER_SRC_OPERATOR_IMPL_H_

#include "sdk_visibility.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.h"
#include "graph/operator.h"
#include "openatc/register/attr_value.h"
#include "openatc/register/op_prototype.h"

namespace ge {

/// One IR input/output as REG_OP declared it.
struct IrIo {
  std::string name;
  int kind = 0;  // IrInputKind / IrOutputKind value
  std::string type_expr;
  bool dynamic = false;
};

/// One flattened input or output slot.
struct IoSlot {
  std::string name;      // IR name, or "<name><i>" for a dynamic instance
  size_t ir_index = 0;   // position in ir_inputs / ir_outputs
  TensorDesc desc;
  bool desc_set = false;
  // Inputs only: the producer.
  std::shared_ptr<OperatorImpl> src;
  uint32_t src_index = 0;
};

struct SubgraphSlot {
  std::string name;
  bool dynamic = false;
  std::vector<SubgraphBuilder> builders;  // one for GRAPH, N for DYNAMIC_GRAPH
};

class OperatorImpl {
 public:
  std::string name;
  std::string type;
  std::vector<IrIo> ir_inputs;
  std::vector<IrIo> ir_outputs;
  std::vector<IoSlot> inputs;
  std::vector<IoSlot> outputs;
  std::vector<std::pair<std::string, openatc::reg::AttrValue>> attrs;  // insertion order
  std::vector<openatc::reg::IrAttr> ir_attrs;
  std::map<std::string, std::vector<DataType>> datatype_syms;
  std::vector<SubgraphSlot> subgraphs;
  std::vector<std::shared_ptr<OperatorImpl>> control_inputs;

  /// "node 'n' (type T)" for messages.
  std::string Where() const { return "node '" + name + "' (op type " + type + ")"; }
  openatc::reg::AttrValue *FindAttr(const std::string &attr_name);
  const openatc::reg::AttrValue *FindAttr(const std::string &attr_name) const;
  void PutAttr(const std::string &attr_name, openatc::reg::AttrValue value);
};

class OperatorAccess {
 public:
  static const std::shared_ptr<OperatorImpl> &Impl(const Operator &op) { return op.operator_impl_; }
};

}  // namespace ge

#endif  // OPENATC_REGISTER_SRC_OPERATOR_IMPL_H_
