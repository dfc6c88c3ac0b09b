// REGISTER_CUSTOM_OP's registry (register/register.h) and AutoMappingByOpFn.
#include "sdk_visibility.h"

#include <map>
#include <mutex>
#include <utility>

#include "openatc/register/framework_registry.h"
#include "operator_impl.h"

namespace domi {

class OpRegistrationDataImpl {
 public:
  std::string om_type;
  domi::FrameworkType fmk = FRAMEWORK_RESERVED;
  std::vector<std::string> origin_types;
  ParseParamByOpFunc parse;
  domi::ImplyType imply = domi::ImplyType::BUILDIN;
};

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::pair<int, std::string>, openatc::reg::FrameworkMapping> mappings;
};
Registry &TheRegistry() {
  static Registry *r = new Registry;  // never destroyed: plugins may register during exit
  return *r;
}
}  // namespace

Status AutoMappingByOpFn(const ge::Operator &src, ge::Operator &dst) {
  const auto &from = ge::OperatorAccess::Impl(src);
  const auto &to = ge::OperatorAccess::Impl(dst);
  if (!from || !to) {
    openatc::reg::SetSdkError("AutoMappingByOpFn: src or dst is an empty Operator");
    return FAILED;
  }
  for (const auto &kv : from->attrs) to->PutAttr(kv.first, kv.second);
  return SUCCESS;
}

OpRegistrationData::OpRegistrationData(const std::string &om_optype)
    : impl_(std::make_shared<OpRegistrationDataImpl>()) {
  impl_->om_type = om_optype;
}
OpRegistrationData::OpRegistrationData(const char *om_optype)
    : OpRegistrationData(std::string(om_optype ? om_optype : "")) {}
OpRegistrationData::~OpRegistrationData() = default;

OpRegistrationData &OpRegistrationData::FrameworkType(const domi::FrameworkType &fmk_type) {
  impl_->fmk = fmk_type;
  return *this;
}
OpRegistrationData &OpRegistrationData::OriginOpType(const std::initializer_list<std::string> &ori_optype_list) {
  for (const auto &t : ori_optype_list) impl_->origin_types.push_back(t);
  return *this;
}
OpRegistrationData &OpRegistrationData::OriginOpType(const std::vector<ge::AscendString> &ori_op_type_list) {
  for (const auto &t : ori_op_type_list) impl_->origin_types.emplace_back(t.GetString(), t.GetLength());
  return *this;
}
OpRegistrationData &OpRegistrationData::OriginOpType(const std::string &ori_optype) {
  impl_->origin_types.push_back(ori_optype);
  return *this;
}
OpRegistrationData &OpRegistrationData::OriginOpType(const char *ori_op_type) {
  return OriginOpType(std::string(ori_op_type ? ori_op_type : ""));
}
OpRegistrationData &OpRegistrationData::ParseParamsByOperatorFn(const ParseParamByOpFunc &parse_param_by_op_fn) {
  impl_->parse = parse_param_by_op_fn;
  return *this;
}
OpRegistrationData &OpRegistrationData::ImplyType(const domi::ImplyType &imply_type) {
  impl_->imply = imply_type;
  return *this;
}

OpReceiver::OpReceiver(OpRegistrationData &reg_data) {
  const OpRegistrationDataImpl &d = *reg_data.impl_;
  Registry &r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto &origin : d.origin_types)
    r.mappings.emplace(std::make_pair(static_cast<int>(d.fmk), origin),
                       openatc::reg::FrameworkMapping{d.om_type, origin, d.parse});
}

}  // namespace domi

namespace openatc::reg {

bool FindFrameworkMapping(domi::FrameworkType fmk, const std::string &origin_type, FrameworkMapping *out) {
  domi::Registry &r = domi::TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.mappings.find({static_cast<int>(fmk), origin_type});
  if (it == r.mappings.end()) return false;
  *out = it->second;
  return true;
}

std::vector<std::pair<std::string, AttrValue>> OperatorAttrs(const ge::Operator &op) {
  const auto &impl = ge::OperatorAccess::Impl(op);
  return impl ? impl->attrs : std::vector<std::pair<std::string, AttrValue>>{};
}

}  // namespace openatc::reg
