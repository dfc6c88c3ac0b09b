// ge::TensorDesc / ge::Tensor / attribute values <-> ge.proto messages (docs/ge-ir.md §2.1-§2.3).
#include "air_convert.h"

#include <set>

#include "openatc/common/dtype.h"

namespace openatc::reg::air {
namespace {
using LV = geir::AttrDef::ListValue;
using Attrs = google::protobuf::Map<std::string, geir::AttrDef>;

// Proto enum for a C++ dtype, by serial name (docs/ge-ir.md §2.1); false when there is none.
bool ProtoDataType(ge::DataType dt, geir::DataType *out) {
  std::string name = DataTypeName(dt);
  if (dt == ge::DT_BF16) name = "DT_BF16";
  return geir::DataType_Parse(name, out);
}

const geir::AttrDef *Find(const Attrs &m, const char *key) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : &it->second;
}

LV *TypedList(geir::AttrDef *a, LV::ListValueType vt) {
  LV *l = a->mutable_list();
  l->set_val_type(vt);
  return l;
}

void WriteTensor(const ge::Tensor &t, geir::TensorDef *out) {
  WriteDesc(t.GetTensorDesc(), out->mutable_desc());
  if (t.GetSize() != 0U) out->set_data(reinterpret_cast<const char *>(t.GetData()), t.GetSize());
}

bool ReadTensor(const geir::TensorDef &t, ge::Tensor *out, std::string *why) {
  ge::TensorDesc desc;
  if (!ReadDesc(t.desc(), &desc, why)) return false;
  *out = ge::Tensor(desc, reinterpret_cast<const uint8_t *>(t.data().data()), t.data().size());
  return true;
}

struct AttrWriter {
  geir::AttrDef *out;
  std::string *why;
  bool operator()(const std::monostate &) const { return true; }
  bool operator()(int64_t v) const { return out->set_i(v), true; }
  bool operator()(float v) const { return out->set_f(v), true; }
  bool operator()(const std::string &v) const { return out->set_s(v), true; }
  bool operator()(bool v) const { return out->set_b(v), true; }
  bool operator()(const ge::Tensor &v) const { return WriteTensor(v, out->mutable_t()), true; }
  bool operator()(ge::DataType v) const { return out->set_dt(static_cast<int64_t>(v)), true; }
  bool operator()(const std::vector<int64_t> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_INT);
    for (int64_t x : v) l->add_i(x);
    return true;
  }
  bool operator()(const std::vector<float> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_FLOAT);
    for (float x : v) l->add_f(x);
    return true;
  }
  bool operator()(const std::vector<std::string> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_STRING);
    for (const auto &x : v) l->add_s(x);
    return true;
  }
  bool operator()(const std::vector<bool> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_BOOL);
    for (bool x : v) l->add_b(x);
    return true;
  }
  bool operator()(const std::vector<ge::Tensor> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_TENSOR);
    for (const auto &x : v) WriteTensor(x, l->add_t());
    return true;
  }
  bool operator()(const std::vector<uint8_t> &v) const {
    return out->set_bt(std::string(v.begin(), v.end())), true;
  }
  bool operator()(const std::vector<std::vector<int64_t>> &v) const {
    geir::AttrDef::ListListInt *l = out->mutable_list_list_int();
    for (const auto &row : v) {
      auto *r = l->add_list_list_i();
      for (int64_t x : row) r->add_list_i(x);
    }
    return true;
  }
  bool operator()(const std::vector<ge::DataType> &v) const {
    LV *l = TypedList(out, LV::VT_LIST_DATA_TYPE);
    for (ge::DataType x : v) l->add_dt(static_cast<int64_t>(x));
    return true;
  }
  bool operator()(const ge::NamedAttrs &) const {
    *why = "NamedAttrs values are not supported in AIR files by OpenATC yet";
    return false;
  }
  bool operator()(const std::vector<ge::NamedAttrs> &) const {
    *why = "ListNamedAttrs values are not supported in AIR files by OpenATC yet";
    return false;
  }
};

bool ReadList(const LV &l, AttrValue *out, std::string *why) {
  switch (l.val_type()) {
    case LV::VT_LIST_INT: *out = std::vector<int64_t>(l.i().begin(), l.i().end()); return true;
    case LV::VT_LIST_FLOAT: *out = std::vector<float>(l.f().begin(), l.f().end()); return true;
    case LV::VT_LIST_STRING: *out = std::vector<std::string>(l.s().begin(), l.s().end()); return true;
    case LV::VT_LIST_BOOL: *out = std::vector<bool>(l.b().begin(), l.b().end()); return true;
    case LV::VT_LIST_DATA_TYPE: {
      std::vector<ge::DataType> v;
      for (int64_t x : l.dt()) v.push_back(static_cast<ge::DataType>(x));
      *out = std::move(v);
      return true;
    }
    case LV::VT_LIST_TENSOR: {
      std::vector<ge::Tensor> v(static_cast<size_t>(l.t_size()));
      for (int k = 0; k < l.t_size(); ++k)
        if (!ReadTensor(l.t(k), &v[static_cast<size_t>(k)], why)) return false;
      *out = std::move(v);
      return true;
    }
    case LV::VT_LIST_NONE:  // untyped: the first non-empty field decides; empty = empty int list
      if (l.f_size() != 0) return *out = std::vector<float>(l.f().begin(), l.f().end()), true;
      if (l.s_size() != 0) return *out = std::vector<std::string>(l.s().begin(), l.s().end()), true;
      if (l.b_size() != 0) return *out = std::vector<bool>(l.b().begin(), l.b().end()), true;
      *out = std::vector<int64_t>(l.i().begin(), l.i().end());
      return true;
    default:
      *why = "a list of value type " + LV::ListValueType_Name(l.val_type()) + " is not supported";
      return false;
  }
}
}  // namespace

bool IsSerializerAttr(const std::string &key) {
  static const std::set<std::string> keys = {kInputNameKey, kInputNameValue, kOutputNameKey, kOutputNameValue,
                                             kIrInputsKey,  kIrInputsValue,  kIrOutputsKey,  kIrOutputsValue,
                                             kIrAttrNames,  kOptInput};
  return keys.count(key) != 0U;
}

void WriteDesc(const ge::TensorDesc &desc, geir::TensorDescriptor *td) {
  ge::AscendString name;
  (void)desc.GetName(name);
  td->set_name(name.GetString());
  geir::DataType pdt = geir::DT_UNDEFINED;
  Attrs &attrs = *td->mutable_attr();
  if (!ProtoDataType(desc.GetDataType(), &pdt))
    attrs["__tensor_desc_data_type__"].set_i(static_cast<int64_t>(desc.GetDataType()));
  td->set_dtype(pdt);
  for (int64_t d : desc.GetShape().GetDims()) td->mutable_shape()->add_dim(d);
  td->set_layout(FormatName(desc.GetFormat()));
  attrs["format_for_int"].set_i(static_cast<int64_t>(desc.GetFormat()));
  attrs["origin_format"].set_s(FormatName(desc.GetOriginFormat()));
  attrs["origin_format_for_int"].set_i(static_cast<int64_t>(desc.GetOriginFormat()));
  LV *oshape = TypedList(&attrs["origin_shape"], LV::VT_LIST_INT);
  for (int64_t d : desc.GetOriginShape().GetDims()) oshape->add_i(d);
  attrs["origin_shape_initialized"].set_b(true);
  attrs["origin_data_type"].set_s(DataTypeName(desc.GetDataType()));
  std::vector<std::pair<int64_t, int64_t>> range;
  (void)desc.GetShapeRange(range);
  if (!range.empty()) {
    geir::AttrDef::ListListInt *l = attrs["shape_range"].mutable_list_list_int();
    for (const auto &[lo, hi] : range) {
      auto *r = l->add_list_list_i();
      r->add_list_i(lo);
      r->add_list_i(hi);
    }
  }
  if (desc.GetSize() != 0) td->set_size(desc.GetSize());
}

bool ReadDesc(const geir::TensorDescriptor &td, ge::TensorDesc *desc, std::string *why) {
  const Attrs &attrs = td.attr();
  ge::DataType dt = ge::DT_UNDEFINED;
  if (const geir::AttrDef *a = Find(attrs, "__tensor_desc_data_type__"); a && a->value_case() == geir::AttrDef::kI) {
    dt = static_cast<ge::DataType>(a->i());
  } else if (!ParseDataTypeName(geir::DataType_Name(td.dtype()), &dt)) {
    *why = "a tensor desc has the unknown dtype number " + std::to_string(td.dtype());
    return false;
  }
  ge::Format fmt = ge::FORMAT_ND;
  if (const geir::AttrDef *a = Find(attrs, "format_for_int"); a && a->value_case() == geir::AttrDef::kI) {
    fmt = static_cast<ge::Format>(a->i());
  } else if (!td.layout().empty() && !ParseFormatName(td.layout(), &fmt)) {
    *why = "a tensor desc has the unknown layout '" + td.layout() + "'";
    return false;
  }
  ge::Format ofmt = fmt;
  const geir::AttrDef *ofi = Find(attrs, "origin_format_for_int");
  const geir::AttrDef *ofs = Find(attrs, "origin_format");
  if (ofi && ofi->value_case() == geir::AttrDef::kI) {
    ofmt = static_cast<ge::Format>(ofi->i());
  } else if (ofs && ofs->value_case() == geir::AttrDef::kS && !ofs->s().empty() && !ParseFormatName(ofs->s(), &ofmt)) {
    *why = "a tensor desc has the unknown origin_format '" + ofs->s() + "'";
    return false;
  }
  *desc = ge::TensorDesc(ge::Shape(std::vector<int64_t>(td.shape().dim().begin(), td.shape().dim().end())), fmt, dt);
  desc->SetOriginFormat(ofmt);
  const geir::AttrDef *os = Find(attrs, "origin_shape");
  const geir::AttrDef *oi = Find(attrs, "origin_shape_initialized");
  const bool init_false = oi && oi->value_case() == geir::AttrDef::kB && !oi->b();
  if (os && os->value_case() == geir::AttrDef::kList && !init_false)
    desc->SetOriginShape(ge::Shape(std::vector<int64_t>(os->list().i().begin(), os->list().i().end())));
  if (const geir::AttrDef *r = Find(attrs, "shape_range"); r && r->value_case() == geir::AttrDef::kListListInt) {
    std::vector<std::pair<int64_t, int64_t>> range;
    for (const auto &row : r->list_list_int().list_list_i()) {
      if (row.list_i_size() != 2) {
        *why = "a tensor desc's shape_range has an entry of " + std::to_string(row.list_i_size()) + " values, not 2";
        return false;
      }
      range.emplace_back(row.list_i(0), row.list_i(1));
    }
    (void)desc->SetShapeRange(range);
  }
  desc->SetName(td.name().c_str());
  if (td.size() != 0) desc->SetSize(td.size());
  return true;
}

bool WriteAttr(const AttrValue &value, geir::AttrDef *out, std::string *why) {
  return std::visit(AttrWriter{out, why}, value);
}

bool ReadAttr(const geir::AttrDef &a, AttrValue *out, std::string *why) {
  switch (a.value_case()) {
    case geir::AttrDef::VALUE_NOT_SET: *out = std::monostate{}; return true;
    case geir::AttrDef::kS: *out = a.s(); return true;
    case geir::AttrDef::kI: *out = a.i(); return true;
    case geir::AttrDef::kF: *out = a.f(); return true;
    case geir::AttrDef::kB: *out = a.b(); return true;
    case geir::AttrDef::kBt: *out = std::vector<uint8_t>(a.bt().begin(), a.bt().end()); return true;
    case geir::AttrDef::kDt: *out = static_cast<ge::DataType>(a.dt()); return true;
    case geir::AttrDef::kList: return ReadList(a.list(), out, why);
    case geir::AttrDef::kT: {
      ge::Tensor t;
      if (!ReadTensor(a.t(), &t, why)) return false;
      *out = std::move(t);
      return true;
    }
    case geir::AttrDef::kListListInt: {
      std::vector<std::vector<int64_t>> v;
      for (const auto &row : a.list_list_int().list_list_i()) v.emplace_back(row.list_i().begin(), row.list_i().end());
      *out = std::move(v);
      return true;
    }
    default:
      *why = "the attribute kind (AttrDef field " + std::to_string(static_cast<int>(a.value_case())) +
             ") is not supported by the SDK";
      return false;
  }
}

}  // namespace openatc::reg::air
