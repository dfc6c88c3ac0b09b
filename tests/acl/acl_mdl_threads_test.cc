// Several models loaded and executed from several threads at once: 4 threads x 2 models (the
// [4,4] OM and the same graph compiled with --input_shape data:8,16), each thread running both
// models on its own inputs and checking add2 = 3x on every run.
#include <catch2/catch.hpp>
#include <atomic>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl_test_util.h"
#include "run_command.h"

using namespace openatc::testing;

namespace {

std::string CompileWide(const std::string &dir) {
  auto r = RunCommand({BuildPath("bin/atc"), "--model", SourcePath("examples/compilable_add_custom/single_add.json"),
                       "--soc_version", "host", "--input_shape", "data:8,16", "--output", dir + "/wide"},
                      {{"ASCEND_CUSTOM_OPP_PATH", BuildPath("examples/compilable_add_custom/opp")}});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return dir + "/wide.om";
}

/// A one-buffer dataset over aclrtMalloc'ed memory, without Catch2 (not thread-safe).
struct RawDataset {
  aclmdlDataset *ds = aclmdlCreateDataset();
  void *dev = nullptr;
  aclDataBuffer *buf = nullptr;
  bool ok = false;
  explicit RawDataset(const std::vector<float> &v) {
    const size_t bytes = v.size() * sizeof(float);
    ok = ds != nullptr && aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_NORMAL_ONLY) == ACL_SUCCESS &&
         aclrtMemcpy(dev, bytes, v.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
         (buf = aclCreateDataBuffer(dev, bytes)) != nullptr && aclmdlAddDatasetBuffer(ds, buf) == ACL_SUCCESS;
  }
  ~RawDataset() {
    if (buf) aclDestroyDataBuffer(buf);
    if (dev) aclrtFree(dev);
    if (ds) aclmdlDestroyDataset(ds);
  }
};

/// Runs model `id` (n floats in and out) `rounds` times; returns the number of wrong results.
int RunMany(uint32_t id, size_t n, float seed, int rounds) {
  int wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    std::vector<float> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = seed + static_cast<float>(r * 100 + static_cast<int>(i));
    RawDataset in(x);
    RawDataset out(std::vector<float>(n, 0.0f));
    if (!in.ok || !out.ok || aclmdlExecute(id, in.ds, out.ds) != ACL_SUCCESS) {
      ++wrong;
      continue;
    }
    std::vector<float> got(n);
    if (aclrtMemcpy(got.data(), n * 4, out.dev, n * 4, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) ++wrong;
    for (size_t i = 0; i < n; ++i)
      if (got[i] != 3.0f * x[i]) {
        ++wrong;
        break;
      }
  }
  return wrong;
}

}  // namespace

TEST_CASE("aclmdl: 4 threads x 2 models execute concurrently", "[acl]") {
  const std::string dir = MakeTempDir();
  const std::string wide = CompileWide(dir);
  uint32_t small_id = 0, wide_id = 0;
  REQUIRE(aclmdlLoadFromFile(SingleAddOm().c_str(), &small_id) == ACL_SUCCESS);
  REQUIRE(aclmdlLoadFromFile(wide.c_str(), &wide_id) == ACL_SUCCESS);
  aclmdlDesc *desc = aclmdlCreateDesc();
  REQUIRE(aclmdlGetDesc(desc, wide_id) == ACL_SUCCESS);
  CHECK(aclmdlGetInputSizeByIndex(desc, 0) == 8 * 16 * 4);
  aclmdlDestroyDesc(desc);

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      // Catch2 assertions are not thread-safe: count failures, check after the join.
      for (int k = 0; k < 5; ++k) {
        wrong += RunMany(small_id, 16, static_cast<float>(t * 1000), 2);
        wrong += RunMany(wide_id, 128, static_cast<float>(-t * 1000), 2);
      }
    });
  }
  for (auto &th : threads) th.join();
  CHECK(wrong.load() == 0);
  CHECK(aclmdlUnload(small_id) == ACL_SUCCESS);
  CHECK(aclmdlUnload(wide_id) == ACL_SUCCESS);
  RemoveTree(dir);
}
