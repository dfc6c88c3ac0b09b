// The OpenMP team runtime of the built-in ops (see omp_team.h).
#include "common/omp_team.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <memory>
#include <system_error>
#include <thread>
#include <vector>

#include "common/omp_binding.h"
#include "common/omp_spin_gate.h"

namespace openatc_ops::omp_team {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxThreads = 4096;

void FutexWait(std::atomic<uint32_t> *word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}

void FutexWakeAll(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
}

// The default of nthreads-var: OMP_NUM_THREADS's first value, else the CPUs this process may use.
int DefaultThreads() {
  if (const char *v = std::getenv("OMP_NUM_THREADS")) {
    char *end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && n > 0 && n <= kMaxThreads) return static_cast<int>(n);
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<int>(std::min<long>(n, kMaxThreads)) : 1;
}

std::atomic<uint64_t> g_regions{0};

// Waits until `word` no longer holds `old`: spins while the gate allows (up to kSpinMicros, or
// kActiveSpinMicros under ACTIVE), then sleeps on the futex. `sleepers` counts the threads asleep
// on `word`, so that a waker calls the kernel only when someone sleeps.
void WaitChange(std::atomic<uint32_t> *word, uint32_t old, std::atomic<uint32_t> *sleepers) {
  if (word->load(std::memory_order_acquire) != old) return;
  if (MaySpin()) {
    const int64_t micros = ProcessWaitPolicy() == WaitPolicy::kActive ? kActiveSpinMicros : kSpinMicros;
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
  int nthreads_var = 1;  // the master's, which each worker's region starts with
  bool quit = false;
  bool running = false;  // the master is inside a region
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

  // Up to `threads` - 1 workers; returns the team size there is (fewer when the system refuses a
  // thread: oneDNN splits its work over the team it gets, omp_get_num_threads()).
  int Grow(int threads) {
    while (static_cast<int>(workers.size()) + 1 < threads) {
      auto w = std::make_unique<Worker>();
      const int id = static_cast<int>(workers.size()) + 1;
      Worker *wp = w.get();
      try {
        w->thread = std::thread([this, wp, id] { Work(*wp, id); });
      } catch (const std::system_error &) {
        break;
      }
      workers.push_back(std::move(w));
    }
    return std::min(threads, static_cast<int>(workers.size()) + 1);
  }

  void Work(Worker &w, int id) {
    pthread_setname_np(pthread_self(), kWorkerName);
    for (uint32_t seen = 0;; ++seen) {
      WaitChange(&w.go, seen, &w.sleepers);
      if (quit) return;
      t_place = Place{this, id, size, true};
      const int own = t_nthreads;
      t_nthreads = nthreads_var;
      fn(data);
      t_nthreads = own;
      t_place = Place{};
      if (pending.fetch_sub(1, std::memory_order_seq_cst) == 1) WakeIfSleeping(&pending, &pending_sleepers);
    }
  }

  // Runs fn(data) on up to `threads` threads, the caller as number 0, and joins them (also when fn
  // throws on the caller, which OpenMP does not allow: the exception then leaves after the join).
  void Run(void (*f)(void *), void *d, int threads) {
    threads = Grow(threads);
    fn = f;
    data = d;
    size = threads;
    nthreads_var = NthreadsVar();
    pending.store(static_cast<uint32_t>(threads - 1), std::memory_order_relaxed);
    for (int k = 1; k < threads; ++k) Raise(*workers[static_cast<size_t>(k - 1)]);
    struct Join {
      Team &t;
      Place outer;
      ~Join() {
        t_place = outer;
        for (uint32_t left; (left = t.pending.load(std::memory_order_acquire)) != 0;)
          WaitChange(&t.pending, left, &t.pending_sleepers);
        t.running = false;
      }
    } join{*this, t_place};
    running = true;
    t_place = Place{this, 0, threads, true};
    f(d);
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

// Each master thread's team, made at its first region of more than one thread. Plain pointers
// (trivially destructible), so that a region met after the thread's destructors ran (an op run
// from another thread_local's or a static destructor: dnnl_util.h) still finds them: TeamHolder
// joins the team when the thread ends, after which the thread's regions run on it alone. A team
// whose master leaves from inside a region (exit() called in one) is left as it is: its workers
// are still in that region.
thread_local Team *t_team = nullptr;
thread_local bool t_team_gone = false;

struct TeamHolder {
  ~TeamHolder() {
    Team *team = t_team;
    t_team = nullptr;
    t_team_gone = true;
    if (team != nullptr && !team->running) delete team;
  }
};

// A fork's child has none of the parent's workers: it forgets the team (leaked) and the spin
// gate's look at the parent's thread.
void ForgetInChild() {
  t_team = nullptr;
  ForgetSpinGateInChild();
}
const int g_atfork = pthread_atfork(nullptr, nullptr, ForgetInChild);

void Parallel(void (*fn)(void *), void *data, unsigned num_threads) {
  int threads = num_threads != 0 ? static_cast<int>(std::min<unsigned>(num_threads, kMaxThreads)) : NthreadsVar();
  if (t_place.in_active || t_team_gone) threads = 1;  // nested: on the thread that meets it
  if (threads > 1 && t_team == nullptr) {
    thread_local TeamHolder holder;
    (void)holder;
    t_team = new Team();
  }
  if (threads <= 1) {
    const Place outer = t_place;
    t_place = Place{nullptr, 0, 1, outer.in_active};
    struct Restore {
      Place outer;
      ~Restore() { t_place = outer; }
    } restore{outer};
    fn(data);
    return;
  }
  t_team->Run(fn, data, threads);
}

}  // namespace

uint64_t RegionsRun() { return g_regions.load(std::memory_order_relaxed); }

bool TeamAwake(int threads) {
  if (const ForeignOpenMp *f = Foreign()) return f->team_awake != nullptr && f->team_awake(threads) != 0;
  const Team *team = t_team;
  if (team == nullptr || t_place.in_active || threads < 2 ||
      static_cast<int>(team->workers.size()) + 1 < threads)
    return false;
  for (int k = 0; k + 1 < threads; ++k)
    if (team->workers[static_cast<size_t>(k)]->sleepers.load(std::memory_order_relaxed) != 0) return false;
  // A worker that spins may still wait for its CPU: where the caller's own core is contended, the
  // machine is short of cores and a region would wait for a time slice.
  return MaySpin();
}

}  // namespace openatc_ops::omp_team

// The entry points (libgomp's ABI: GOMP_parallel since GCC 4.9, GOMP_barrier since GCC 4.2; the
// omp_* routines of OpenMP 5.x, section 3.2), exported from this library.
#define OPENATC_OMP_EXPORT extern "C" __attribute__((visibility("default")))

OPENATC_OMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags) {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->parallel(fn, data, num_threads, flags);
  Parallel(fn, data, num_threads);
}

OPENATC_OMP_EXPORT void GOMP_barrier() {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->barrier();
  if (t_place.team != nullptr && t_place.size > 1) t_place.team->Barrier();
}

OPENATC_OMP_EXPORT int omp_get_thread_num() {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->thread_num();
  return t_place.id;
}

OPENATC_OMP_EXPORT int omp_get_num_threads() {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->num_threads();
  return t_place.size;
}

OPENATC_OMP_EXPORT int omp_get_max_threads() {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->max_threads();
  return NthreadsVar();
}

OPENATC_OMP_EXPORT void omp_set_num_threads(int n) {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->set_num_threads(n);
  t_nthreads = n > 0 ? std::min(n, kMaxThreads) : 1;
}

OPENATC_OMP_EXPORT int omp_in_parallel() {
  using namespace openatc_ops::omp_team;
  if (const ForeignOpenMp *f = Foreign()) return f->in_parallel();
  return t_place.in_active ? 1 : 0;
}

// TeamAwake for another copy of this library that libdnnl is bound to (omp_binding.h: a process
// that loaded the built-in ops from the OPP folder to compile, then from an OM to run).
OPENATC_OMP_EXPORT int OpenAtcOmpTeamAwake(int threads) { return openatc_ops::omp_team::TeamAwake(threads) ? 1 : 0; }
