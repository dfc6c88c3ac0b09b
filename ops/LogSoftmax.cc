// LogSoftmax (ONNX LogSoftmax-1/11/13): log(exp(x) / sum(exp(x))) along `axis`; opset < 13 nodes
// use the old 2-D coercion (see ops/common/softmax.h). Float, double and float16.
#include "common/softmax.h"

namespace ge {
REG_OP(LogSoftmax)
    .INPUT(input, TensorType::FloatingDataType())
    .OUTPUT(output, TensorType::FloatingDataType())
    .ATTR(axis, Int, -1)
    .ATTR(onnx_opset, Int, 17)
    .OP_END_FACTORY_REG(LogSoftmax);
}  // namespace ge

namespace openatc_ops {

class LogSoftmax : public SoftmaxOp<true> {};
REG_AUTO_MAPPING_OP(LogSoftmax);

}  // namespace openatc_ops
