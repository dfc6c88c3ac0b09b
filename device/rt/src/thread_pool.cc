// Process-wide block thread pool (see thread_pool.h).
#include "thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>

namespace openatc {
namespace rt {

struct ThreadPool::Job {
  std::function<void(uint32_t)> fn;
  uint32_t count = 0;
  std::atomic<uint32_t> next{0};
  std::mutex mutex;
  std::condition_variable finished;
  uint32_t done = 0;  // guarded by mutex
  std::exception_ptr error;
};

ThreadPool &ThreadPool::Instance() {
  static ThreadPool pool;
  return pool;
}

ThreadPool::ThreadPool() { threads_ = std::max(1u, std::thread::hardware_concurrency()); }

ThreadPool::~ThreadPool() { StopWorkers(); }

void ThreadPool::StopWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_) t.join();
  workers_.clear();
  std::lock_guard<std::mutex> lock(mutex_);
  stop_ = false;
  queue_.clear();
}

void ThreadPool::SetThreadCount(unsigned threads) {
  std::lock_guard<std::mutex> config(config_mutex_);
  StopWorkers();
  std::lock_guard<std::mutex> lock(mutex_);
  threads_ = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
}

unsigned ThreadPool::ThreadCount() {
  std::lock_guard<std::mutex> lock(mutex_);
  return threads_;
}

void ThreadPool::RunShare(Job &job) {
  for (;;) {
    uint32_t i = job.next.fetch_add(1);
    if (i >= job.count) return;
    std::exception_ptr error;
    try {
      job.fn(i);
    } catch (...) {
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(job.mutex);
    if (error && !job.error) job.error = error;
    if (++job.done == job.count) job.finished.notify_all();
  }
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    RunShare(*job);
  }
}

void ThreadPool::ParallelFor(uint32_t count, const std::function<void(uint32_t)> &fn) {
  if (count == 0) return;
  auto job = std::make_shared<Job>();
  job->fn = fn;
  job->count = count;
  unsigned helpers = 0;
  {
    std::lock_guard<std::mutex> config(config_mutex_);
    std::lock_guard<std::mutex> lock(mutex_);
    helpers = std::min<unsigned>(threads_ - 1, count - 1);
    if (helpers > 0 && workers_.size() < threads_ - 1) {
      for (size_t i = workers_.size(); i < threads_ - 1; ++i) workers_.emplace_back([this] { WorkerLoop(); });
    }
    for (unsigned i = 0; i < helpers; ++i) queue_.push_back(job);
  }
  if (helpers > 0) wake_.notify_all();
  RunShare(*job);
  std::unique_lock<std::mutex> lock(job->mutex);
  job->finished.wait(lock, [&] { return job->done == job->count; });
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace rt
}  // namespace openatc
