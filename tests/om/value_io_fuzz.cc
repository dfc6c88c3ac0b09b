// libFuzzer target of omrun's SequenceProto / OptionalProto reader (tensor_io::ValueFromPbBytes,
// openatc/tensor_io/value_io.h). The first byte chooses what the model expects: the value kind
// (byte % 3: sequence, optional tensor, optional sequence), the element dtype ((byte / 3) % 8, the
// table below) and the shape (bit 7: {2, -1}, else any shape); the rest is the .pb file. Any byte
// string must give a value of that kind whose every tensor has that dtype and data size equal to
// element count x element size, or an openatc::Error; never a crash, leak, hang or huge
// allocation. Built only with clang and -DOPENATC_BUILD_FUZZERS=ON; seeds: <build>/fuzz_seeds/value_io
// (value_io_fuzz_seeds.cc). Run: value_io_fuzz -max_len=4096 <work dir> <seed dir>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/value_io.h"

namespace {

using openatc::ir::ValueKind;

constexpr ValueKind kKinds[] = {ValueKind::kSequence, ValueKind::kOptionalTensor, ValueKind::kOptionalSequence};
constexpr ge::DataType kDtypes[] = {ge::DT_FLOAT, ge::DT_INT64, ge::DT_INT32, ge::DT_UINT8,
                                    ge::DT_FLOAT16, ge::DT_BF16, ge::DT_BOOL, ge::DT_DOUBLE};

void CheckTensor(const openatc::tensor_io::HostTensor &t, ge::DataType dtype) {
  const int64_t count = openatc::ShapeElementCount(t.shape);
  if (t.dtype != dtype || count < 0 || t.data.size() != static_cast<uint64_t>(count) * openatc::DataTypeSize(t.dtype))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  const ValueKind kind = kKinds[data[0] % 3];
  const ge::DataType dtype = kDtypes[(data[0] / 3) % 8];
  const std::vector<int64_t> shape = (data[0] & 0x80) != 0 ? std::vector<int64_t>{2, -1} : std::vector<int64_t>{-2};
  try {
    const openatc::HostValue v = openatc::tensor_io::ValueFromPbBytes(std::vector<uint8_t>(data + 1, data + size),
                                                                      "fuzz.pb", "input 0 'v'", kind, dtype, shape);
    if (v.kind != kind) std::abort();
    if (kind == ValueKind::kOptionalTensor) {
      if (v.present) CheckTensor(v.tensor, dtype);
      if (!v.seq.empty()) std::abort();
    } else {
      if (!v.present && !v.seq.empty()) std::abort();
      for (const auto &t : v.seq) CheckTensor(t, dtype);
    }
  } catch (const openatc::Error &) {
  }
  return 0;
}
