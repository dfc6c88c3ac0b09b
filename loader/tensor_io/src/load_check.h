// The checks LoadTensorFile makes on a tensor read from a file (internal to tensor_io;
// load_input.cc), shared with the elements of sequence and optional files (value_io.cc).
#ifndef OPENATC_TENSOR_IO_LOAD_CHECK_H_
#define OPENATC_TENSOR_IO_LOAD_CHECK_H_

#include <string>
#include <vector>

#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {

/// `t` as read from `path` (of `kind`) checked against `expected_dtype` / `expected_shape` with
/// LoadTensorFile's rules and errors (OA3002 / OA3003 / OA3004, message prefixed with `label`).
HostTensor CheckLoadedTensor(HostTensor t, FileKind kind, const std::string &path, const std::string &label,
                             ge::DataType expected_dtype, const std::vector<int64_t> &expected_shape);

}  // namespace tensor_io
}  // namespace openatc

#endif  // OPENATC_TENSOR_IO_LOAD_CHECK_H_
