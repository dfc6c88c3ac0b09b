/**
 * @file register/register.h
 * GE's parser-plugin registration (GE `register/register.h`), the protobuf-free form:
 *
 *   namespace domi {
 *   REGISTER_CUSTOM_OP("AxpyCustom")
 *       .FrameworkType(ONNX)
 *       .OriginOpType("custom.ops::1::AddCust")   // "<domain>::<opset>::<op_type>"
 *       .ParseParamsByOperatorFn(ParseAddCust);   // or AutoMappingByOpFn
 *   }
 *
 * The ONNX front end turns a node whose "<domain>::<opset>::<op_type>" (default domain
 * "ai.onnx", opset = the model's opset import of that domain) equals a registered OriginOpType
 * into a node of the registered type. The parse function gets `src`, an operator of the ONNX op
 * type carrying the node's attributes under their ONNX names, and fills `dst`, an operator of the
 * registered type; the node keeps exactly dst's attributes. AutoMappingByOpFn copies every
 * attribute by name. Registrations come from plugin libraries in `<root>/framework/onnx/` of each
 * ASCEND_CUSTOM_OPP_PATH root and from the deliverables atc loads (README.md, ONNX models).
 * The first registration of an origin key in a process wins. ParseParamsFn (the protobuf form)
 * is not offered: plugins built against GE's renamed protobuf cannot run in this process.
 */
#ifndef OPENATC_REGISTER_REGISTER_H_
#define OPENATC_REGISTER_REGISTER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/operator.h"
#include "register/register_types.h"

namespace domi {
using Status = uint32_t;
inline constexpr Status SUCCESS = 0;
inline constexpr Status FAILED = 0xFFFFFFFF;

using ParseParamByOpFunc = std::function<Status(const ge::Operator &src, ge::Operator &dst)>;

/// Copies every attribute of `src` to `dst` under the same name.
OPENATC_SDK_API Status AutoMappingByOpFn(const ge::Operator &src, ge::Operator &dst);

class OpRegistrationDataImpl;

class OPENATC_SDK_API OpRegistrationData {
 public:
  OpRegistrationData(const std::string &om_optype);
  OpRegistrationData(const char *om_optype);
  ~OpRegistrationData();
  OpRegistrationData &FrameworkType(const domi::FrameworkType &fmk_type);
  OpRegistrationData &OriginOpType(const std::initializer_list<std::string> &ori_optype_list);
  OpRegistrationData &OriginOpType(const std::vector<ge::AscendString> &ori_op_type_list);
  OpRegistrationData &OriginOpType(const std::string &ori_optype);
  OpRegistrationData &OriginOpType(const char *ori_op_type);
  OpRegistrationData &ParseParamsByOperatorFn(const ParseParamByOpFunc &parse_param_by_op_fn);
  OpRegistrationData &ImplyType(const domi::ImplyType &imply_type);

  std::shared_ptr<OpRegistrationDataImpl> impl_;
};

/// Records an OpRegistrationData in the process-wide registry.
class OPENATC_SDK_API OpReceiver {
 public:
  OpReceiver(OpRegistrationData &reg_data);
  ~OpReceiver() = default;
};
}  // namespace domi

#define REGISTER_CUSTOM_OP(name) REGISTER_CUSTOM_OP_UNIQ_HELPER(__COUNTER__, name)
#define REGISTER_CUSTOM_OP_UNIQ_HELPER(ctr, name) REGISTER_CUSTOM_OP_UNIQ(ctr, name)
#define REGISTER_CUSTOM_OP_UNIQ(ctr, name) \
  static domi::OpReceiver register_op##ctr __attribute__((unused)) = domi::OpRegistrationData(name)

#endif  // OPENATC_REGISTER_REGISTER_H_
