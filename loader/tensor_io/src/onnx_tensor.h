// onnx.TensorProto -> HostTensor (internal to tensor_io; onnx_tensor.cc).
#ifndef OPENATC_TENSOR_IO_ONNX_TENSOR_H_
#define OPENATC_TENSOR_IO_ONNX_TENSOR_H_

#include <string>

#include <onnx/onnx_pb.h>

#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {

/// The tensor `proto` holds, with ReadOnnxTensorPb's rules and errors (OA3001 naming `path`).
HostTensor FromTensorProto(const onnx::TensorProto &proto, const std::string &path);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_ONNX_TENSOR_H_
