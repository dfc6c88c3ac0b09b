// A tensor's elements read as doubles, and the statistics a `dump_data: stats` dump writes
// (docs/acl.md §8): used by NodeDump (node_dump.h) and omrun --compare's cosine.
#ifndef OPENATC_DUMP_TENSOR_STATS_H_
#define OPENATC_DUMP_TENSOR_STATS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "openatc/common/host_tensor.h"

namespace openatc::dump {

/// The elements as doubles (fp16 and bf16 widened exactly); nullopt for dtypes without a
/// numeric reading (strings, complex, sub-byte and 8-bit float types).
std::optional<std::vector<double>> TensorDoubles(const HostTensor &t);

/// Statistics of one tensor: element count, max, min and mean over the finite elements, and the
/// NaN, +inf and -inf counts. max/min/mean are null (JSON) when no element is finite.
struct TensorStats {
  uint64_t count = 0;
  std::optional<double> max, min, mean;
  uint64_t nan_count = 0, pos_inf_count = 0, neg_inf_count = 0;
};

/// nullopt exactly when TensorDoubles is.
std::optional<TensorStats> ComputeStats(const HostTensor &t);

/// {"count", "max", "min", "mean", "nan_count", "pos_inf_count", "neg_inf_count"}.
nlohmann::json StatsJson(const TensorStats &s);

}  // namespace openatc::dump

#endif  // OPENATC_DUMP_TENSOR_STATS_H_
