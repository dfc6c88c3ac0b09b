// The built-in ops' OpenMP team runtime (ops/common/omp_team.cc), compiled into this test: the
// executable defines the OpenMP entry points, so this process's libdnnl binds to them as the ops
// library's does. What oneDNN and the ops rely on: team numbering and size, the caller as
// thread 0, the join, per-thread nthreads-var, nested regions on one thread, barriers, one team
// per master thread, the workers asleep after kSpinMicros; oneDNN primitives computing exact
// values on it; and the spin gate's verdicts on a sequence of looks (omp_spin_gate.h).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/omp_spin_gate.h"
#include "common/omp_team.h"
#include "oneapi/dnnl/dnnl.hpp"
#include "process_tasks.h"

extern "C" {
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_barrier();
int omp_get_thread_num();
int omp_get_num_threads();
int omp_get_max_threads();
void omp_set_num_threads(int n);
int omp_in_parallel();
}

namespace {
using openatc_ops::omp_team::RegionsRun;

// Runs `body` as a parallel region of `threads` threads (0: nthreads-var).
template <typename F>
void Parallel(unsigned threads, F &&body) {
  GOMP_parallel([](void *f) { (*static_cast<F *>(f))(); }, &body, threads, 0);
}

struct Seen {
  std::mutex mu;
  std::set<int> ids;
  std::set<std::thread::id> threads;
  std::vector<int> sizes;
  std::vector<int> in_parallel;
  void Note() {
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(omp_get_thread_num());
    threads.insert(std::this_thread::get_id());
    sizes.push_back(omp_get_num_threads());
    in_parallel.push_back(omp_in_parallel());
  }
};

// The CPU time (ms) of this process's team workers (/proc/self/task/*: comm, schedstat).
double WorkersCpuMs(int *workers) {
  double ms = 0;
  *workers = 0;
  const bool ok = openatc::testing::ForEachTask([&](const std::string &, const std::string &task) {
    if (openatc::testing::TaskName(task) != openatc_ops::omp_team::kWorkerName) return;
    ++*workers;
    ms += openatc::testing::TaskCpuMs(task);
  });
  return ok ? ms : -1;
}
}  // namespace

TEST_CASE("a region runs its body once on each of n threads, the caller as number 0", "[omp_team]") {
  for (unsigned n : {1u, 2u, 3u, 5u}) {
    Seen seen;
    std::atomic<int> caller_id{-1};
    const std::thread::id caller = std::this_thread::get_id();
    const uint64_t regions = RegionsRun();
    Parallel(n, [&] {
      seen.Note();
      if (std::this_thread::get_id() == caller) caller_id = omp_get_thread_num();
    });
    CHECK(seen.ids.size() == n);
    CHECK(*seen.ids.begin() == 0);
    CHECK(*seen.ids.rbegin() == static_cast<int>(n) - 1);
    CHECK(seen.threads.size() == n);
    CHECK(seen.sizes == std::vector<int>(n, static_cast<int>(n)));
    CHECK(seen.in_parallel == std::vector<int>(n, n > 1 ? 1 : 0));
    CHECK(caller_id == 0);
    CHECK(RegionsRun() - regions == (n > 1 ? 1u : 0u));
    // Outside a region: a team of one.
    CHECK(omp_get_thread_num() == 0);
    CHECK(omp_get_num_threads() == 1);
    CHECK(omp_in_parallel() == 0);
  }
}

TEST_CASE("num_threads 0 takes the calling thread's nthreads-var", "[omp_team]") {
  omp_set_num_threads(3);
  CHECK(omp_get_max_threads() == 3);
  Seen seen;
  Parallel(0, [&] { seen.Note(); });
  CHECK(seen.ids.size() == 3u);
  // Another thread's setting is its own.
  int other = 0;
  std::thread([&] {
    omp_set_num_threads(2);
    other = omp_get_max_threads();
  }).join();
  CHECK(other == 2);
  CHECK(omp_get_max_threads() == 3);
  omp_set_num_threads(0);  // below 1 means 1
  CHECK(omp_get_max_threads() == 1);
  omp_set_num_threads(2);
}

TEST_CASE("a nested region runs on the thread that meets it", "[omp_team]") {
  Seen inner;
  std::atomic<int> outer_ids_after{0};
  Parallel(2, [&] {
    const int outer = omp_get_thread_num();
    Parallel(4, [&] { inner.Note(); });
    if (omp_get_thread_num() == outer && omp_get_num_threads() == 2) ++outer_ids_after;
  });
  CHECK(inner.sizes == std::vector<int>{1, 1});     // one inner thread per outer thread
  CHECK(inner.in_parallel == std::vector<int>{1, 1});  // still inside the outer, active region
  CHECK(inner.threads.size() == 2u);
  CHECK(outer_ids_after == 2);
}

TEST_CASE("GOMP_barrier lets no thread on before every thread arrived", "[omp_team]") {
  constexpr int kThreads = 2, kRounds = 2000;
  std::array<std::atomic<int>, kThreads> round{};
  std::atomic<int> early{0};
  Parallel(kThreads, [&] {
    const int me = omp_get_thread_num();
    for (int r = 1; r <= kRounds; ++r) {
      round[me].store(r, std::memory_order_relaxed);
      GOMP_barrier();
      for (int t = 0; t < kThreads; ++t)
        if (round[t].load(std::memory_order_relaxed) < r) ++early;
      GOMP_barrier();
    }
  });
  CHECK(early == 0);
  GOMP_barrier();  // outside a region: returns
}

TEST_CASE("two master threads run their regions at once, each with its own team", "[omp_team]") {
  std::atomic<int> sum_a{0}, sum_b{0};
  auto master = [](std::atomic<int> *sum) {
    for (int r = 0; r < 500; ++r) Parallel(2, [&] { *sum += omp_get_thread_num() + 1; });
  };
  std::thread a(master, &sum_a), b(master, &sum_b);
  a.join();
  b.join();
  CHECK(sum_a == 500 * 3);
  CHECK(sum_b == 500 * 3);
}

TEST_CASE("the team's workers sleep once a region is over", "[omp_team]") {
  Parallel(2, [] {});
  int workers = 0;
  const double cpu0 = WorkersCpuMs(&workers);
  REQUIRE(workers >= 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // kSpinMicros (0.1 ms) of spinning at most; ACTIVE would spin through the 200 ms.
  if (std::getenv("OMP_WAIT_POLICY") == nullptr) CHECK(WorkersCpuMs(&workers) - cpu0 < 1.0);
}

TEST_CASE("TeamAwake: true while the workers spin after a region, false once they sleep", "[omp_team]") {
  // Whether a worker spins right after a region is the spin gate's choice (omp_spin_gate.h): on a
  // loaded machine it sleeps at once. Under OMP_WAIT_POLICY=ACTIVE it always spins, so there the
  // check is exact: tests/ops/CMakeLists.txt runs this case once more as omp_team_active.
  using openatc_ops::omp_team::TeamAwake;
  const bool active = openatc_ops::omp_team::ProcessWaitPolicy() == openatc_ops::omp_team::WaitPolicy::kActive;
  std::thread([active] {  // a thread of its own: no team yet
    CHECK_FALSE(TeamAwake(2));
    Parallel(2, [] {});
    if (active) CHECK(TeamAwake(2));
    CHECK_FALSE(TeamAwake(3));  // a team of 2
    bool inside = true;
    Parallel(2, [&] {
      if (omp_get_thread_num() == 0) inside = TeamAwake(2);
    });
    CHECK_FALSE(inside);
    Parallel(2, [] {});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (std::getenv("OMP_WAIT_POLICY") == nullptr) CHECK_FALSE(TeamAwake(2));  // kSpinMicros is 0.1 ms
  }).join();
}

TEST_CASE("oneDNN's primitives run their regions on this team and compute exact values", "[omp_team]") {
  // [64, 512] x [512, 256] of small integers: every float32 sum is exact.
  const int M = 64, K = 512, N = 256;
  std::vector<float> a(M * K), b(K * N), c(M * N, -1.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(static_cast<int>(i * 7 % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>(i * 3 % 7) - 3);
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream s(eng);
  using tag = dnnl::memory::format_tag;
  const dnnl::memory::desc ad({M, K}, dnnl::memory::data_type::f32, tag::ab);
  const dnnl::memory::desc bd({K, N}, dnnl::memory::data_type::f32, tag::ab);
  const dnnl::memory::desc cd({M, N}, dnnl::memory::data_type::f32, tag::ab);
  omp_set_num_threads(2);
  const dnnl::matmul mm(dnnl::matmul::primitive_desc(dnnl::matmul::desc(ad, bd, cd), eng));
  const uint64_t regions = RegionsRun();
  mm.execute(s, {{DNNL_ARG_SRC, dnnl::memory(ad, eng, a.data())},
                 {DNNL_ARG_WEIGHTS, dnnl::memory(bd, eng, b.data())},
                 {DNNL_ARG_DST, dnnl::memory(cd, eng, c.data())}});
  s.wait();
  CHECK(RegionsRun() > regions);
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += static_cast<double>(a[i * K + k]) * b[k * N + j];
      wrong += c[i * N + j] != static_cast<float>(ref);
    }
  CHECK(wrong == 0);
}

TEST_CASE("a worker's region starts with its master's nthreads-var", "[omp_team]") {
  omp_set_num_threads(3);
  std::array<std::atomic<int>, 3> seen{};
  Parallel(3, [&] { seen[static_cast<size_t>(omp_get_thread_num())] = omp_get_max_threads(); });
  for (auto &s : seen) CHECK(s == 3);
  omp_set_num_threads(2);
}

TEST_CASE("an exception out of the caller's share leaves after the join, the thread outside any region",
          "[omp_team]") {
  std::atomic<int> done{0};
  CHECK_THROWS_AS(Parallel(2,
                           [&] {
                             if (omp_get_thread_num() == 0) throw std::runtime_error("share 0");
                             ++done;
                           }),
                  std::runtime_error);
  CHECK(done == 1);  // the worker's share ran and was joined
  CHECK(omp_in_parallel() == 0);
  CHECK(omp_get_num_threads() == 1);
  Seen seen;
  Parallel(2, [&] { seen.Note(); });
  CHECK(seen.ids.size() == 2u);
}

namespace {
// Runs a region from its destructor, which runs after the thread's team was joined (it is
// registered before the team's holder, so it is destroyed after it).
struct LateRegion {
  std::atomic<int> *ran = nullptr, *size = nullptr;
  ~LateRegion() {
    if (ran != nullptr) Parallel(2, [this] {
        ++*ran;
        *size = omp_get_num_threads();
      });
  }
};
thread_local LateRegion t_late;
}  // namespace

TEST_CASE("a region met after the thread's team was joined runs on that thread alone", "[omp_team]") {
  std::atomic<int> ran{0}, size{0};
  std::thread([&] {
    t_late.ran = &ran;
    t_late.size = &size;
    Parallel(2, [] {});  // the team, and its holder, after t_late
  }).join();
  CHECK(ran == 1);
  CHECK(size == 1);
}

TEST_CASE("the spin gate quiets a thread briefly after a contended look, long after two close together",
          "[omp_team]") {
  using namespace openatc_ops::omp_team;
  constexpr int64_t kMs = 1000 * 1000;
  int64_t last = -1000;  // no contended look before
  // 1 ms since the previous look: contended once the run delay beyond 50 us a schedule exceeds
  // 1 ms / 8 = 125 us.
  CHECK(QuietMillisAfterLook(&last, 5000, 0, 0, kMs) == 0);
  CHECK(QuietMillisAfterLook(&last, 5001, 100 * 1000, 2, kMs) == 0);  // 2 wakes, 100 us: the allowance
  CHECK(QuietMillisAfterLook(&last, 5002, 174 * 1000, 1, kMs) == 0);  // 124 us beyond
  CHECK(last == -1000);
  CHECK(QuietMillisAfterLook(&last, 5006, 2 * kMs, 1, 4 * kMs) == 10);  // one long wait: 1.95 ms > 0.5
  CHECK(last == 5006);
  CHECK(QuietMillisAfterLook(&last, 5030, 176 * 1000, 1, kMs) == 10);  // 126 us beyond, 24 ms later
  CHECK(QuietMillisAfterLook(&last, 5050, 500 * 1000, 1, kMs) == 100);  // 20 ms later: busy, quiet long
  CHECK(QuietMillisAfterLook(&last, 5051, 0, 1, kMs) == 0);
  CHECK(last == 5050);
}
