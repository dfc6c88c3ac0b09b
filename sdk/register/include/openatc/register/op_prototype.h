/**
 * @file openatc/register/op_prototype.h
 * INTERNAL (not part of the public SDK): the REG_OP prototypes registered in this process,
 * for OpenATC's compiler. A prototype is captured when the op's OperatorCreatorRegister runs
 * (a static initialiser of the TU or deliverable .so that expanded REG_OP): the creator is
 * called once and the IR the instance recorded is copied here. First registration of a type wins.
 */
#ifndef OPENATC_REGISTER_OP_PROTOTYPE_H_
#define OPENATC_REGISTER_OP_PROTOTYPE_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "openatc/register/attr_value.h"

namespace openatc::reg {

enum class IrInputKind { kRequired, kOptional, kDynamic };
enum class IrOutputKind { kRequired, kDynamic };

struct IrAttr {
  std::string name;
  /// The REG_OP type token as written: "Int", "Float", "String", "AscendString", "Bool",
  /// "Tensor", "Type", "NamedAttrs", "ListInt", "ListFloat", "ListString", "ListAscendString",
  /// "ListBool", "ListTensor", "Bytes", "ListListInt", "ListType", "ListNamedAttrs".
  std::string type;
  bool required = false;
  /// Typed default of an ATTR (monostate for REQUIRED_ATTR).
  AttrValue default_value;
  /// AttrValueToText(default_value); "" for REQUIRED_ATTR.
  std::string default_text;
};

struct OpPrototype {
  std::string op_type;
  std::vector<std::pair<std::string, IrInputKind>> inputs;    ///< IR order
  std::vector<std::pair<std::string, IrOutputKind>> outputs;  ///< IR order
  std::vector<IrAttr> attrs;                                  ///< IR order
  /// The stringized type argument of each input/output, parallel to inputs/outputs, e.g.
  /// "TensorType({DT_FLOAT, DT_FLOAT16})" or a DATATYPE symbol such as "T".
  std::vector<std::string> input_type_exprs;
  std::vector<std::string> output_type_exprs;
  /// DATATYPE(sym, TensorType{...}) declarations: symbol -> allowed dtypes.
  std::map<std::string, std::vector<ge::DataType>> datatype_syms;
  /// GRAPH(name) -> false, DYNAMIC_GRAPH(name) -> true, in IR order.
  std::vector<std::pair<std::string, bool>> subgraphs;
};

/// nullptr if no REG_OP prototype is registered for op_type (in this process). The pointer stays
/// valid for the life of the process.
OPENATC_REG_INTERNAL_API const OpPrototype *FindOpPrototype(const std::string &op_type);
/// Every op type with a registered prototype, sorted.
OPENATC_REG_INTERNAL_API std::vector<std::string> RegisteredPrototypeTypes();

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_OP_PROTOTYPE_H_
