// Seeded random input data, the same on every platform (std::mt19937_64 is fully specified by
// the C++ standard; the value formulas below use only integer and exact float operations).
#include <cstring>
#include <random>

#include "element.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/tensor_io/float16.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc {
namespace tensor_io {
namespace {
template <typename T>
void Store(HostTensor &t, size_t i, T v) {
  std::memcpy(t.data.data() + i * sizeof(T), &v, sizeof(T));
}
}  // namespace

HostTensor RandomTensor(ge::DataType dtype, const std::vector<int64_t> &shape, uint64_t seed, size_t input_index) {
  const int64_t count = ShapeElementCount(shape);
  if (count < 0)
    throw Error(ErrorCategory::kInvalidInput, "OA3003",
                "input " + std::to_string(input_index) + " has unknown dims " + ShapeToString(shape) +
                    ", so random data cannot be made for it",
                "Give this input with --input");
  const size_t comp = ComponentSize(dtype);
  if (KindOf(dtype) == ValueKind::kOther || comp == 0)
    throw Error(ErrorCategory::kInvalidInput, "OA3001",
                "input " + std::to_string(input_index) + ": random data of dtype " + DataTypeShortName(dtype) +
                    " is not supported",
                "Give this input with --input");
  const size_t elem_bytes = DataTypeSize(dtype);
  constexpr uint64_t kMaxBytes = 1ull << 34;  // 16 GiB: refuse rather than exhaust memory
  if (static_cast<uint64_t>(count) > kMaxBytes / elem_bytes)
    throw Error(ErrorCategory::kInvalidInput, "OA3004",
                "input " + std::to_string(input_index) + " of shape " + ShapeToString(shape) +
                    " is larger than 16 GiB; random data is not made for it",
                "Give this input with --input");
  const size_t components = static_cast<size_t>(count) * (elem_bytes / comp);
  HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  t.data.resize(components * comp);
  std::mt19937_64 gen(seed + 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(input_index) + 1));
  for (size_t i = 0; i < components; ++i) {
    const uint64_t r = gen();
    const double u = static_cast<double>(r >> 11) * 0x1.0p-53;  // [0, 1), exact
    const double f = 2.0 * u - 1.0;                             // [-1, 1), exact
    const int64_t s = static_cast<int64_t>((r >> 32) % 21) - 10;
    const uint64_t un = (r >> 32) % 11;
    switch (dtype) {
      case ge::DT_FLOAT: case ge::DT_COMPLEX64: Store<float>(t, i, static_cast<float>(f)); break;
      case ge::DT_DOUBLE: case ge::DT_COMPLEX128: Store<double>(t, i, f); break;
      case ge::DT_FLOAT16: Store<uint16_t>(t, i, FloatToHalf(static_cast<float>(f))); break;
      case ge::DT_BF16: {
        // float32 -> bfloat16 round to nearest even (f is finite).
        float ff = static_cast<float>(f);
        uint32_t bits;
        std::memcpy(&bits, &ff, 4);
        bits += 0x7fffu + ((bits >> 16) & 1u);
        Store<uint16_t>(t, i, static_cast<uint16_t>(bits >> 16));
        break;
      }
      case ge::DT_BOOL: Store<uint8_t>(t, i, static_cast<uint8_t>(r >> 63)); break;
      case ge::DT_INT8: Store<int8_t>(t, i, static_cast<int8_t>(s)); break;
      case ge::DT_INT16: Store<int16_t>(t, i, static_cast<int16_t>(s)); break;
      case ge::DT_INT32: Store<int32_t>(t, i, static_cast<int32_t>(s)); break;
      case ge::DT_INT64: Store<int64_t>(t, i, s); break;
      case ge::DT_UINT8: Store<uint8_t>(t, i, static_cast<uint8_t>(un)); break;
      case ge::DT_UINT16: Store<uint16_t>(t, i, static_cast<uint16_t>(un)); break;
      case ge::DT_UINT32: Store<uint32_t>(t, i, static_cast<uint32_t>(un)); break;
      case ge::DT_UINT64: Store<uint64_t>(t, i, un); break;
      default: break;
    }
  }
  return t;
}

}  // namespace tensor_io
}  // namespace openatc
