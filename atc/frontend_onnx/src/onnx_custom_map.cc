// Custom ops mapped from ONNX through REGISTER_CUSTOM_OP (see onnx_custom_map.h): plugin
// loading, ir::AttrValue <-> ge::Operator attributes, and the parse-function call.
#include "openatc/frontend/onnx_custom_map.h"

#include <dirent.h>
#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <set>

#include "graph/operator.h"
#include "openatc/common/error.h"
#include "openatc/opp/opp_paths.h"
#include "openatc/register/framework_registry.h"

namespace openatc::frontend {
namespace {
constexpr const char *kMapError = "OA1506";

std::vector<std::string> SortedSo(const std::string &dir) {
  std::vector<std::string> out;
  DIR *d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent *e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n.size() > 3 && n.compare(n.size() - 3, 3, ".so") == 0) out.push_back(dir + "/" + n);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// One ONNX attribute as a src-operator attribute; false for a kind a parse function cannot get.
bool PutAttr(ge::Operator &op, const std::string &name, const ir::AttrValue &a) {
  const char *n = name.c_str();
  switch (a.kind) {
    case ir::AttrKind::kInt: op.SetAttr(n, a.i); return true;
    case ir::AttrKind::kFloat: op.SetAttr(n, a.f); return true;
    case ir::AttrKind::kBool: op.SetAttr(n, a.b); return true;
    case ir::AttrKind::kString: op.SetAttr(n, a.s); return true;
    case ir::AttrKind::kListInt: op.SetAttr(n, a.list_i); return true;
    case ir::AttrKind::kListFloat: op.SetAttr(n, a.list_f); return true;
    case ir::AttrKind::kListString: op.SetAttr(n, a.list_s); return true;
    case ir::AttrKind::kListListInt: op.SetAttr(n, a.list_list_i); return true;
    default: return false;
  }
}

// A dst-operator attribute back as an ir::AttrValue; false for kinds the IR does not carry.
bool TakeAttr(const reg::AttrValue &v, ir::AttrValue *a) {
  if (auto p = std::get_if<int64_t>(&v)) a->kind = ir::AttrKind::kInt, a->i = *p;
  else if (auto f = std::get_if<float>(&v)) a->kind = ir::AttrKind::kFloat, a->f = *f;
  else if (auto b = std::get_if<bool>(&v)) a->kind = ir::AttrKind::kBool, a->b = *b;
  else if (auto s = std::get_if<std::string>(&v)) a->kind = ir::AttrKind::kString, a->s = *s;
  else if (auto d = std::get_if<ge::DataType>(&v)) a->kind = ir::AttrKind::kDataType, a->dt = *d;
  else if (auto li = std::get_if<std::vector<int64_t>>(&v)) a->kind = ir::AttrKind::kListInt, a->list_i = *li;
  else if (auto lf = std::get_if<std::vector<float>>(&v)) a->kind = ir::AttrKind::kListFloat, a->list_f = *lf;
  else if (auto ls = std::get_if<std::vector<std::string>>(&v)) a->kind = ir::AttrKind::kListString, a->list_s = *ls;
  else if (auto ll = std::get_if<std::vector<std::vector<int64_t>>>(&v))
    a->kind = ir::AttrKind::kListListInt, a->list_list_i = *ll;
  else return false;
  return true;
}

[[noreturn]] void Fail(const std::string &node, const std::string &key, const std::string &what,
                       const std::string &advice) {
  throw Error(ErrorCategory::kGraph, kMapError, what, advice).WithNode(node, key);
}

bool MapNode(const std::string &key, const std::string &node, std::map<std::string, ir::AttrValue> *attrs,
             std::string *om_type) {
  reg::FrameworkMapping m;
  if (!reg::FindFrameworkMapping(domi::ONNX, key, &m)) return false;
  const std::string fix = "Fix the parse function registered by REGISTER_CUSTOM_OP(\"" + m.om_type +
                          "\").OriginOpType(\"" + key + "\")";
  if (!m.parse) Fail(node, key, "the registration for op type '" + m.om_type + "' has no ParseParamsByOperatorFn",
                     "Add .ParseParamsByOperatorFn(AutoMappingByOpFn) or a parse function");
  const std::string origin = key.substr(key.rfind("::") + 2);
  ge::Operator src(node.c_str(), origin.c_str());
  for (const auto &kv : *attrs) {
    if (kv.first == "onnx_opset") continue;
    if (!PutAttr(src, kv.first, kv.second))
      Fail(node, key, "attribute '" + kv.first + "' is a tensor, bytes or dtype-list attribute, which is not passed "
                      "to parse functions", "Pass the value as an input or as a numeric/string attribute");
  }
  ge::Operator dst(node.c_str(), m.om_type.c_str());
  domi::Status st = domi::FAILED;
  try {
    st = m.parse(src, dst);
  } catch (const std::exception &e) {
    Fail(node, key, std::string("the parse function threw: ") + e.what(), fix);
  } catch (...) {
    Fail(node, key, "the parse function threw a non-standard exception", fix);
  }
  if (st != domi::SUCCESS) Fail(node, key, "the parse function returned " + std::to_string(st), fix);
  std::map<std::string, ir::AttrValue> mapped;
  for (const auto &kv : reg::OperatorAttrs(dst))
    if (!TakeAttr(kv.second, &mapped[kv.first]))
      Fail(node, key, "the parse function set attribute '" + kv.first + "' of a kind OpenATC does not carry "
                      "(tensor, bytes, named attrs)", fix);
  *attrs = std::move(mapped);
  *om_type = m.om_type;
  return true;
}
}  // namespace

std::vector<std::string> LoadOnnxParserPlugins() {
  static std::mutex mu;
  static std::set<std::string> loaded;
  std::lock_guard<std::mutex> lock(mu);
  std::vector<std::string> out;
  for (const auto &root : opp::CustomOppRootsFromEnv()) {
    for (const auto &so : SortedSo(root + "/framework/onnx")) {
      if (!loaded.insert(so).second) continue;
      if (::dlopen(so.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
        const char *why = ::dlerror();
        throw Error(ErrorCategory::kIo, kMapError,
                    "the ONNX parser plugin '" + so + "' cannot be loaded: " + (why ? why : "unknown reason"),
                    "Rebuild the plugin against this install's libregister.so, or remove it from the OPP root");
      }
      out.push_back(so);
    }
  }
  return out;
}

OnnxCustomMapper RegisteredOnnxCustomMapper() { return MapNode; }

}  // namespace openatc::frontend
