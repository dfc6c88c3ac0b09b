// ONNX parser plugin (<root>/framework/onnx/libcust_onnx_parsers.so): maps node AddCust of domain
// "custom.ops" (opset 1) to AxpyCustom; its parse function turns the ONNX attribute `scale` into
// AxpyCustom's `alpha` and refuses a node whose `scale` is negative
// (tests/e2e/e2e_onnx_custom_map_test.cc).
#include "register/register.h"

namespace {
domi::Status ParseAddCust(const ge::Operator &src, ge::Operator &dst) {
  float scale = 1.0f;
  if (src.GetAttr("scale", scale) != ge::GRAPH_SUCCESS) return domi::FAILED;
  if (scale < 0.0f) return domi::FAILED;
  dst.SetAttr("alpha", scale);
  return domi::SUCCESS;
}
}  // namespace

namespace domi {
REGISTER_CUSTOM_OP("AxpyCustom")
    .FrameworkType(ONNX)
    .OriginOpType("custom.ops::1::AddCust")
    .ParseParamsByOperatorFn(ParseAddCust);
}  // namespace domi
