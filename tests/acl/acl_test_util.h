// Helpers for the ACL application-API tests: the compilable_add_custom OM compiled once per
// test process with the atc binary, OM file bytes, and small dataset builders.
#ifndef OPENATC_TESTS_ACL_ACL_TEST_UTIL_H_
#define OPENATC_TESTS_ACL_ACL_TEST_UTIL_H_

#include <string>
#include <vector>

#include "acl/acl.h"

namespace openatc::testing {

/// <tmp>/single_add.om: examples/compilable_add_custom/single_add.json compiled with
/// `atc --soc_version host` (ASCEND_CUSTOM_OPP_PATH = the example's build OPP root). Compiled on
/// first use; the folder is removed at exit. Fails the test (REQUIRE) when atc fails.
const std::string &SingleAddOm();

/// A dataset of host-memory buffers (aclrtMalloc'ed) holding `values`; owns and frees them.
class FloatDataset {
 public:
  /// One buffer per entry of `tensors`, each holding that vector's floats.
  explicit FloatDataset(const std::vector<std::vector<float>> &tensors);
  ~FloatDataset();
  FloatDataset(const FloatDataset &) = delete;
  FloatDataset &operator=(const FloatDataset &) = delete;
  aclmdlDataset *get() const { return dataset_; }
  /// The floats of buffer `i` (copied out with aclrtMemcpy D2H).
  std::vector<float> Read(size_t i) const;

 private:
  aclmdlDataset *dataset_ = nullptr;
};

/// True when aclGetRecentErrMsg() contains `text`.
bool RecentErrorContains(const std::string &text);

}  // namespace openatc::testing

#endif  // OPENATC_TESTS_ACL_ACL_TEST_UTIL_H_
