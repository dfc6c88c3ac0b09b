// ReadSingleOpFile / SingleOpFileName: the `atc --singleop` JSON grammar (docs/atc-deploy-flags.md
// §5), parsed with nlohmann_json. Every problem names the entry (index and op) and the field.
#include "singleop_desc.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"

namespace openatc::atc {
namespace {

using nlohmann::json;

constexpr size_t kMaxFileName = 128;

std::string Lower(std::string s) {
  for (char &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Upper(std::string s) {
  for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The element type names of GE's single-op JSON (lower case).
bool ParseSingleOpType(const std::string &text, ge::DataType *dt) {
  static const std::pair<const char *, ge::DataType> kTypes[] = {
      {"bool", ge::DT_BOOL},         {"int8", ge::DT_INT8},           {"uint8", ge::DT_UINT8},
      {"int16", ge::DT_INT16},       {"uint16", ge::DT_UINT16},       {"int32", ge::DT_INT32},
      {"uint32", ge::DT_UINT32},     {"int64", ge::DT_INT64},         {"uint64", ge::DT_UINT64},
      {"float16", ge::DT_FLOAT16},   {"half", ge::DT_FLOAT16},        {"fp16", ge::DT_FLOAT16},
      {"float", ge::DT_FLOAT},       {"float32", ge::DT_FLOAT},       {"double", ge::DT_DOUBLE},
      {"complex32", ge::DT_COMPLEX32}, {"complex64", ge::DT_COMPLEX64}, {"complex128", ge::DT_COMPLEX128},
      {"uint1", ge::DT_UINT1},       {"bfloat16", ge::DT_BF16},       {"int4", ge::DT_INT4},
      {"hifloat8", ge::DT_HIFLOAT8}, {"hifloat4", ge::DT_HIFLOAT4},   {"float8_e5m2", ge::DT_FLOAT8_E5M2},
      {"float8_e4m3fn", ge::DT_FLOAT8_E4M3FN}, {"undefined", ge::DT_UNDEFINED},
  };
  const std::string t = Lower(text);
  for (const auto &[name, value] : kTypes) {
    if (t == name) {
      *dt = value;
      return true;
    }
  }
  return false;
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  std::vector<SingleOpDesc> Run() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) Fail("E10023", "--singleop: the file cannot be read", "Check the path given to --singleop");
    std::stringstream text;
    text << in.rdbuf();
    return RunText(text.str());
  }

  std::vector<SingleOpDesc> RunText(const std::string &text) {
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::exception &e) {  // parse_error, and out_of_range for a number too large
      Fail("E10025", std::string("--singleop: the file is not valid JSON (") + e.what() + ")",
           "Fix the JSON syntax of the file");
    }
    if (!doc.is_array())
      Fail("E10032", "--singleop: the file must hold a JSON array of op descriptions, not " + Kind(doc),
           "Write the file as [ {\"op\": ...}, ... ]");
    std::vector<SingleOpDesc> ops;
    int compile_flag = 0;
    for (size_t i = 0; i < doc.size(); ++i) {
      const json &e = doc[i];
      SingleOpDesc op;
      op.entry = i;
      cur_ = &op;
      if (!e.is_object()) Bad("", "the entry is " + Kind(e) + ", not an object", "Describe each op as a JSON object");
      if (e.contains("compile_flag")) {
        const json &f = e["compile_flag"];
        if (!f.is_number_integer() || (f.get<int64_t>() != 0 && f.get<int64_t>() != 1))
          Bad("compile_flag", "must be 0 or 1, not " + f.dump(), "Write \"compile_flag\": 0 (exact) or 1 (fuzzy)");
        if (f.get<int64_t>() == 1) {
          compile_flag = 1;  // not an op: sets fuzzy compile for the ops that follow
          continue;
        }
      }
      op.compile_flag = compile_flag;
      if (!e.contains("op"))
        Fail("E10032", Where() + ": the required key 'op' is missing", "Give the op type, e.g. \"op\": \"Add\"");
      op.type = String(e["op"], "op");
      if (op.type.empty()) Bad("op", "the op type is empty", "Give the op type, e.g. \"op\": \"Add\"", "E10026");
      if (e.contains("name")) op.name = String(e["name"], "name");
      op.inputs = Tensors(e, "input_desc", true);
      op.outputs = Tensors(e, "output_desc", false);
      if (e.contains("attr")) {
        const json &attrs = e["attr"];
        if (!attrs.is_array()) Bad("attr", "must be an array, not " + Kind(attrs), "Write \"attr\": [ {...}, ... ]");
        for (size_t k = 0; k < attrs.size(); ++k) {
          const std::string field = "attr[" + std::to_string(k) + "]";
          ir::AttrValue v = Attr(attrs[k], field);
          const std::string name = attrs[k]["name"].get<std::string>();
          for (const auto &[seen, ignored] : op.attrs)
            if (seen == name) Bad(field + ".name", "the attr '" + name + "' is given twice", "Give each attr once");
          op.attrs.push_back({name, std::move(v)});
        }
      }
      op.op_index = ops.size();
      ops.push_back(std::move(op));
      cur_ = nullptr;
    }
    return ops;
  }

 private:
  static std::string Kind(const json &j) {
    if (j.is_null()) return "null";
    if (j.is_boolean()) return "a boolean";
    if (j.is_number()) return "a number";
    if (j.is_string()) return "a string";
    if (j.is_array()) return "an array";
    return "an object";
  }
  std::string Where() const { return cur_ ? cur_->Where() : std::string("--singleop"); }

  [[noreturn]] void Fail(const std::string &code, const std::string &what, const std::string &fix) const {
    throw Error(ErrorCategory::kUsage, code, what, fix).WithFile(path_);
  }
  // A problem with `field` of the current entry.
  [[noreturn]] void Bad(const std::string &field, const std::string &what, const std::string &fix,
                        const std::string &code = "E10032") const {
    Fail(code, Where() + (field.empty() ? "" : ", field '" + field + "'") + ": " + what, fix);
  }

  std::string String(const json &j, const std::string &field) const {
    if (!j.is_string()) Bad(field, "must be a string, not " + Kind(j), "Write the value in double quotes");
    return j.get<std::string>();
  }
  int64_t Int(const json &j, const std::string &field) const {
    if (!j.is_number_integer()) Bad(field, "must be an integer, not " + j.dump(), "Write a whole number");
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
      Bad(field, "the value " + j.dump() + " does not fit in int64", "Write a smaller number");
    return j.get<int64_t>();
  }
  std::vector<int64_t> Ints(const json &j, const std::string &field) const {
    if (!j.is_array()) Bad(field, "must be an array of integers, not " + Kind(j), "Write e.g. [3, 3]");
    std::vector<int64_t> v;
    for (size_t k = 0; k < j.size(); ++k) v.push_back(Int(j[k], field + "[" + std::to_string(k) + "]"));
    return v;
  }

  std::vector<SingleOpTensor> Tensors(const json &e, const std::string &key, bool input) const {
    std::vector<SingleOpTensor> out;
    if (!e.contains(key)) return out;
    const json &list = e[key];
    if (!list.is_array()) Bad(key, "must be an array of tensor descriptions, not " + Kind(list), "Write \"" + key + "\": [ {...} ]");
    for (size_t k = 0; k < list.size(); ++k) out.push_back(Tensor(list[k], key + "[" + std::to_string(k) + "]", input));
    // Dynamic inputs: each group's tensors are named <group>0, <group>1, ... in file order.
    std::map<std::string, int> next;
    for (auto &t : out)
      if (!t.dynamic_input.empty()) t.desc.name = t.dynamic_input + std::to_string(next[t.dynamic_input]++);
    return out;
  }

  SingleOpTensor Tensor(const json &j, const std::string &field, bool input) const {
    if (!j.is_object()) Bad(field, "must be an object, not " + Kind(j), "Describe the tensor as {\"format\": ..., \"shape\": ..., \"type\": ...}");
    for (const char *required : {"format", "type", "shape"}) {
      if (!j.contains(required))
        Bad(field, std::string("the required key '") + required + "' is missing",
            "Give the tensor's format, type and shape");
    }
    SingleOpTensor t;
    const std::string type_text = String(j["type"], field + ".type");
    const std::string format_text = String(j["format"], field + ".format");
    ge::DataType dt = ge::DT_UNDEFINED;
    if (!ParseSingleOpType(type_text, &dt))
      Bad(field + ".type", "'" + type_text + "' is not a data type",
          "Use one of bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, float, double, bfloat16, "
          "complex64, complex128 (UNDEFINED only for an absent optional input)",
          "E10027");
    ge::Format fmt = ge::FORMAT_RESERVED;
    if (!ParseFormatName(Upper(format_text), &fmt) || fmt == ge::FORMAT_RESERVED) fmt = ge::FORMAT_RESERVED;
    const bool undefined = dt == ge::DT_UNDEFINED, reserved = fmt == ge::FORMAT_RESERVED;
    if (!input && (undefined || reserved))
      Bad(field, "an output needs a data type and a format, not type '" + type_text + "' and format '" + format_text + "'",
          "Give the output's type (e.g. float16) and format (e.g. ND)", "E10027");
    if (undefined != reserved)
      Bad(field, undefined ? "type '" + type_text + "' with format '" + format_text +
                                 "': an absent optional input is \"type\": \"UNDEFINED\", \"format\": \"RESERVED\""
                           : Upper(format_text) == "RESERVED"
                                 ? "format 'RESERVED' marks an absent optional input, whose type is UNDEFINED, not '" +
                                       type_text + "'"
                                 : "'" + format_text + "' is not a format (type '" + type_text + "')",
          undefined ? "Give the input's type, or mark an absent optional input with format RESERVED"
                    : "Use a format such as ND, NCHW, NHWC, NC1HWC0, FRACTAL_Z, FRACTAL_NZ, NCDHW, NDHWC, HWCN, NC, CN",
          "E10027");
    t.desc.valid = !undefined;
    t.desc.dtype = dt;
    t.desc.format = fmt;
    t.desc.origin_format = fmt;
    t.desc.shape = Ints(j["shape"], field + ".shape");
    t.desc.origin_shape = t.desc.shape;
    if (j.contains("origin_format")) {
      const std::string of = String(j["origin_format"], field + ".origin_format");
      if (!ParseFormatName(Upper(of), &t.desc.origin_format) || t.desc.origin_format == ge::FORMAT_RESERVED)
        Bad(field + ".origin_format", "'" + of + "' is not a format", "Use a format such as ND, NCHW or NHWC", "E10027");
    }
    if (j.contains("origin_shape")) t.desc.origin_shape = Ints(j["origin_shape"], field + ".origin_shape");
    if (j.contains("name")) t.desc.name = String(j["name"], field + ".name");
    if (j.contains("dynamic_input")) t.dynamic_input = String(j["dynamic_input"], field + ".dynamic_input");
    if (j.contains("shape_range")) {
      const json &r = j["shape_range"];
      if (!r.is_array()) Bad(field + ".shape_range", "must be an array of [lo, hi] pairs, not " + Kind(r), "Write e.g. [[1, 16]]");
      for (size_t k = 0; k < r.size(); ++k) {
        const std::string f = field + ".shape_range[" + std::to_string(k) + "]";
        const std::vector<int64_t> p = Ints(r[k], f);
        if (p.size() != 2)
          Bad(f, "a range is [lo, hi], not " + std::to_string(p.size()) + " values", "Write [lo, hi] (hi -1: no bound)", "E13014");
        if (p[0] < -1 || p[1] < -1 || (p[1] >= 0 && p[0] > p[1]))
          Bad(f, "[" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + "] is not a range",
              "Write [lo, hi] with 0 <= lo <= hi (hi -1: no bound)", "E13014");
        t.shape_range.push_back({std::max<int64_t>(p[0], 0), p[1]});
      }
    }
    CheckShape(t, field);
    if (j.contains("is_const")) {
      if (!j["is_const"].is_boolean()) Bad(field + ".is_const", "must be true or false, not " + j["is_const"].dump(), "Write true or false");
      t.is_const = j["is_const"].get<bool>();
    }
    if (t.is_const) {
      if (!input) Bad(field + ".is_const", "an output cannot be constant", "Drop is_const from the output");
      if (!j.contains("const_value"))
        Bad(field, "a constant input needs 'const_value'", "Give the values as a flat list, e.g. \"const_value\": [1, 2]");
      t.const_value = ConstValue(j["const_value"], t.desc, field + ".const_value");
    }
    return t;
  }

  void CheckShape(const SingleOpTensor &t, const std::string &field) const {
    const auto &s = t.desc.shape;
    const std::string where = field + ".shape";
    const bool has_m2 = std::find(s.begin(), s.end(), -2) != s.end();
    if (has_m2 && s.size() != 1)
      Bad(where, "-2 (unknown rank) must be the only dim, not " + ShapeToString(s), "Write [-2] for an unknown rank",
          "E13014");
    if (has_m2 && !t.shape_range.empty())
      Bad(field + ".shape_range", "an unknown rank ([-2]) takes no shape_range", "Drop shape_range", "E13014");
    for (int64_t d : s)
      if (d < -2) Bad(where, "the dim " + std::to_string(d) + " is not valid", "Use dims >= 0, -1 (unknown) or [-2]", "E13014");
    const size_t unknown = static_cast<size_t>(std::count(s.begin(), s.end(), -1));
    if (!t.shape_range.empty() && t.shape_range.size() != unknown)
      Bad(field + ".shape_range",
          std::to_string(t.shape_range.size()) + " range(s) for the " + std::to_string(unknown) +
              " unknown (-1) dim(s) of " + ShapeToString(s),
          "Give one [lo, hi] per -1 dim, in order", "E13014");
  }

  template <typename T>
  static void Append(std::vector<uint8_t> &out, T v) {
    const size_t at = out.size();
    out.resize(at + sizeof(T));
    std::memcpy(out.data() + at, &v, sizeof(T));
  }

  ir::Bytes ConstValue(const json &j, const ir::TensorDesc &d, const std::string &field) const {
    if (!j.is_array()) Bad(field, "must be a flat list of numbers, not " + Kind(j), "Write e.g. [1, 2, 3]");
    const int64_t count = ShapeElementCount(d.shape);
    if (count < 0) Bad(field, "a constant input needs a static shape, not " + ShapeToString(d.shape), "Give every dim", "E13014");
    if (static_cast<int64_t>(j.size()) != count)
      Bad(field, std::to_string(j.size()) + " value(s) for the shape " + ShapeToString(d.shape) + " (" +
                     std::to_string(count) + " elements)",
          "Give one value per element", "E13014");
    std::vector<uint8_t> out;
    for (size_t k = 0; k < j.size(); ++k) {
      const json &v = j[k];
      if (!v.is_number() && !v.is_boolean())
        Bad(field + "[" + std::to_string(k) + "]", "must be a number, not " + Kind(v), "Write numbers only");
      const double x = v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>();
      // A fractional number for an integer dtype is truncated; one no int64 holds (or NaN) is refused.
      const bool to_integer = d.dtype != ge::DT_BOOL && d.dtype != ge::DT_FLOAT16 && d.dtype != ge::DT_FLOAT &&
                              d.dtype != ge::DT_DOUBLE && d.dtype != ge::DT_BF16;
      if (to_integer && !v.is_number_integer() && !(x >= -0x1p63 && x < 0x1p63))
        Bad(field + "[" + std::to_string(k) + "]", "is " + v.dump() + ", outside what an integer element holds",
            "Write a value of the input's dtype", "E13014");
      const int64_t i = v.is_number_integer() ? v.get<int64_t>() : to_integer ? static_cast<int64_t>(x) : 0;
      switch (d.dtype) {
        case ge::DT_BOOL: Append<uint8_t>(out, x != 0.0); break;
        case ge::DT_INT8: Append(out, static_cast<int8_t>(i)); break;
        case ge::DT_UINT8: Append(out, static_cast<uint8_t>(i)); break;
        case ge::DT_INT16: Append(out, static_cast<int16_t>(i)); break;
        case ge::DT_UINT16: Append(out, static_cast<uint16_t>(i)); break;
        case ge::DT_INT32: Append(out, static_cast<int32_t>(i)); break;
        case ge::DT_UINT32: Append(out, static_cast<uint32_t>(i)); break;
        case ge::DT_INT64: Append(out, i); break;
        case ge::DT_UINT64: Append(out, v.is_number_unsigned() ? v.get<uint64_t>() : static_cast<uint64_t>(i)); break;
        case ge::DT_FLOAT16: Append(out, static_cast<_Float16>(x)); break;
        case ge::DT_FLOAT: Append(out, static_cast<float>(x)); break;
        case ge::DT_DOUBLE: Append(out, x); break;
        default:
          Bad(field, "constant values of type " + DataTypeShortName(d.dtype) + " are not supported",
              "Use bool, an integer type, float16, float or double for a constant input", "E10027");
      }
    }
    return ir::Bytes::FromVector(std::move(out));
  }

  ir::AttrValue Attr(const json &a, const std::string &field) const {
    if (!a.is_object()) Bad(field, "must be an object, not " + Kind(a), "Write {\"name\": ..., \"type\": ..., \"value\": ...}");
    for (const char *required : {"name", "type", "value"})
      if (!a.contains(required))
        Bad(field, std::string("the required key '") + required + "' is missing", "Give the attr's name, type and value");
    const std::string name = String(a["name"], field + ".name");
    if (name.empty()) Bad(field + ".name", "the attr name is empty", "Give the attr's name", "E10029");
    const std::string type = String(a["type"], field + ".type");
    const std::string f = field + " ('" + name + "').value";
    const json &v = a["value"];
    ir::AttrValue out;
    auto need = [&](bool ok, const std::string &what) {
      if (!ok) Bad(f, "a " + type + " attr needs " + what + ", not " + v.dump(), "Write the value as " + what);
    };
    auto each = [&](const std::string &what, auto &&check, auto &&take) {
      need(v.is_array(), "a list of " + what);
      for (const json &x : v) {
        need(check(x), "a list of " + what);
        take(x);
      }
    };
    if (type == "bool") {
      need(v.is_boolean(), "true or false");
      out.kind = ir::AttrKind::kBool, out.b = v.get<bool>();
    } else if (type == "int") {
      out.kind = ir::AttrKind::kInt, out.i = Int(v, f);
    } else if (type == "float") {
      need(v.is_number(), "a number");
      out.kind = ir::AttrKind::kFloat, out.f = v.get<float>();
    } else if (type == "string") {
      out.kind = ir::AttrKind::kString, out.s = String(v, f);
    } else if (type == "list_bool") {
      out.kind = ir::AttrKind::kListBool;
      each("booleans", [](const json &x) { return x.is_boolean(); }, [&](const json &x) { out.list_b.push_back(x.get<bool>()); });
    } else if (type == "list_int") {
      out.kind = ir::AttrKind::kListInt;
      out.list_i = Ints(v, f);
    } else if (type == "list_float") {
      out.kind = ir::AttrKind::kListFloat;
      each("numbers", [](const json &x) { return x.is_number(); }, [&](const json &x) { out.list_f.push_back(x.get<float>()); });
    } else if (type == "list_string") {
      out.kind = ir::AttrKind::kListString;
      each("strings", [](const json &x) { return x.is_string(); }, [&](const json &x) { out.list_s.push_back(x.get<std::string>()); });
    } else if (type == "list_list_int") {
      out.kind = ir::AttrKind::kListListInt;
      need(v.is_array(), "a list of lists of integers");
      for (size_t k = 0; k < v.size(); ++k) out.list_list_i.push_back(Ints(v[k], f + "[" + std::to_string(k) + "]"));
    } else if (type == "data_type") {
      out.kind = ir::AttrKind::kDataType;
      if (v.is_string()) {
        if (!ParseDataTypeName(v.get<std::string>(), &out.dt))
          Bad(f, "'" + v.get<std::string>() + "' is not a data type", "Write a GE name such as \"DT_FLOAT\" or its number");
      } else {
        const int64_t n = Int(v, f);
        out.dt = static_cast<ge::DataType>(n);
        if (n < 0 || DataTypeName(out.dt) == "UNDEFINED")
          Bad(f, std::to_string(n) + " is not a data type number", "Write a GE number (DT_FLOAT = 0) or a name");
      }
    } else {
      Bad(field + ".type",
          "'" + type + "' is not an attr type (E13006)",
          "Use bool, int, float, string, list_bool, list_int, list_float, list_string, list_list_int or data_type",
          "E10030");
    }
    return out;
  }

  std::string path_;
  const SingleOpDesc *cur_ = nullptr;
};

bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; }

bool IsPlainName(const std::string &name) {
  if (name.empty() || name == "." || name == "..") return false;
  return std::all_of(name.begin(), name.end(), IsNameChar);
}

}  // namespace

std::string SingleOpDesc::Where() const {
  return "entry " + std::to_string(entry) + (type.empty() ? std::string() : " (op '" + type + "')");
}

std::vector<SingleOpDesc> ReadSingleOpFile(const std::string &path) { return Parser(path).Run(); }

std::vector<SingleOpDesc> ParseSingleOpText(const std::string &text, const std::string &path_for_errors) {
  return Parser(path_for_errors).RunText(text);
}

std::string SingleOpFileName(const SingleOpDesc &op) {
  std::string base;
  if (IsPlainName(op.name)) {
    base = op.name;
  } else {
    // The op type is not a file name ("a/b" must not name a folder): '.' and anything outside
    // the name characters become '_'.
    std::string type = op.type;
    for (char &c : type)
      if (c == '.' || !IsNameChar(c)) c = '_';
    base = std::to_string(op.op_index) + "_" + type;
    for (const auto *list : {&op.inputs, &op.outputs}) {
      for (const SingleOpTensor &t : *list) {
        base += "_" + std::to_string(static_cast<int>(t.desc.dtype)) + "_" + std::to_string(static_cast<int>(t.desc.format));
        for (int64_t d : t.desc.shape) base += "_" + std::to_string(d);
      }
    }
  }
  if (base.size() > kMaxFileName) base.resize(kMaxFileName);
  return base + ".om";
}

}  // namespace openatc::atc
