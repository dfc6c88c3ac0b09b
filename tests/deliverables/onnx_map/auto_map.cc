// Linked into the onnx_map deliverable next to AxpyCustom (tests/deliverables/axpy): maps the
// default-domain ONNX op "AxpyAuto" at opset 11 to AxpyCustom, attributes copied by name
// (tests/e2e/e2e_onnx_custom_map_test.cc).
#include "register/register.h"

namespace domi {
REGISTER_CUSTOM_OP("AxpyCustom")
    .FrameworkType(ONNX)
    .OriginOpType("ai.onnx::11::AxpyAuto")
    .ParseParamsByOperatorFn(AutoMappingByOpFn)
    .ImplyType(ImplyType::CUSTOM);
}  // namespace domi
