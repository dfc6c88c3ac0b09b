/**
 * @file openatc/common/host_tensor.h
 * A tensor held in host memory: what the runtime takes and returns (openatc/runtime/model.h)
 * and what omrun's tensor files read and write (openatc/tensor_io/tensor_io.h, which names it
 * tensor_io::HostTensor).
 */
#ifndef OPENATC_COMMON_HOST_TENSOR_H_
#define OPENATC_COMMON_HOST_TENSOR_H_

#include <cstdint>
#include <vector>

#include "graph/types.h"

namespace openatc {

/// A dense, C-order (row-major), little-endian tensor in host memory.
/// `data.size()` == element count x DataTypeSize(dtype); a scalar has an empty `shape`.
struct HostTensor {
  ge::DataType dtype = ge::DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

}  // namespace openatc

#endif  // OPENATC_COMMON_HOST_TENSOR_H_
