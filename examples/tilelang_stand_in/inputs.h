// The inputs and the check the TileLang-flow programs share (session_run, model_exec): x[i] = i / 4,
// y[i] = 1000 - i, every sum exact in float, so z must equal x + nodes * y bit for bit.
#ifndef OPENATC_EXAMPLES_TILELANG_STAND_IN_INPUTS_H_
#define OPENATC_EXAMPLES_TILELANG_STAND_IN_INPUTS_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

inline std::vector<float> InputX(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i) / 4.0f;
  return v;
}

inline std::vector<float> InputY(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = 1000.0f - static_cast<float>(i);
  return v;
}

/** Prints "Precision check passed, max_error=0" when z == x + nodes * y exactly; false otherwise. */
inline bool CheckSum(const std::vector<float> &z, int nodes) {
  const int64_t n = static_cast<int64_t>(z.size());
  const std::vector<float> x = InputX(n), y = InputY(n);
  double max_error = 0.0;
  for (size_t i = 0; i < z.size(); ++i) {
    float want = x[i];
    for (int k = 0; k < nodes; ++k) want += y[i];
    const double err = std::fabs(static_cast<double>(z[i]) - want);
    if (std::isnan(z[i]) || err > max_error) max_error = std::isnan(z[i]) ? INFINITY : err;
  }
  if (max_error != 0.0) {
    std::printf("Precision check failed, max_error=%g (z[0]=%g z[%lld]=%g)\n", max_error, z.empty() ? 0.0f : z[0],
                static_cast<long long>(n - 1), z.empty() ? 0.0f : z.back());
    return false;
  }
  std::printf("Precision check passed, max_error=0 (%lld elements, z[%lld]=%g)\n", static_cast<long long>(n),
              static_cast<long long>(n - 1), z.empty() ? 0.0f : z.back());
  return true;
}

#endif  // OPENATC_EXAMPLES_TILELANG_STAND_IN_INPUTS_H_
