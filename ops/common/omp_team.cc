// The OpenMP team runtime of the built-in ops (see omp_team.h).
#include "common/omp_team.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

namespace openatc_ops::omp_team {
namespace {

using Clock = std::chrono::steady_clock;

void FutexWait(std::atomic<uint32_t> *word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

enum class Policy { kAdaptive, kPassive, kActive };

Policy ReadPolicy() {
  const char *v = std::getenv("OMP_WAIT_POLICY");
  if (v == nullptr) return Policy::kAdaptive;
  if (strcasecmp(v, "passive") == 0) return Policy::kPassive;
  if (strcasecmp(v, "active") == 0) return Policy::kActive;
  return Policy::kAdaptive;
}

Policy WaitPolicy() {
  static const Policy policy = ReadPolicy();
  return policy;
}

// The default of nthreads-var: OMP_NUM_THREADS's first value, else the CPUs this process may use.
int DefaultThreads() {
  if (const char *v = std::getenv("OMP_NUM_THREADS")) {
    char *end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && n > 0 && n <= 4096) return static_cast<int>(n);
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(n) : 1;
}

std::atomic<uint64_t> g_regions{0};

// Per thread: whether a wait may spin. The kernel counts the time a thread waited for a CPU while
// runnable (its run delay, /proc/thread-self/schedstat). Each wake from a futex adds a little
// (~16 us on the 2-core VM: the idle CPU's wake-up); a thread that shares its core with another
// runnable task waits whole time slices (milliseconds). So a thread whose run delay beyond
// kWakeAllowanceMicros per time it was scheduled exceeds 1/kContendedShare of the time since its
// last look sleeps at once for the next kQuietMillis. Looked at most once a millisecond (one
// pread, ~2 us). Without that file, a thread never spins.
struct SpinGate {
  int fd = -2;  // -2: not opened yet, -1: unavailable
  int64_t delay_ns = -1, slices = 0;
  Clock::time_point last_look{}, next_look{}, quiet_until{};

  ~SpinGate() {
    if (fd >= 0) close(fd);
  }

  // The thread's run delay so far (ns) and the times it was scheduled; false if unknown.
  bool Read(int64_t *delay, int64_t *scheduled) {
    if (fd == -2) fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char text[96];
    const ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0) return false;
    text[n] = '\0';
    unsigned long long on_cpu = 0, waited = 0, count = 0;
    if (std::sscanf(text, "%llu %llu %llu", &on_cpu, &waited, &count) != 3) return false;
    *delay = static_cast<int64_t>(waited);
    *scheduled = static_cast<int64_t>(count);
    return true;
  }

  bool MaySpin() {
    const Policy policy = WaitPolicy();
    if (policy == Policy::kPassive) return false;
    if (policy == Policy::kActive) return true;
    const Clock::time_point now = Clock::now();
    if (now >= next_look) {
      next_look = now + std::chrono::milliseconds(1);
      int64_t delay = 0, scheduled = 0;
      if (!Read(&delay, &scheduled)) return false;
      if (delay_ns >= 0) {
        const int64_t wall = std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_look).count();
        const int64_t excess = (delay - delay_ns) - (scheduled - slices) * kWakeAllowanceMicros * 1000;
        if (excess * kContendedShare > wall) quiet_until = now + std::chrono::milliseconds(kQuietMillis);
      }
      delay_ns = delay;
      slices = scheduled;
      last_look = now;
    }
    return delay_ns >= 0 && now >= quiet_until;
  }
};

thread_local SpinGate t_gate;

// Waits until `word` no longer holds `old`: spins while the gate allows (up to kSpinMicros, or
// kActiveSpinMicros under ACTIVE), then sleeps on the futex. `sleepers` counts the threads asleep
// on `word`, so that a waker calls the kernel only when someone sleeps.
void WaitChange(std::atomic<uint32_t> *word, uint32_t old, std::atomic<uint32_t> *sleepers) {
  if (word->load(std::memory_order_acquire) != old) return;
  if (t_gate.MaySpin()) {
    const int64_t micros = WaitPolicy() == Policy::kActive ? kActiveSpinMicros : kSpinMicros;
    const Clock::time_point until = Clock::now() + std::chrono::microseconds(micros);
    do {
      for (int i = 0; i < 64; ++i) {
        if (word->load(std::memory_order_acquire) != old) return;
        __builtin_ia32_pause();
      }
    } while (Clock::now() < until);
  }
  sleepers->fetch_add(1, std::memory_order_seq_cst);
  while (word->load(std::memory_order_seq_cst) == old) FutexWait(word, old);
  sleepers->fetch_sub(1, std::memory_order_relaxed);
}

// Publishes a change of `word` made by the caller (seq_cst) to sleeping waiters.
void WakeIfSleeping(std::atomic<uint32_t> *word, std::atomic<uint32_t> *sleepers) {
  if (sleepers->load(std::memory_order_seq_cst) != 0) FutexWakeAll(word);
}

struct Team;

// The calling thread's place: the team and region it runs in (none: the initial thread, a team
// of one), its number in the team and whether an enclosing region runs on more than one thread.
struct Place {
  Team *team = nullptr;
  int id = 0;
  int size = 1;
  bool in_active = false;
};

thread_local Place t_place;
thread_local int t_nthreads = 0;  // nthreads-var; 0 until the first use (then DefaultThreads())

int NthreadsVar() {
  if (t_nthreads == 0) t_nthreads = DefaultThreads();
  return t_nthreads;
}

// The team of one master thread. Worker k (1..n-1) waits on its own word `go` for the next region
// it is part of, runs it and counts down `pending`; the team meets at GOMP_barrier (bar_count,
// bar_gen). A region's fields are written before the `go` words it raises and read after.
struct Team {
  struct alignas(64) Worker {
    std::atomic<uint32_t> go{0}, sleepers{0};
    std::thread thread;
  };
  void (*fn)(void *) = nullptr;
  void *data = nullptr;
  int size = 1;
  bool quit = false;
  alignas(64) std::atomic<uint32_t> pending{0};
  std::atomic<uint32_t> pending_sleepers{0};
  alignas(64) std::atomic<uint32_t> bar_count{0};
  std::atomic<uint32_t> bar_gen{0}, bar_sleepers{0};
  std::vector<std::unique_ptr<Worker>> workers;  // workers[k - 1] is number k

  ~Team() {
    quit = true;
    for (auto &w : workers) Raise(*w);
    for (auto &w : workers) w->thread.join();
  }

  static void Raise(Worker &w) {
    w.go.fetch_add(1, std::memory_order_seq_cst);
    WakeIfSleeping(&w.go, &w.sleepers);
  }

  void Grow(int threads) {
    while (static_cast<int>(workers.size()) + 1 < threads) {
      workers.push_back(std::make_unique<Worker>());
      Worker *w = workers.back().get();
      const int id = static_cast<int>(workers.size());
      w->thread = std::thread([this, w, id] { Work(*w, id); });
    }
  }

  void Work(Worker &w, int id) {
    pthread_setname_np(pthread_self(), kWorkerName);
    for (uint32_t seen = 0;; ++seen) {
      WaitChange(&w.go, seen, &w.sleepers);
      if (quit) return;
      t_place = Place{this, id, size, true};
      fn(data);
      t_place = Place{};
      if (pending.fetch_sub(1, std::memory_order_seq_cst) == 1) WakeIfSleeping(&pending, &pending_sleepers);
    }
  }

  // Runs fn(data) on `threads` threads, the caller as number 0, and joins them.
  void Run(void (*f)(void *), void *d, int threads) {
    Grow(threads);
    fn = f;
    data = d;
    size = threads;
    pending.store(static_cast<uint32_t>(threads - 1), std::memory_order_relaxed);
    for (int k = 1; k < threads; ++k) Raise(*workers[k - 1]);
    const Place outer = t_place;
    t_place = Place{this, 0, threads, true};
    f(d);
    t_place = outer;
    for (uint32_t left; (left = pending.load(std::memory_order_acquire)) != 0;) WaitChange(&pending, left, &pending_sleepers);
    g_regions.fetch_add(1, std::memory_order_relaxed);
  }

  void Barrier() {
    const uint32_t phase = bar_gen.load(std::memory_order_acquire);
    if (bar_count.fetch_add(1, std::memory_order_acq_rel) + 1 == static_cast<uint32_t>(size)) {
      bar_count.store(0, std::memory_order_relaxed);
      bar_gen.fetch_add(1, std::memory_order_seq_cst);
      WakeIfSleeping(&bar_gen, &bar_sleepers);
    } else {
      WaitChange(&bar_gen, phase, &bar_sleepers);
    }
  }
};

// Each master thread's team, made at its first region of more than one thread and joined when the
// thread ends. A fork's child has none of the parent's workers: it forgets the team (leaked).
thread_local std::unique_ptr<Team> t_team;

void ForgetTeamInChild() { (void)t_team.release(); }
const int g_atfork = pthread_atfork(nullptr, nullptr, ForgetTeamInChild);

void Parallel(void (*fn)(void *), void *data, unsigned num_threads) {
  int threads = num_threads != 0 ? static_cast<int>(num_threads) : NthreadsVar();
  if (t_place.in_active) threads = 1;  // nested regions run on the thread that meets them
  if (threads <= 1) {
    const Place outer = t_place;
    t_place = Place{nullptr, 0, 1, outer.in_active};
    fn(data);
    t_place = outer;
    return;
  }
  if (!t_team) t_team = std::make_unique<Team>();
  t_team->Run(fn, data, threads);
}

}  // namespace

uint64_t RegionsRun() { return g_regions.load(std::memory_order_relaxed); }

}  // namespace openatc_ops::omp_team

// The entry points (libgomp's ABI: GOMP_parallel since GCC 4.9, GOMP_barrier since GCC 4.2; the
// omp_* routines of OpenMP 5.x, section 3.2), exported from this library.
#define OPENATC_OMP_EXPORT extern "C" __attribute__((visibility("default")))

OPENATC_OMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned /*flags*/) {
  openatc_ops::omp_team::Parallel(fn, data, num_threads);
}

OPENATC_OMP_EXPORT void GOMP_barrier() {
  using openatc_ops::omp_team::t_place;
  if (t_place.team != nullptr && t_place.size > 1) t_place.team->Barrier();
}

OPENATC_OMP_EXPORT int omp_get_thread_num() { return openatc_ops::omp_team::t_place.id; }

OPENATC_OMP_EXPORT int omp_get_num_threads() { return openatc_ops::omp_team::t_place.size; }

OPENATC_OMP_EXPORT int omp_get_max_threads() { return openatc_ops::omp_team::NthreadsVar(); }

OPENATC_OMP_EXPORT void omp_set_num_threads(int n) { openatc_ops::omp_team::t_nthreads = n > 0 ? n : 1; }

OPENATC_OMP_EXPORT int omp_in_parallel() { return openatc_ops::omp_team::t_place.in_active ? 1 : 0; }
