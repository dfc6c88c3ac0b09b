// Version normalisation (openatc/frontend/onnx_reader.h, step 6): rewrites the older forms of ops
// whose attributes became inputs into the form the built-in op implements (the opset-18+ forms: onnx_normalize_new.cc), so built-in ops implement one
// form only. Facts from the ONNX operator changelog (docs/Changelog.md of ONNX 1.12):
//   Slice-1 -> 10: starts/ends/axes attrs became inputs 1..3 (steps input 4 added, optional)
//   Split-2/11 -> 13: `split` attr became optional input 1
//   Squeeze/Unsqueeze-1/11 -> 13: `axes` attr became input 1
//   Clip-1/6 -> 11: `min`/`max` float attrs became optional scalar inputs 1, 2
//   Pad-2 -> 11: `pads` (Pad-1: `paddings`) and `value` attrs became inputs 1, 2; `mode` stays
//   ReduceSum-1/11 -> 13: `axes` attr became optional input 1
//   Dropout-1/6/7/10 -> 12: `ratio` attr became optional input 1; `is_test` dropped
//   Upsample-7 (scales attr), Upsample-9/10 (scales input), Resize-10 -> Resize-13 inputs
//     (X, roi, scales, sizes) with coordinate_transformation_mode "asymmetric" and nearest_mode
//     "floor", which is how Upsample and Resize-10 map pixels.
#include "onnx_internal.h"

namespace openatc::frontend::onnx_detail {
namespace {

bool TakeInts(PendingNode &n, const char *name, std::vector<int64_t> *out) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kListInt) return false;
  *out = it->second.list_i;
  n.attrs.erase(it);
  return true;
}

bool TakeFloat(PendingNode &n, const char *name, float *out) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end() || it->second.kind != ir::AttrKind::kFloat) return false;
  *out = it->second.f;
  n.attrs.erase(it);
  return true;
}

void SetInput(PendingNode &n, size_t index, const std::string &name, std::shared_ptr<ir::ConstTensor> t) {
  if (n.inputs.size() <= index) n.inputs.resize(index + 1);
  n.inputs[index] = PendingInput{"", name, std::move(t)};
}

void SetString(PendingNode &n, const char *name, const std::string &value) {
  ir::AttrValue v;
  v.kind = ir::AttrKind::kString;
  v.s = value;
  n.attrs[name] = v;
}

// The attribute `attr` (ints) becomes input `index` (1-D int64) when present.
void IntsAttrToInput(PendingNode &n, const char *attr, size_t index) {
  std::vector<int64_t> v;
  if (TakeInts(n, attr, &v)) {
    n.inputs.resize(std::max(n.inputs.size(), index));  // keep earlier inputs; absent ones stay ""
    SetInput(n, index, attr, Int64Tensor(v));
  }
}

void ToResize(PendingNode &n, std::shared_ptr<ir::ConstTensor> scales_const) {
  PendingInput x = n.inputs.empty() ? PendingInput{} : n.inputs[0];
  PendingInput scales = n.inputs.size() > 1 ? n.inputs[1] : PendingInput{};
  if (scales_const) scales = PendingInput{"", "scales", std::move(scales_const)};
  n.inputs = {x, PendingInput{}, scales};
  n.op_type = "Resize";
  auto mode = n.attrs.find("mode");
  std::string m = mode != n.attrs.end() && mode->second.kind == ir::AttrKind::kString ? mode->second.s : "nearest";
  if (m == "bilinear") m = "linear";
  SetString(n, "mode", m);
  SetString(n, "coordinate_transformation_mode", "asymmetric");
  SetString(n, "nearest_mode", "floor");
}

}  // namespace

void NormalizeNode(PendingNode &n, int64_t opset, ge::DataType input_dtype, const ConstLookup &const_of,
                   const std::string &where, std::vector<Problem> *problems) {
  const std::string &op = n.op_type;
  if (opset >= 18) {
    NormalizeNewerNode(n, opset, const_of, where, problems);
  } else if (op == "Slice" && opset < 10) {
    std::vector<int64_t> starts, ends, axes;
    const bool has_starts = TakeInts(n, "starts", &starts), has_ends = TakeInts(n, "ends", &ends);
    const bool has_axes = TakeInts(n, "axes", &axes);
    n.inputs.resize(1);
    if (has_starts) SetInput(n, 1, "starts", Int64Tensor(starts));
    if (has_ends) SetInput(n, 2, "ends", Int64Tensor(ends));
    if (has_axes) SetInput(n, 3, "axes", Int64Tensor(axes));
  } else if (op == "Split" && opset < 13) {
    IntsAttrToInput(n, "split", 1);
  } else if ((op == "Squeeze" || op == "Unsqueeze") && opset < 13) {
    IntsAttrToInput(n, "axes", 1);
  } else if (op == "ReduceSum" && opset < 13) {
    IntsAttrToInput(n, "axes", 1);
  } else if (op == "Clip" && opset < 11) {
    float lo = 0, hi = 0;
    const bool has_lo = TakeFloat(n, "min", &lo), has_hi = TakeFloat(n, "max", &hi);
    n.inputs.resize(1);
    if (has_lo) SetInput(n, 1, "min", FloatScalar(lo, input_dtype));
    if (has_hi) SetInput(n, 2, "max", FloatScalar(hi, input_dtype));
  } else if (op == "Pad" && opset < 11) {
    std::vector<int64_t> pads;
    if (!TakeInts(n, "pads", &pads)) TakeInts(n, "paddings", &pads);
    float value = 0;
    const bool has_value = TakeFloat(n, "value", &value);
    n.inputs.resize(1);
    SetInput(n, 1, "pads", Int64Tensor(pads));
    if (has_value) SetInput(n, 2, "constant_value", FloatScalar(value, input_dtype));
  } else if (op == "Dropout" && opset < 12) {
    float ratio = 0;
    const bool has_ratio = TakeFloat(n, "ratio", &ratio);
    n.attrs.erase("is_test");
    n.inputs.resize(1);
    if (has_ratio) SetInput(n, 1, "ratio", FloatScalar(ratio, ge::DT_FLOAT));
  } else if (op == "Upsample") {
    auto it = n.attrs.find("scales");
    std::shared_ptr<ir::ConstTensor> scales_const;
    if (it != n.attrs.end() && it->second.kind == ir::AttrKind::kListFloat) {
      scales_const = FloatTensor(it->second.list_f);
      n.attrs.erase(it);
    }
    float h = 1, w = 1;  // Upsample-1 (experimental): NCHW height/width scales
    const bool has_h = TakeFloat(n, "height_scale", &h), has_w = TakeFloat(n, "width_scale", &w);
    if (!scales_const && (has_h || has_w)) scales_const = FloatTensor({1.0f, 1.0f, h, w});
    ToResize(n, std::move(scales_const));
  } else if (op == "Resize" && opset < 11) {
    ToResize(n, nullptr);
  } else if ((op == "Softmax" || op == "LogSoftmax" || op == "Hardmax") && opset < 13 &&
             n.attrs.find("axis") == n.attrs.end()) {
    // The default axis was 1 before opset 13 and -1 since; the op cannot tell an absent attribute
    // from its (newest) default, so the old default is written explicitly.
    ir::AttrValue axis;
    axis.kind = ir::AttrKind::kInt;
    axis.i = 1;
    n.attrs["axis"] = axis;
  }
}

}  // namespace openatc::frontend::onnx_detail
