/**
 * @file ops/common/random.h
 * The generator of the random ONNX ops (ops/Bernoulli.cc, ops/RandomUniformLike.cc,
 * ops/RandomNormalLike.cc). ONNX leaves the sequence to the implementation; here it is a 64-bit
 * Mersenne Twister. With attribute `seed` every run of the node draws the same values (the
 * generator restarts from the seed at each execution); without it each run draws fresh values
 * from std::random_device. Uniform draws are 53-bit doubles in [0, 1); normal ones use Box-Muller.
 */
#ifndef OPENATC_OPS_COMMON_RANDOM_H_
#define OPENATC_OPS_COMMON_RANDOM_H_

#include <cstdint>
#include <random>

#include "common/op_util.h"

namespace openatc_ops {

class OpRandom {
 public:
  /// Seeded from float attribute `seed_index` when the node has it, else from std::random_device.
  OpRandom(const gert::ExtendedKernelContext *ctx, size_t seed_index);
  /// A double in [0, 1).
  double Uniform() { return static_cast<double>(gen_() >> 11) * (1.0 / 9007199254740992.0); }
  /// A standard normal draw.
  double Normal();

 private:
  std::mt19937_64 gen_;
  bool has_spare_ = false;
  double spare_ = 0;
};

/// Output dtype of a random op: ONNX type number attribute `dtype_index` when set (nonzero), else
/// `like`; DT_UNDEFINED after Fail when it is not one `accepts` takes.
ge::DataType RandomOutputType(const gert::ExtendedKernelContext *ctx, size_t dtype_index, ge::DataType like,
                              bool (*accepts)(ge::DataType));

}  // namespace openatc_ops

#endif  // OPENATC_OPS_COMMON_RANDOM_H_
