#include "sim_cpp/gpu/parallel_for.h"

namespace l1d::sim {
namespace {

// How a thread waits for the others: a short spin (a simulated cycle of many SMs takes
// microseconds), then yields (when threads outnumber free cores, the thread waited for needs
// this core), then sleeps on the atomic (futex).
constexpr int kSpins = 200, kYields = 50;

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

ParallelFor::ParallelFor(unsigned threads) : errors_(threads > 0 ? threads : 1) {
  for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { worker(t); });
}

ParallelFor::~ParallelFor() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void ParallelFor::run_part(unsigned part) {
  const size_t parts = threads();
  const size_t b = job_->n * part / parts, e = job_->n * (part + 1) / parts;
  try {
    job_->call(job_->f, b, e);
  } catch (...) {
    errors_[part] = std::current_exception();
  }
}

void ParallelFor::worker(unsigned part) {
  uint64_t seen = 0;
  for (;;) {
    await(generation_, [&](uint64_t g) { return g != seen; });
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    run_part(part);
    if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) running_.notify_one();
  }
}

void ParallelFor::run_job(const Job& job) {
  job_ = &job;
  running_.store(static_cast<unsigned>(workers_.size()), std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  run_part(0);
  await(running_, [](unsigned r) { return r == 0; });
  job_ = nullptr;
  for (std::exception_ptr& e : errors_)
    if (e) {
      std::exception_ptr first = e;
      for (std::exception_ptr& x : errors_) x = nullptr;
      std::rethrow_exception(first);
    }
}

}  // namespace l1d::sim
