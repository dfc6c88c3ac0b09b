// ge::OperatorFactory / ge::OperatorCreatorRegister (graph/operator_factory.h) and the internal
// REG_OP prototype registry (openatc/register/op_prototype.h). The registry is a function-local
// static, so registrations from static initialisers of any .so (including ones dlopen'ed later)
// work regardless of initialisation order. First registration of an op type wins.
#include "operator_impl.h"

#include <algorithm>
#include <mutex>

#include "graph/operator_factory.h"
#include "openatc/common/log.h"

namespace openatc::reg {
namespace {
struct Entry {
  ge::OpCreatorV2 creator;
  std::unique_ptr<OpPrototype> prototype;  // null when capturing it failed
};

struct Registry {
  std::mutex mu;
  std::map<std::string, Entry> entries;
};

Registry &GetRegistry() {
  static Registry *registry = new Registry();  // never destroyed: creators may run at exit
  return *registry;
}

std::unique_ptr<OpPrototype> CaptureProto(const std::string &op_type, const ge::Operator &op) {
  const auto &impl = ge::OperatorAccess::Impl(op);
  if (!impl) return nullptr;
  auto proto = std::make_unique<OpPrototype>();
  proto->op_type = op_type;
  for (const auto &in : impl->ir_inputs) {
    proto->inputs.emplace_back(in.name, static_cast<IrInputKind>(in.kind));
    proto->input_type_exprs.push_back(in.type_expr);
  }
  for (const auto &out : impl->ir_outputs) {
    proto->outputs.emplace_back(out.name, static_cast<IrOutputKind>(out.kind));
    proto->output_type_exprs.push_back(out.type_expr);
  }
  proto->attrs = impl->ir_attrs;
  proto->datatype_syms = impl->datatype_syms;
  for (const auto &sg : impl->subgraphs) proto->subgraphs.emplace_back(sg.name, sg.dynamic);
  return proto;
}

// Runs a user creator; an empty Operator when it throws.
ge::Operator RunCreator(const ge::OpCreatorV2 &creator, const std::string &name, const std::string &type) {
  try {
    return creator(ge::AscendString(name.c_str(), name.size()));
  } catch (const std::exception &e) {
    SetSdkError("the REG_OP creator of op type '" + type + "' threw: " + e.what());
  } catch (...) {
    SetSdkError("the REG_OP creator of op type '" + type + "' threw a non-standard exception");
  }
  return ge::Operator();
}
}  // namespace

const OpPrototype *FindOpPrototype(const std::string &op_type) {
  Registry &r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  const auto it = r.entries.find(op_type);
  return it == r.entries.end() ? nullptr : it->second.prototype.get();
}

std::vector<std::string> RegisteredPrototypeTypes() {
  Registry &r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> types;
  for (const auto &kv : r.entries) {
    if (kv.second.prototype) types.push_back(kv.first);
  }
  return types;
}

}  // namespace openatc::reg

namespace ge {
using openatc::reg::GetRegistry;

OperatorCreatorRegister::OperatorCreatorRegister(const AscendString &operator_type, const OpCreatorV2 &op_creator) {
  const std::string type(operator_type.GetString(), operator_type.GetLength());
  if (type.empty() || !op_creator) {
    openatc::reg::SetSdkError("OperatorCreatorRegister: " +
                              std::string(type.empty() ? "the op type is empty" : "the creator of '" + type + "' is empty") +
                              "; registration ignored");
    return;
  }
  auto &r = openatc::reg::GetRegistry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.entries.count(type) != 0U) {
      openatc::LogDebug("REG_OP(" + type + ") is registered again; the first registration is kept");
      return;
    }
  }
  // Capture the prototype outside the lock: the creator runs user code.
  const Operator op = openatc::reg::RunCreator(op_creator, type, type);
  auto proto = openatc::reg::CaptureProto(type, op);
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.entries.count(type) != 0U) return;
  auto &entry = r.entries[type];
  entry.creator = op_creator;
  entry.prototype = std::move(proto);
}

Operator OperatorFactory::CreateOperator(const char_t *operator_name, const char_t *operator_type) {
  const std::string type = operator_type != nullptr ? operator_type : "";
  const std::string name = operator_name != nullptr ? operator_name : "";
  OpCreatorV2 creator;
  {
    auto &r = GetRegistry();
    std::lock_guard<std::mutex> lock(r.mu);
    const auto it = r.entries.find(type);
    if (it != r.entries.end()) creator = it->second.creator;
  }
  if (!creator) {
    openatc::reg::SetSdkError("OperatorFactory::CreateOperator: no REG_OP prototype is registered for op type '" +
                              type + "' (node '" + name +
                              "'); include the op's REG_OP header or load the deliverable that defines it");
    return Operator();
  }
  return openatc::reg::RunCreator(creator, name, type);
}

graphStatus OperatorFactory::GetOpsTypeList(std::vector<AscendString> &all_ops) {
  auto &r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  all_ops.clear();
  for (const auto &kv : r.entries) all_ops.emplace_back(kv.first.c_str(), kv.first.size());
  return GRAPH_SUCCESS;
}

bool OperatorFactory::IsExistOp(const char_t *operator_type) {
  if (operator_type == nullptr) return false;
  auto &r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.entries.count(operator_type) != 0U;
}

}  // namespace ge
