/**
 * @file openatc/register/framework_registry.h
 * INTERNAL (not part of the public SDK): what REGISTER_CUSTOM_OP (register/register.h) recorded,
 * as the ONNX front end reads it, and an operator's attributes in order.
 */
#ifndef OPENATC_REGISTER_FRAMEWORK_REGISTRY_H_
#define OPENATC_REGISTER_FRAMEWORK_REGISTRY_H_

#include <string>
#include <utility>
#include <vector>

#include "openatc/register/attr_value.h"
#include "register/register.h"

namespace openatc::reg {

/// One framework mapping: origin op type (for ONNX "<domain>::<opset>::<op_type>") -> OM type.
struct FrameworkMapping {
  std::string om_type;
  std::string origin_type;
  domi::ParseParamByOpFunc parse;  ///< empty: the registration gave no parse function
};

/// The mapping registered for `origin_type` under framework `fmk` (first registration wins);
/// false when none.
OPENATC_REG_INTERNAL_API bool FindFrameworkMapping(domi::FrameworkType fmk, const std::string &origin_type,
                                                   FrameworkMapping *out);

/// Every attribute of `op` in insertion order.
OPENATC_REG_INTERNAL_API std::vector<std::pair<std::string, AttrValue>> OperatorAttrs(const ge::Operator &op);

}  // namespace openatc::reg

#endif  // OPENATC_REGISTER_FRAMEWORK_REGISTRY_H_
