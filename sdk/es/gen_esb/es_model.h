// gen_esb's view of one op: the REG_OP prototype reduced to what the ES wrappers support.
#ifndef OPENATC_SDK_ES_GEN_ESB_ES_MODEL_H_
#define OPENATC_SDK_ES_GEN_ESB_ES_MODEL_H_

#include <string>
#include <vector>

#include "openatc/register/op_prototype.h"

namespace openatc::es {

enum class EsAttrKind { kInt, kFloat, kBool, kString, kDataType, kListInt };

struct EsAttr {
  std::string name;
  EsAttrKind kind;
  bool required = false;
  std::string py_default;  ///< Python literal of the default ("" when required)
};

struct EsOpModel {
  std::string op_type;
  std::vector<std::pair<std::string, reg::IrInputKind>> inputs;
  std::vector<std::string> outputs;
  std::vector<EsAttr> attrs;
  /// True when no input is required: the C function then takes the builder first.
  bool needs_owner = true;
};

/// The model of `proto`, or "" in `why_not` set to the reason the op cannot be wrapped.
bool BuildModel(const reg::OpPrototype &proto, EsOpModel &out, std::string &why_not);

/// The file names gen_esb writes for module `m`: es_<m>_ops{_c.h,.h,.cc,.py}.
std::string FileStem(const std::string &module);

/// Writers; each returns the file's text.
std::string WriteCHeader(const std::string &module, const std::vector<EsOpModel> &ops);
std::string WriteCppHeader(const std::string &module, const std::vector<EsOpModel> &ops);
std::string WriteCSource(const std::string &module, const std::vector<EsOpModel> &ops);
std::string WritePython(const std::string &module, const std::vector<EsOpModel> &ops);

/// A name that is not a C or Python keyword: `name` or `name_`.
std::string SafeName(const std::string &name);

}  // namespace openatc::es

#endif  // OPENATC_SDK_ES_GEN_ESB_ES_MODEL_H_
