// aclopCreateAttr / aclopSetAttr* / aclopDestroyAttr (acl/acl_op.h; docs/acl.md §7), and the attr
// comparison aclopExecuteV2 matches with.
#include <cmath>
#include <new>

#include "op_types.h"
#include "openatc/common/dtype.h"
#include "openatc/rt/error_state.h"

using openatc::ir::AttrKind;
using openatc::ir::AttrValue;
using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

bool SameFloat(float a, float b) { return a == b || std::fabs(a - b) <= 1e-6f * std::fmax(std::fabs(a), std::fabs(b)); }

template <typename T>
std::string ListText(const std::vector<T> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Stores `value` under `name` after the common checks.
template <typename F>
aclError Set(const char *api, aclopAttr *attr, const char *name, F &&fill) {
  return Guard(api, [&] {
    if (attr == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "attr is a null pointer", "Create it with aclopCreateAttr");
    if (name == nullptr || *name == '\0') ThrowAcl(ACL_ERROR_INVALID_PARAM, "attrName is null or empty");
    AttrValue v;
    fill(v);
    attr->values[name] = std::move(v);
  });
}

template <typename T>
void CheckList(int n, const T *values) {
  if (n < 0 || (n > 0 && values == nullptr))
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "numValues " + std::to_string(n) + " with " + (values ? "values" : "null values"));
}

// A list attr: `n` values converted to the member's element type.
template <typename T, typename V>
aclError SetList(const char *api, aclopAttr *attr, const char *name, AttrKind kind, int n, const T *values,
                 std::vector<V> AttrValue::*member) {
  return Set(api, attr, name, [&](AttrValue &v) {
    CheckList(n, values);
    v.kind = kind;
    for (int i = 0; i < n; ++i) (v.*member).push_back(static_cast<V>(values[i]));
  });
}

}  // namespace

bool SameAttrValue(const AttrValue &a, const AttrValue &b) {
  // aclopSetAttrListDataType stores a list of ints; the OM may hold either list form.
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case AttrKind::kInt: return a.i == b.i;
    case AttrKind::kFloat: return SameFloat(a.f, b.f);
    case AttrKind::kBool: return a.b == b.b;
    case AttrKind::kString: return a.s == b.s;
    case AttrKind::kDataType: return a.dt == b.dt;
    case AttrKind::kListInt:
    case AttrKind::kListDataType: return a.list_i == b.list_i;
    case AttrKind::kListFloat:
      if (a.list_f.size() != b.list_f.size()) return false;
      for (size_t i = 0; i < a.list_f.size(); ++i)
        if (!SameFloat(a.list_f[i], b.list_f[i])) return false;
      return true;
    case AttrKind::kListBool: return a.list_b == b.list_b;
    case AttrKind::kListString: return a.list_s == b.list_s;
    case AttrKind::kListListInt: return a.list_list_i == b.list_list_i;
    default: return false;
  }
}

std::string AttrText(const std::string &name, const AttrValue &v) {
  std::string s = name + "=";
  switch (v.kind) {
    case AttrKind::kInt: return s + std::to_string(v.i);
    case AttrKind::kFloat: return s + std::to_string(v.f);
    case AttrKind::kBool: return s + (v.b ? "true" : "false");
    case AttrKind::kString: return s + "\"" + v.s + "\"";
    case AttrKind::kDataType: return s + DataTypeName(v.dt);
    case AttrKind::kListInt:
    case AttrKind::kListDataType: return s + ListText(v.list_i);
    case AttrKind::kListFloat: return s + ListText(v.list_f);
    case AttrKind::kListBool: return s + ListText(v.list_b);
    case AttrKind::kListString: {
      std::string t = "[";
      for (size_t i = 0; i < v.list_s.size(); ++i) t += (i ? ", \"" : "\"") + v.list_s[i] + "\"";
      return s + t + "]";
    }
    case AttrKind::kListListInt: {
      std::string t = "[";
      for (size_t i = 0; i < v.list_list_i.size(); ++i) t += (i ? ", " : "") + ListText(v.list_list_i[i]);
      return s + t + "]";
    }
    default: return s + "?";
  }
}

}  // namespace mdl
}  // namespace openatc

using openatc::mdl::CheckList;
using openatc::mdl::Set;
using openatc::mdl::SetList;

extern "C" {

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void) { return new (std::nothrow) aclopAttr; }

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr) { delete attr; }

ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue) {
  return Set("aclopSetAttrBool", attr, attrName, [&](AttrValue &v) { v.kind = AttrKind::kBool, v.b = attrValue != 0; });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue) {
  return Set("aclopSetAttrInt", attr, attrName, [&](AttrValue &v) { v.kind = AttrKind::kInt, v.i = attrValue; });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue) {
  return Set("aclopSetAttrFloat", attr, attrName, [&](AttrValue &v) { v.kind = AttrKind::kFloat, v.f = attrValue; });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue) {
  return Set("aclopSetAttrString", attr, attrName, [&](AttrValue &v) {
    if (attrValue == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "attrValue is a null pointer");
    v.kind = AttrKind::kString, v.s = attrValue;
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue) {
  return Set("aclopSetAttrDataType", attr, attrName,
             [&](AttrValue &v) { v.kind = AttrKind::kDataType, v.dt = static_cast<ge::DataType>(attrValue); });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues,
                                                      const aclDataType values[]) {
  return SetList("aclopSetAttrListDataType", attr, attrName, AttrKind::kListDataType, numValues, values,
                 &AttrValue::list_i);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues,
                                                  const uint8_t *values) {
  return Set("aclopSetAttrListBool", attr, attrName, [&](AttrValue &v) {
    CheckList(numValues, values);
    v.kind = AttrKind::kListBool;
    for (int i = 0; i < numValues; ++i) v.list_b.push_back(values[i] != 0);
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values) {
  return SetList("aclopSetAttrListInt", attr, attrName, AttrKind::kListInt, numValues, values, &AttrValue::list_i);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values) {
  return SetList("aclopSetAttrListFloat", attr, attrName, AttrKind::kListFloat, numValues, values, &AttrValue::list_f);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues,
                                                    const char **values) {
  return Set("aclopSetAttrListString", attr, attrName, [&](AttrValue &v) {
    CheckList(numValues, values);
    v.kind = AttrKind::kListString;
    for (int i = 0; i < numValues; ++i) {
      if (values[i] == nullptr) ThrowAcl(ACL_ERROR_INVALID_PARAM, "values[" + std::to_string(i) + "] is a null pointer");
      v.list_s.push_back(values[i]);
    }
  });
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists,
                                                     const int *numValues, const int64_t *const values[]) {
  return Set("aclopSetAttrListListInt", attr, attrName, [&](AttrValue &v) {
    CheckList(numLists, numValues);
    CheckList(numLists, values);
    v.kind = AttrKind::kListListInt;
    for (int i = 0; i < numLists; ++i) {
      CheckList(numValues[i], values[i]);
      v.list_list_i.emplace_back(values[i], values[i] + numValues[i]);
    }
  });
}

}  // extern "C"
