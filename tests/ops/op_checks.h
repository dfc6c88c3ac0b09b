// Catch2 checks shared by the op tests of the signal, spatial and random ops
// (ops_signal_test.cc, ops_spatial_test.cc, ops_random_test.cc): float/int64 tensor makers, a
// tolerance comparison and the failure-message check.
#ifndef OPENATC_TESTS_OPS_OP_CHECKS_H_
#define OPENATC_TESTS_OPS_OP_CHECKS_H_

#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "op_harness.h"

namespace openatc::testing {

inline HostTensor Fl(std::vector<int64_t> shape, const std::vector<float> &v) {
  return Tensor<float>(ge::DT_FLOAT, std::move(shape), v);
}
inline HostTensor In(std::vector<int64_t> shape, const std::vector<int64_t> &v) {
  return Tensor<int64_t>(ge::DT_INT64, std::move(shape), v);
}

/// |got[i] - want[i]| <= atol for every element (same sizes required).
inline void CheckClose(const std::vector<float> &got, const std::vector<float> &want, float atol = 1e-5f) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": " << got[i] << " vs " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= atol);
  }
}

}  // namespace openatc::testing

/// Runs OpCase `c` expecting a failure whose text (the op's message and the error) holds `fragment`.
#define CHECK_FAILS_WITH(c, fragment)                                         \
  do {                                                                        \
    const std::string _t = ::openatc::testing::RunOpExpectingFailure(c);      \
    INFO(_t);                                                                 \
    CHECK(_t.find("<no error>") == std::string::npos);                        \
    CHECK(_t.find(fragment) != std::string::npos);                            \
  } while (0)

#endif  // OPENATC_TESTS_OPS_OP_CHECKS_H_
