// The process-wide pool that runs kernel blocks. A parallel-for in which the calling thread
// takes part, so a launch finishes even when every worker is busy (or launches nest).
#ifndef OPENATC_RT_SRC_THREAD_POOL_H_
#define OPENATC_RT_SRC_THREAD_POOL_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace openatc {
namespace rt {

class ThreadPool {
 public:
  static ThreadPool &Instance();
  ~ThreadPool();

  /** Threads taking part in a parallel-for, the caller included (>= 1). 0 = hardware threads. */
  void SetThreadCount(unsigned threads);
  unsigned ThreadCount();

  /** Runs fn(i) for every i in [0, count) and returns when all calls returned. If calls throw,
   *  the first exception (lowest finishing order) is rethrown after all calls finished. */
  void ParallelFor(uint32_t count, const std::function<void(uint32_t)> &fn);

 private:
  struct Job;
  ThreadPool();
  static void RunShare(Job &job);
  void WorkerLoop();
  void StopWorkers();  // requires mutex_ not held

  std::mutex config_mutex_;  // serialises SetThreadCount against worker start-up
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::vector<std::thread> workers_;
  unsigned threads_ = 1;
  bool stop_ = false;
};

}  // namespace rt
}  // namespace openatc

#endif  // OPENATC_RT_SRC_THREAD_POOL_H_
