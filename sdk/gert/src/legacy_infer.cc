// Legacy IMPL_OP inference helpers (openatc/gert/legacy_infer.h).
#include "openatc/gert/legacy_infer.h"

#include <cctype>

#include "openatc/common/dtype.h"
#include "openatc/register/op_impl.h"
#include "openatc/register/op_prototype.h"

namespace openatc::gert_impl {
namespace {

// "T" or "\"T\"" (GE's samples write INPUT(x, "T")) -> T; anything else -> "".
std::string Symbol(const std::string &expr) {
  std::string s = expr;
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.empty()) return "";
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return "";
  return s;
}

// The one dtype of "TensorType({DT_X})" / "TensorType(DT_X)", else DT_UNDEFINED.
ge::DataType SingleDtype(const std::string &expr) {
  const std::string head = "TensorType(";
  if (expr.rfind(head, 0) != 0 || expr.back() != ')') return ge::DT_UNDEFINED;
  std::string inner = expr.substr(head.size(), expr.size() - head.size() - 1);
  if (!inner.empty() && inner.front() == '{' && inner.back() == '}') inner = inner.substr(1, inner.size() - 2);
  while (!inner.empty() && inner.front() == ' ') inner.erase(inner.begin());
  while (!inner.empty() && inner.back() == ' ') inner.pop_back();
  if (inner.find(',') != std::string::npos) return ge::DT_UNDEFINED;
  ge::DataType dt = ge::DT_UNDEFINED;
  return ParseDataTypeName(inner, &dt) ? dt : ge::DT_UNDEFINED;
}

}  // namespace

bool FindLegacyInferHooks(const std::string &op_type, LegacyInferHooks *out) {
  reg::OpImplFuncs f;
  if (!reg::FindOpImpl(op_type, &f)) return false;
  if (f.infer_shape == nullptr && f.infer_datatype == nullptr && !f.output_dtype_same_as_first_input) return false;
  if (out != nullptr) {
    out->infer_shape = f.infer_shape;
    out->infer_datatype = f.infer_datatype;
    out->dtype_same_as_first_input = f.output_dtype_same_as_first_input;
  }
  return true;
}

void InferDataTypesFromPrototype(Frame &frame, bool same_as_first_input) {
  auto input_dtype = [&](size_t flat) {
    return flat < frame.inputs.size() && frame.inputs[flat] != nullptr ? frame.inputs[flat]->GetDataType()
                                                                       : ge::DT_UNDEFINED;
  };
  if (same_as_first_input) {
    for (gert::Tensor *t : frame.outputs)
      if (t->GetDataType() == ge::DT_UNDEFINED) t->SetDataType(input_dtype(0));
    return;
  }
  if (frame.node == nullptr) return;
  const reg::OpPrototype *proto = reg::FindOpPrototype(frame.node->type);
  if (proto == nullptr) return;
  const NodeInfo &info = *frame.node;
  for (size_t o = 0; o < proto->outputs.size() && o < info.ir_outputs.size(); ++o) {
    const std::string &expr = o < proto->output_type_exprs.size() ? proto->output_type_exprs[o] : std::string();
    ge::DataType dt = ge::DT_UNDEFINED;
    const std::string sym = Symbol(expr);
    if (!sym.empty()) {
      for (size_t i = 0; i < proto->inputs.size() && i < info.ir_inputs.size() && dt == ge::DT_UNDEFINED; ++i) {
        const std::string in_expr = i < proto->input_type_exprs.size() ? proto->input_type_exprs[i] : std::string();
        if (Symbol(in_expr) != sym || info.ir_inputs[i].GetInstanceNum() == 0) continue;
        dt = input_dtype(info.ir_inputs[i].GetInstanceStart());
      }
      auto allowed = proto->datatype_syms.find(sym);
      if (dt == ge::DT_UNDEFINED && allowed != proto->datatype_syms.end() && allowed->second.size() == 1)
        dt = allowed->second.front();
    } else {
      dt = SingleDtype(expr);
    }
    if (dt == ge::DT_UNDEFINED) continue;
    const gert::AnchorInstanceInfo &range = info.ir_outputs[o];
    for (size_t k = 0; k < range.GetInstanceNum(); ++k) {
      const size_t flat = range.GetInstanceStart() + k;
      if (flat < frame.outputs.size() && frame.outputs[flat]->GetDataType() == ge::DT_UNDEFINED)
        frame.outputs[flat]->SetDataType(dt);
    }
  }
}

}  // namespace openatc::gert_impl
