// ge.proto tensor descriptors, tensors and attributes -> ir::TensorDesc / ConstTensor /
// AttrValue (docs/ge-ir.md §2.1-§2.3).
#include "internal.h"
#include "openatc/common/dtype.h"

namespace openatc::frontend::detail {
namespace {

const geir::AttrDef *FindAttr(const google::protobuf::Map<std::string, geir::AttrDef> &m,
                              const char *key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

bool CppDataTypeValid(int64_t v, ge::DataType *dt) {
  if (v < 0 || v >= static_cast<int64_t>(ge::DT_MAX)) return false;
  auto d = static_cast<ge::DataType>(v);
  if (d != ge::DT_UNDEFINED && DataTypeName(d) == "UNDEFINED") return false;
  *dt = d;
  return true;
}

std::vector<int64_t> CheckedDims(const google::protobuf::RepeatedField<int64_t> &dims,
                                 const std::string &what, const char *field) {
  std::vector<int64_t> out(dims.begin(), dims.end());
  for (size_t k = 0; k < out.size(); ++k) {
    bool ok = out[k] >= -1 || (out[k] == -2 && out.size() == 1);
    if (!ok) {
      throw GraphError(kBadTensorDesc,
                       what + " has an invalid " + field + " " + ShapeToString(out) +
                           " (dim " + std::to_string(k) + ")",
                       "Dims must be >= 0, -1 for an unknown dim, or a single -2 for unknown rank");
    }
  }
  return out;
}

ge::Format FormatFromInt(int64_t v, const std::string &what, const char *key) {
  if (v < 0 || v > 0x7fffffff) {
    throw GraphError(kBadTensorDesc, what + " has an invalid " + key + " " + std::to_string(v),
                     "Use a ge::Format value such as 2 (ND) or 0 (NCHW)");
  }
  return static_cast<ge::Format>(v);
}

ge::Format FormatFromName(const std::string &name, const std::string &what, const char *field) {
  if (name.empty()) return ge::FORMAT_ND;
  ge::Format f;
  if (!ParseFormatName(name, &f)) {
    throw GraphError(kBadTensorDesc,
                     what + " has an unknown " + field + " '" + name + "'",
                     "Use a GE format serial name such as \"ND\" or \"NCHW\"");
  }
  return f;
}

}  // namespace

bool ProtoDataTypeToGe(int proto_dtype, ge::DataType *dtype) {
  const std::string &name = geir::DataType_Name(static_cast<geir::DataType>(proto_dtype));
  if (name.empty()) return false;
  return ParseDataTypeName(name, dtype);
}

ir::TensorDesc ConvertTensorDesc(const geir::TensorDescriptor &td, const std::string &what) {
  ir::TensorDesc d;
  d.name = td.name();
  if (!ProtoDataTypeToGe(td.dtype(), &d.dtype)) {
    throw GraphError(kBadTensorDesc,
                     what + " has an unknown dtype number " + std::to_string(td.dtype()),
                     "Use a ge.proto DataType name such as \"DT_FLOAT\"");
  }
  const auto &attrs = td.attr();
  if (const geir::AttrDef *a = FindAttr(attrs, "__tensor_desc_data_type__");
      a && a->value_case() == geir::AttrDef::kI) {
    if (!CppDataTypeValid(a->i(), &d.dtype)) {
      throw GraphError(kBadTensorDesc,
                       what + " has an unknown __tensor_desc_data_type__ " + std::to_string(a->i()),
                       "It must be a C++ ge::DataType value");
    }
  }
  d.shape = CheckedDims(td.shape().dim(), what, "shape");

  const geir::AttrDef *fmt_int = FindAttr(attrs, "format_for_int");
  if (fmt_int && fmt_int->value_case() == geir::AttrDef::kI) {
    d.format = FormatFromInt(fmt_int->i(), what, "format_for_int");
  } else {
    d.format = FormatFromName(td.layout(), what, "layout");
  }

  const geir::AttrDef *ofmt_int = FindAttr(attrs, "origin_format_for_int");
  const geir::AttrDef *ofmt_s = FindAttr(attrs, "origin_format");
  if (ofmt_int && ofmt_int->value_case() == geir::AttrDef::kI) {
    d.origin_format = FormatFromInt(ofmt_int->i(), what, "origin_format_for_int");
  } else if (ofmt_s && ofmt_s->value_case() == geir::AttrDef::kS && !ofmt_s->s().empty()) {
    d.origin_format = FormatFromName(ofmt_s->s(), what, "origin_format");
  } else {
    d.origin_format = d.format;
  }

  d.origin_shape = d.shape;
  const geir::AttrDef *oshape = FindAttr(attrs, "origin_shape");
  const geir::AttrDef *oinit = FindAttr(attrs, "origin_shape_initialized");
  bool init_false = oinit && oinit->value_case() == geir::AttrDef::kB && !oinit->b();
  if (oshape && oshape->value_case() == geir::AttrDef::kList && !init_false) {
    d.origin_shape = CheckedDims(oshape->list().i(), what, "origin_shape");
  }
  return d;
}

std::shared_ptr<ir::ConstTensor> ConvertTensor(const geir::TensorDef &t, const std::string &what) {
  auto out = std::make_shared<ir::ConstTensor>();
  out->desc = ConvertTensorDesc(t.desc(), what);
  out->data = ir::Bytes::Copy(t.data().data(), t.data().size());
  return out;
}

bool ConvertAttr(const std::string &name, const geir::AttrDef &a, ir::AttrValue *out) {
  using K = ir::AttrKind;
  *out = ir::AttrValue();
  const char *unsupported = nullptr;
  switch (a.value_case()) {
    case geir::AttrDef::VALUE_NOT_SET: out->kind = K::kNone; return true;
    case geir::AttrDef::kS: out->kind = K::kString; out->s = a.s(); return true;
    case geir::AttrDef::kI: out->kind = K::kInt; out->i = a.i(); return true;
    case geir::AttrDef::kF: out->kind = K::kFloat; out->f = a.f(); return true;
    case geir::AttrDef::kB: out->kind = K::kBool; out->b = a.b(); return true;
    case geir::AttrDef::kBt: out->kind = K::kBytes; out->s = a.bt(); return true;
    case geir::AttrDef::kDt:
      if (!CppDataTypeValid(a.dt(), &out->dt)) {
        throw GraphError(kUnsupportedAttr,
                         "attr '" + name + "' has an unknown data type value " +
                             std::to_string(a.dt()),
                         "AttrDef.dt holds a C++ ge::DataType value (e.g. 0 for DT_FLOAT)");
      }
      out->kind = K::kDataType;
      return true;
    case geir::AttrDef::kT:
      out->kind = K::kTensor;
      out->t = ConvertTensor(a.t(), "the tensor of attr '" + name + "'");
      return true;
    case geir::AttrDef::kListListInt:
      out->kind = K::kListListInt;
      for (const auto &l : a.list_list_int().list_list_i())
        out->list_list_i.emplace_back(l.list_i().begin(), l.list_i().end());
      return true;
    case geir::AttrDef::kList: {
      using LV = geir::AttrDef::ListValue;
      const LV &l = a.list();
      LV::ListValueType vt = l.val_type();
      if (vt == LV::VT_LIST_NONE) {
        // Inferred from the first non-empty repeated field; an untyped empty list is an int list.
        if (l.s_size()) vt = LV::VT_LIST_STRING;
        else if (l.i_size()) vt = LV::VT_LIST_INT;
        else if (l.f_size()) vt = LV::VT_LIST_FLOAT;
        else if (l.b_size()) vt = LV::VT_LIST_BOOL;
        else if (l.dt_size()) vt = LV::VT_LIST_DATA_TYPE;
        else if (l.bt_size()) vt = LV::VT_LIST_BYTES;
        else if (l.td_size()) vt = LV::VT_LIST_TENSOR_DESC;
        else if (l.t_size()) vt = LV::VT_LIST_TENSOR;
        else if (l.g_size()) vt = LV::VT_LIST_GRAPH;
        else if (l.na_size()) vt = LV::VT_LIST_NAMED_ATTRS;
        else vt = LV::VT_LIST_INT;
      }
      switch (vt) {
        case LV::VT_LIST_STRING:
          out->kind = K::kListString;
          out->list_s.assign(l.s().begin(), l.s().end());
          return true;
        case LV::VT_LIST_INT:
          out->kind = K::kListInt;
          out->list_i.assign(l.i().begin(), l.i().end());
          return true;
        case LV::VT_LIST_FLOAT:
          out->kind = K::kListFloat;
          out->list_f.assign(l.f().begin(), l.f().end());
          return true;
        case LV::VT_LIST_BOOL:
          out->kind = K::kListBool;
          for (bool b : l.b()) out->list_b.push_back(b ? 1 : 0);
          return true;
        case LV::VT_LIST_DATA_TYPE:
          out->kind = K::kListDataType;
          for (int64_t v : l.dt()) {
            ge::DataType dt;
            if (!CppDataTypeValid(v, &dt)) {
              throw GraphError(kUnsupportedAttr,
                               "attr '" + name + "' lists an unknown data type value " +
                                   std::to_string(v),
                               "ListValue.dt holds C++ ge::DataType values");
            }
            out->list_i.push_back(v);
          }
          return true;
        case LV::VT_LIST_BYTES: unsupported = "list of bytes"; break;
        case LV::VT_LIST_TENSOR_DESC: unsupported = "list of tensor descs"; break;
        case LV::VT_LIST_TENSOR: unsupported = "list of tensors"; break;
        case LV::VT_LIST_GRAPH: unsupported = "list of graphs"; break;
        case LV::VT_LIST_NAMED_ATTRS: unsupported = "list of named attrs"; break;
        default: unsupported = "list of unknown value type"; break;
      }
      break;
    }
    case geir::AttrDef::kFunc: unsupported = "func (NamedAttrs)"; break;
    case geir::AttrDef::kTd: unsupported = "tensor desc"; break;
    case geir::AttrDef::kG: unsupported = "graph"; break;
    case geir::AttrDef::kListListFloat: unsupported = "list_list_float"; break;
    case geir::AttrDef::kExpression: unsupported = "expression"; break;
  }
  if (!name.empty() && name[0] == '_') return false;  // internal GE attr: safe to drop
  throw GraphError(kUnsupportedAttr,
                   std::string("attribute kind not supported: attr '") + name + "' is a " +
                       (unsupported ? unsupported : "value of unknown kind"),
                   "Supported kinds are s, i, f, b, bt, dt, t, list (s/i/f/b/dt) and "
                   "list_list_int; remove the attr or express it with one of these");
}

}  // namespace openatc::frontend::detail
