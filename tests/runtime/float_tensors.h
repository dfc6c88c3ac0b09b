// Float32 host tensors for the runtime tests: made from values and a shape, and read back.
#ifndef OPENATC_TESTS_RUNTIME_FLOAT_TENSORS_H_
#define OPENATC_TESTS_RUNTIME_FLOAT_TENSORS_H_

#include <cstring>
#include <vector>

#include "openatc/common/host_tensor.h"

namespace openatc::testing {

/// A float32 tensor of `shape` holding `v` (row-major).
inline HostTensor FloatTensor(std::vector<int64_t> shape, const std::vector<float> &v) {
  HostTensor t;
  t.dtype = ge::DT_FLOAT;
  t.shape = std::move(shape);
  t.data.resize(v.size() * sizeof(float));
  if (!v.empty()) std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

/// The values of a float32 tensor.
inline std::vector<float> FloatsOf(const HostTensor &t) {
  std::vector<float> v(t.data.size() / sizeof(float));
  if (!v.empty()) std::memcpy(v.data(), t.data.data(), v.size() * sizeof(float));
  return v;
}

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_RUNTIME_FLOAT_TENSORS_H_
