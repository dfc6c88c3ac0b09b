// OPENATC_LAUNCH (include/openatc/host_kernel.h): the in-process form of Ascend C's
// kernel<<<num_block, nullptr, stream>>>(args...): every block once with GetBlockIdx/GetBlockNum
// set, blocks running concurrently, stream order, argument conversion, and its error codes.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "acl/acl_rt.h"
#include "openatc/host_kernel.h"

namespace {
std::atomic<int> g_rendezvous{0};
std::atomic<int> g_runs{0};
}  // namespace

// out[b] = 1000 * num + b + offset, for block b of num.
OPENATC_HOST_KERNEL(record_blocks, GM_ADDR out, int64_t offset) {
  reinterpret_cast<int64_t *>(out)[GetBlockIdx()] = 1000 * GetBlockNum() + GetBlockIdx() + offset;
  g_runs.fetch_add(1);
}

// Blocks 0 and 1 each wait (up to 5 s) for the other: both finish only if they run concurrently.
OPENATC_HOST_KERNEL(meet, GM_ADDR met) {
  if (GetBlockIdx() > 1) return;
  g_rendezvous.fetch_add(1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (g_rendezvous.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  reinterpret_cast<int32_t *>(met)[GetBlockIdx()] = g_rendezvous.load() >= 2 ? 1 : 0;
}

// Block 2 throws; the others write 7.
OPENATC_HOST_KERNEL(throw_in_block_2, GM_ADDR out) {
  if (GetBlockIdx() == 2) throw std::runtime_error("block 2 fails");
  reinterpret_cast<int32_t *>(out)[GetBlockIdx()] = 7;
}

// y[i] = x[i] * 2 over n elements, one element per block.
OPENATC_HOST_KERNEL(twice, GM_ADDR x, GM_ADDR y) {
  const float *a = reinterpret_cast<const float *>(x);
  reinterpret_cast<float *>(y)[GetBlockIdx()] = 2.0f * a[GetBlockIdx()];
}

TEST_CASE("OPENATC_LAUNCH runs every block once with its index and the block count", "[host_kernel]") {
  std::vector<int64_t> out(37, -1);
  g_runs = 0;
  // int converts to the int64_t parameter as in a call; uint8_t* is GM_ADDR.
  REQUIRE(OPENATC_LAUNCH(record_blocks, 37, nullptr)(reinterpret_cast<uint8_t *>(out.data()), 5) == 0);
  CHECK(g_runs.load() == 37);
  for (int64_t b = 0; b < 37; ++b) CHECK(out[static_cast<size_t>(b)] == 37000 + b + 5);
  // The calling thread's own block state is restored.
  CHECK(GetBlockIdx() == 0);
  CHECK(GetBlockNum() == 1);
}

TEST_CASE("OPENATC_LAUNCH runs blocks concurrently", "[host_kernel]") {
  if (std::thread::hardware_concurrency() < 2) SUCCEED("one hardware thread: nothing to check");
  else {
    int32_t met[4] = {0, 0, 0, 0};
    g_rendezvous = 0;
    REQUIRE(OPENATC_LAUNCH(meet, 4, nullptr)(reinterpret_cast<uint8_t *>(met)) == 0);
    CHECK(met[0] == 1);
    CHECK(met[1] == 1);
  }
}

TEST_CASE("OPENATC_LAUNCH follows the stream's order", "[host_kernel]") {
  aclrtStream stream = nullptr;
  REQUIRE(aclrtCreateStream(&stream) == ACL_SUCCESS);
  void *xd = nullptr;
  REQUIRE(aclrtMalloc(&xd, 16, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
  float *x = static_cast<float *>(xd);
  for (int i = 0; i < 4; ++i) x[i] = static_cast<float>(i + 1);
  float y[4] = {9, 9, 9, 9};
  // Work queued on the stream before the launch (x zeroed) is visible to it.
  REQUIRE(aclrtMemsetAsync(xd, 16, 0, 16, stream) == ACL_SUCCESS);
  REQUIRE(OPENATC_LAUNCH(twice, 4, stream)(static_cast<uint8_t *>(xd), reinterpret_cast<uint8_t *>(y)) == 0);
  CHECK(y[0] == 0.0f);
  CHECK(y[3] == 0.0f);
  x[0] = 3.0f;
  x[3] = -1.0f;
  REQUIRE(OPENATC_LAUNCH(twice, 4, stream)(static_cast<uint8_t *>(xd), reinterpret_cast<uint8_t *>(y)) == 0);
  REQUIRE(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  CHECK(y[0] == 6.0f);
  CHECK(y[3] == -2.0f);
  REQUIRE(aclrtFree(xd) == ACL_SUCCESS);
  REQUIRE(aclrtDestroyStream(stream) == ACL_SUCCESS);
}

TEST_CASE("OPENATC_LAUNCH error codes: block count, unknown stream, a throwing block", "[host_kernel]") {
  std::vector<int64_t> out(4, -1);
  g_runs = 0;
  CHECK(OPENATC_LAUNCH(record_blocks, 0, nullptr)(reinterpret_cast<uint8_t *>(out.data()), 0) == ACL_ERROR_INVALID_PARAM);
  CHECK(OPENATC_LAUNCH(record_blocks, 65536, nullptr)(reinterpret_cast<uint8_t *>(out.data()), 0) ==
        ACL_ERROR_INVALID_PARAM);
  int not_a_stream = 0;
  CHECK(OPENATC_LAUNCH(record_blocks, 4, &not_a_stream)(reinterpret_cast<uint8_t *>(out.data()), 0) != ACL_SUCCESS);
  CHECK(g_runs.load() == 0);  // none of these ran a block
  CHECK(out == std::vector<int64_t>(4, -1));

  int32_t w[5] = {0, 0, 0, 0, 0};
  CHECK(OPENATC_LAUNCH(throw_in_block_2, 5, nullptr)(reinterpret_cast<uint8_t *>(w)) == ACL_ERROR_RT_FAILURE);
  CHECK(w[0] == 7);
  CHECK(w[1] == 7);
  CHECK(w[2] == 0);
  CHECK(w[3] == 7);
  CHECK(w[4] == 7);
}
