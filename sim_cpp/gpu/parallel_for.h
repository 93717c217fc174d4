// A fixed team of threads that runs one loop at a time over [0, n), split into contiguous
// parts, one per thread (the caller's thread takes part 0). Built for gpusim --threads: one loop
// per simulated cycle over the SMs, so a start and a finish cost a few hundred nanoseconds (the
// workers spin briefly, then sleep on an atomic wait). Results must not depend on the split:
// the caller gives each index its own state.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <type_traits>
#include <vector>

namespace l1d::sim {

class ParallelFor {
 public:
  explicit ParallelFor(unsigned threads);
  ~ParallelFor();
  ParallelFor(const ParallelFor&) = delete;
  ParallelFor& operator=(const ParallelFor&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls f(i) for every i in [0, n) and returns when all calls have returned. If calls throw,
  // the exception of the lowest part is rethrown (the others are dropped).
  template <typename F>
  void run(size_t n, F&& f) {
    if (workers_.empty() || n < 2) {
      for (size_t i = 0; i < n; ++i) f(i);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    Job job{n, const_cast<void*>(static_cast<const void*>(&f)), [](void* fp, size_t b, size_t e) {
              for (size_t i = b; i < e; ++i) (*static_cast<Fn*>(fp))(i);
            }};
    run_job(job);
  }

 private:
  struct Job {
    size_t n;
    void* f;
    void (*call)(void*, size_t, size_t);
  };
  void run_job(const Job& job);
  void run_part(unsigned part);
  void worker(unsigned part);

  std::vector<std::thread> workers_;
  const Job* job_ = nullptr;
  std::vector<std::exception_ptr> errors_;  // per part
  std::atomic<uint64_t> generation_{0};     // bumped to start a loop; 0 never starts one
  std::atomic<unsigned> running_{0};        // workers still in the current loop
  std::atomic<bool> stop_{false};
};

}  // namespace l1d::sim
