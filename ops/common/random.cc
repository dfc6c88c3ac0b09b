// The random ops' generator; see random.h.
#include "common/random.h"

#include <cmath>

#include "common/movement.h"

namespace openatc_ops {

OpRandom::OpRandom(const gert::ExtendedKernelContext *ctx, size_t seed_index) {
  const float seed = AttrFloat(ctx, seed_index, NAN);
  if (std::isnan(seed)) {
    std::random_device rd;
    gen_.seed((static_cast<uint64_t>(rd()) << 32) ^ rd());
  } else {
    // The float's bits (not its integer part), so that seeds 0.25 and 0.5 differ.
    uint32_t bits = 0;
    static_assert(sizeof(bits) == sizeof(seed), "float is 32-bit");
    __builtin_memcpy(&bits, &seed, sizeof(bits));
    gen_.seed(bits);
  }
}

double OpRandom::Normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - Uniform(), u2 = Uniform();  // u1 in (0, 1]: log(u1) is finite
  const double r = std::sqrt(-2.0 * std::log(u1)), t = 2.0 * M_PI * u2;
  spare_ = r * std::sin(t);
  has_spare_ = true;
  return r * std::cos(t);
}

ge::DataType RandomOutputType(const gert::ExtendedKernelContext *ctx, size_t dtype_index, ge::DataType like,
                              bool (*accepts)(ge::DataType)) {
  const int64_t code = AttrInt(ctx, dtype_index, 0);
  const ge::DataType d = code == 0 ? like : DtypeFromOnnx(code);
  if (!accepts(d)) {
    Fail(ctx, code == 0 ? "the input's dtype " + DtypeName(like) + " is not one this op can produce; set dtype"
                        : "dtype " + std::to_string(code) + " is not one this op can produce");
    return ge::DT_UNDEFINED;
  }
  return d;
}

}  // namespace openatc_ops
