// Version normalisation of the opset-18+ forms (openatc/frontend/onnx_reader.h, step 6), facts
// from the ONNX operator changelog:
//   ReduceMean/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare-18: `axes` attr became optional
//     input 1, with `noop_with_empty_axes`; the built-ins implement the attribute form, so a
//     constant axes input becomes the attribute again (empty axes + noop = Identity); an axes
//     input computed in the graph or fed at run time stays input 1, which the built-ins read in
//     place of the attribute (reported as unsupported only with noop_with_empty_axes = 1).
//   Resize-18: `antialias`, `keep_aspect_ratio_policy` and `axes` reach the built-in, which
//     implements them.
//   Cast/CastLike-19: `saturate` (and Cast/CastLike-24's `round_mode`) only change casts into
//     float8 types; both reach the built-ins, which implement them (ops/common/cast_convert.h); a
//     Cast into a dtype OpenATC has not (string, complex) is listed.
//   QuantizeLinear-19: `saturate` (float8 outputs) reaches the built-in.
//   AveragePool-19: `dilations` is kept (the built-in pools dilated windows with a plain loop).
// Every other attribute of an opset-18+ node that libonnx 1.12's schema of the op does not know
// is listed too (CheckNewerAttributes), so that no newer attribute is silently ignored.
#include <onnx/defs/schema.h>

#include <cstring>

#include "onnx_internal.h"
#include "openatc/frontend/onnx_reader.h"

namespace openatc::frontend::onnx_detail {
namespace {

bool IsAttrReduce(const std::string &op) {
  return op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd" || op == "ReduceL1" ||
         op == "ReduceL2" || op == "ReduceLogSum" || op == "ReduceLogSumExp" || op == "ReduceSumSquare";
}

// int64/int32 values of a 1-D (or scalar) constant; false for other dtypes.
bool ConstInts(const ir::ConstTensor &t, std::vector<int64_t> *out) {
  out->clear();
  if (t.desc.dtype == ge::DT_INT64) {
    for (size_t i = 0; i + 8 <= t.data.size; i += 8) {
      int64_t v = 0;
      std::memcpy(&v, t.data.data + i, 8);
      out->push_back(v);
    }
    return true;
  }
  if (t.desc.dtype == ge::DT_INT32) {
    for (size_t i = 0; i + 4 <= t.data.size; i += 4) {
      int32_t v = 0;
      std::memcpy(&v, t.data.data + i, 4);
      out->push_back(v);
    }
    return true;
  }
  return false;
}

int64_t TakeInt(PendingNode &n, const char *name, int64_t def) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kInt) return def;
  const int64_t v = it->second.i;
  n.attrs.erase(it);
  return v;
}

void ReduceAxesInputToAttr(PendingNode &n, const ConstLookup &const_of, const std::string &where,
                           std::vector<Problem> *problems) {
  const int64_t noop = TakeInt(n, "noop_with_empty_axes", 0);
  std::vector<int64_t> axes;
  if (n.inputs.size() > 1 && !n.inputs[1].name.empty()) {
    const ir::ConstTensor *t = const_of(n.inputs[1].name);
    if (t == nullptr && noop == 0) return;  // computed axes stay input 1 (ops/common/reduce.h)
    if (t == nullptr || !ConstInts(*t, &axes)) {
      problems->push_back({where, n.op_type + "'s axes input '" + n.inputs[1].name +
                                      (t == nullptr ? "' is computed and noop_with_empty_axes is 1; OpenATC "
                                                      "needs such axes at compile time"
                                                    : "' is not an int64 constant")});
      return;
    }
  }
  n.inputs.resize(1);
  if (axes.empty() && noop != 0) {
    n.op_type = "Identity";  // ONNX: empty axes with noop_with_empty_axes = the input unchanged
    n.attrs.erase("keepdims");
    return;
  }
  if (!axes.empty()) {
    ir::AttrValue v;
    v.kind = ir::AttrKind::kListInt;
    v.list_i = axes;
    n.attrs["axes"] = v;
  }
}

// antialias is kept for the built-in (nearest ignores it, as ONNX says); it must be an int.
void ResizeOpset18(PendingNode &n, const std::string &where, std::vector<Problem> *problems) {
  auto it = n.attrs.find("antialias");
  if (it != n.attrs.end() && it->second.kind != ir::AttrKind::kInt)
    problems->push_back({where, "Resize's antialias must be an int (0 or 1)"});
}

// Attributes added after opset 17 that the normalisation or the built-ins handle.
bool HandledNewerAttribute(const std::string &op, const std::string &attr) {
  if (IsAttrReduce(op)) return attr == "noop_with_empty_axes";
  if (op == "Split") return attr == "num_outputs";
  if (op == "Resize") return attr == "antialias" || attr == "keep_aspect_ratio_policy" || attr == "axes";
  if (op == "Cast" || op == "CastLike") return attr == "saturate" || attr == "round_mode";
  if (op == "QuantizeLinear" && attr == "saturate") return true;
  if ((op == "QuantizeLinear" || op == "DequantizeLinear") && attr == "block_size") return true;  // opset 21 blocks
  if (op == "QuantizeLinear" && attr == "output_dtype") return true;  // opset 21
  if (op == "AveragePool") return attr == "dilations";                    // the built-ins implement these
  if (op == "LpPool") return attr == "dilations" || attr == "ceil_mode";
  return false;
}

void CastOpset19(PendingNode &n, const std::string &where, std::vector<Problem> *problems) {
  auto to = n.attrs.find("to");
  ge::DataType dt = ge::DT_UNDEFINED;
  if (n.op_type == "Cast" && to != n.attrs.end() && to->second.kind == ir::AttrKind::kInt &&
      !OnnxToGeDataType(static_cast<int32_t>(to->second.i), &dt))
    problems->push_back({where, "Cast to " + OnnxDataTypeName(static_cast<int32_t>(to->second.i)) +
                                    " is not supported (numeric types, bool, float16, bfloat16, the float8 types, int4, "
                                    "uint4 and float4e2m1 are)"});
}

}  // namespace

void NormalizeNewerNode(PendingNode &n, int64_t opset, const ConstLookup &const_of, const std::string &where,
                        std::vector<Problem> *problems) {
  if (IsAttrReduce(n.op_type) && opset >= 18) {
    ReduceAxesInputToAttr(n, const_of, where, problems);
  } else if (n.op_type == "Resize" && opset >= 18) {
    ResizeOpset18(n, where, problems);
  } else if ((n.op_type == "Cast" || n.op_type == "CastLike") && opset >= 19) {
    CastOpset19(n, where, problems);
  }
}

void CheckNewerAttributes(const onnx::NodeProto &node, int64_t opset, const std::string &where,
                          std::vector<Problem> *problems) {
  if (opset <= kLibonnxMaxOpset) return;
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(node.op_type(), static_cast<int>(kLibonnxMaxOpset), "");
  if (schema == nullptr) return;  // an op ONNX added after opset 17: a built-in or custom op of its own
  for (const auto &a : node.attribute())
    if (!schema->attributes().count(a.name()) && !HandledNewerAttribute(node.op_type(), a.name()))
      problems->push_back({where, "attribute '" + a.name() + "' (newer than opset " +
                                      std::to_string(kLibonnxMaxOpset) + ") is not supported"});
}

}  // namespace openatc::frontend::onnx_detail
