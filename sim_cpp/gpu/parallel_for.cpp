#include "sim_cpp/gpu/parallel_for.h"

#include <algorithm>

namespace l1d::sim {
namespace {

// How a thread waits for the others: a short spin (a simulated cycle of many SMs takes
// microseconds), then yields (when threads outnumber free cores, the thread waited for needs
// this core), then sleeps on the atomic (futex).
constexpr int kSpins = 1000, kYields = 50;

template <typename T, typename Pred>
void await(const std::atomic<T>& a, Pred done) {
  for (int i = 0; i < kSpins; ++i) {
    if (done(a.load(std::memory_order_acquire))) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  for (int i = 0; i < kYields; ++i) {
    if (done(a.load(std::memory_order_acquire))) return;
    std::this_thread::yield();
  }
  for (T v = a.load(std::memory_order_acquire); !done(v); v = a.load(std::memory_order_acquire)) a.wait(v);
}

}  // namespace

ParallelFor::ParallelFor(unsigned threads) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this] { worker(); });
}

ParallelFor::~ParallelFor() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void ParallelFor::take_items() {
  const Job& job = *job_;
  for (;;) {
    const size_t b = next_.fetch_add(job.grain, std::memory_order_relaxed);
    if (b >= job.n) return;
    const size_t e = std::min(job.n, b + job.grain);
    for (size_t i = b; i < e; ++i) {
      try {
        job.call(job.f, i);
      } catch (...) {
        while (error_lock_.test_and_set(std::memory_order_acquire)) {
        }
        if (!error_ || i < error_index_) error_ = std::current_exception(), error_index_ = i;
        error_lock_.clear(std::memory_order_release);
      }
    }
  }
}

void ParallelFor::worker() {
  uint64_t seen = 0;
  for (;;) {
    await(generation_, [&](uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    take_items();
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) running_.notify_one();
  }
}

void ParallelFor::run_job(const Job& job) {
  job_ = &job;
  next_.store(0, std::memory_order_relaxed);
  running_.store(static_cast<unsigned>(workers_.size()), std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);  // publishes job_ and next_
  generation_.notify_all();
  take_items();
  await(running_, [](unsigned r) { return r == 0; });
  job_ = nullptr;
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

}  // namespace l1d::sim
