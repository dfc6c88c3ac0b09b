// libFuzzer target of the .npy reader (tensor_io::ReadNpyBytes): any byte string must give a
// HostTensor whose data size equals element count x element size, or an openatc::Error; never a
// crash, leak, hang or huge allocation. Built only with clang and -DOPENATC_BUILD_FUZZERS=ON;
// seeds: tests/om/fuzz_seeds/npy. Run: npy_fuzz -max_len=4096 <work dir> <seed dir>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/tensor_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  try {
    const auto t = openatc::tensor_io::ReadNpyBytes(std::vector<uint8_t>(data, data + size), "fuzz.npy");
    const int64_t count = openatc::ShapeElementCount(t.shape);
    if (count < 0 || t.data.size() != static_cast<uint64_t>(count) * openatc::DataTypeSize(t.dtype))
      std::abort();
  } catch (const openatc::Error &) {
  }
  return 0;
}
