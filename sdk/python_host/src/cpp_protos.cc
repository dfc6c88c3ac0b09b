// The REG_OP prototypes of this process as the bridge's canonical IR (ir_meta JSON): what binds
// a Python callback of an op type that has no @register_op prototype.
#include <map>
#include <nlohmann/json.hpp>

#include "openatc/register/op_prototype.h"
#include "py_adapter.h"

namespace openatc::python_host {
namespace {

// REG_OP attr type tokens -> ge.custom_op's attr type names (python/ge/custom_op/proto.py).
std::string AttrTypeName(const std::string &token) {
  static const std::map<std::string, std::string> kNames = {
      {"Int", "int"},           {"Float", "float"},           {"Bool", "bool"},
      {"String", "str"},        {"AscendString", "str"},      {"Type", "data_type"},
      {"Tensor", "tensor"},     {"ListInt", "list_int"},      {"ListFloat", "list_float"},
      {"ListBool", "list_bool"}, {"ListString", "list_str"},  {"ListAscendString", "list_str"},
      {"ListType", "list_data_type"}, {"ListListInt", "list_list_int"}};
  auto it = kNames.find(token);
  return it != kNames.end() ? it->second : token;  // not passed to Python: binding reports it
}

}  // namespace

std::string CppPrototypesJson() {
  nlohmann::json all = nlohmann::json::object();
  for (const std::string &type : reg::RegisteredPrototypeTypes()) {
    const reg::OpPrototype *p = reg::FindOpPrototype(type);
    if (p == nullptr) continue;
    nlohmann::json ir = {{"op_type", type}, {"inputs", nlohmann::json::array()}, {"attrs", nlohmann::json::array()},
                         {"outputs", nlohmann::json::array()}};
    for (const auto &[name, kind] : p->inputs) {
      const char *k = kind == reg::IrInputKind::kRequired ? "required"
                      : kind == reg::IrInputKind::kOptional ? "optional" : "dynamic";
      ir["inputs"].push_back({{"name", name}, {"kind", k}});
    }
    for (const auto &[name, kind] : p->outputs) {
      const char *k = kind == reg::IrOutputKind::kRequired ? "required" : "dynamic";
      ir["outputs"].push_back({{"name", name}, {"kind", k}});
    }
    for (const auto &a : p->attrs) ir["attrs"].push_back({{"name", a.name}, {"type", AttrTypeName(a.type)}});
    all[type] = std::move(ir);
  }
  return all.dump();
}

}  // namespace openatc::python_host
