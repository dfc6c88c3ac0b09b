// Blocked QuantizeLinear / DequantizeLinear (opset 21 `block_size`, and QuantizeLinear's
// `output_dtype`) in the opset-18+ set. Expected values computed by hand in the comments.
#include <onnx/defs/attr_proto_util.h>

#include "newer_model.h"

namespace openatc::newer {

void QuantBlockedCases(const std::string &root) {
  using TP = onnx::TensorProto;
  // x int8 [2, 4], blocks of 2 along axis 1: scale [2, 2] = {1, 2; 3, 4}, zero point {0, 1; 0, 0}.
  // Row 0: (1 - 0) * 1, (2 - 0) * 1, (3 - 1) * 2, (4 - 1) * 2 = 1, 2, 4, 6.
  // Row 1: 5 * 3, 6 * 3, 7 * 4, 8 * 4 = 15, 18, 28, 32.
  Case a("test_dequantizelinear_21_blocked", 21, 10);
  a.InputRaw("x", TP::INT8, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  a.FloatInit("s", {2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  a.Int32DataInit("z", TP::INT8, {2, 2}, {0, 1, 0, 0});
  a.AddNode("DequantizeLinear", {"x", "s", "z"}, {"y"},
            {onnx::MakeAttribute("axis", int64_t{1}), onnx::MakeAttribute("block_size", int64_t{2})});
  a.Output("y", {2, 4}, {1.0f, 2.0f, 4.0f, 6.0f, 15.0f, 18.0f, 28.0f, 32.0f});
  a.Write(root);
  // x [3, 2], blocks of 2 along axis 0 (the last block holds one row): scale [2, 2] = {2, 4; 10, 1};
  // no zero point, output_dtype INT8: round-half-even(x / s) saturated into [-128, 127].
  // Rows 0-1 / {2, 4}: 3 / 2 = 1.5 -> 2, -6 / 4 = -1.5 -> -2, 5 / 2 = 2.5 -> 2, 1000 / 4 -> 127;
  // row 2 / {10, 1}: -15 / 10 = -1.5 -> -2, -300 -> -128.
  Case b("test_quantizelinear_21_blocked_output_dtype", 21, 10);
  b.Input("x", {3, 2}, {3.0f, -6.0f, 5.0f, 1000.0f, -15.0f, -300.0f});
  b.FloatInit("s", {2, 2}, {2.0f, 4.0f, 10.0f, 1.0f});
  b.AddNode("QuantizeLinear", {"x", "s"}, {"y"},
            {onnx::MakeAttribute("axis", int64_t{0}), onnx::MakeAttribute("block_size", int64_t{2}),
             onnx::MakeAttribute("output_dtype", int64_t{TP::INT8})});
  b.OutputRaw("y", TP::INT8, {3, 2}, {2, 0xFE, 2, 127, 0xFE, 0x80});
  b.Write(root);
}

}  // namespace openatc::newer
