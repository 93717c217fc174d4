// A fixed team of threads that runs one loop at a time over [0, n): the threads (the caller's
// among them) take the indices in chunks of `grain` from a shared counter, so uneven items
// balance. Built for gpusim --threads: one loop per simulated cycle over the SMs and the memory
// system's partitions, so a start and a finish cost well under a microsecond while the threads
// are busy (they spin briefly, yield, then sleep on an atomic wait). Results must not depend on
// which thread runs an item: the caller gives each index its own state.
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
  // the exception of the lowest index that threw is rethrown (the others are dropped).
  template <typename F>
  void run(size_t n, F&& f, size_t grain = 4) {
    if (workers_.empty() || n < 2) {
      for (size_t i = 0; i < n; ++i) f(i);
      return;
    }
    using Fn = std::remove_reference_t<F>;
    Job job{n, grain == 0 ? 1 : grain, const_cast<void*>(static_cast<const void*>(&f)), [](void* fp, size_t i) {
              (*static_cast<Fn*>(fp))(i);
            }};
    run_job(job);
  }

 private:
  struct Job {
    size_t n, grain;
    void* f;
    void (*call)(void*, size_t);
  };
  void run_job(const Job& job);
  void take_items();  // until the counter passes n
  void worker();

  // The three atomics every loop writes live on host cache lines of their own: a thread that
  // waits on generation_ or running_ does not take the line the others' fetch_add on next_
  // needs, and the counter's line moves between the working threads only.
  std::vector<std::thread> workers_;
  const Job* job_ = nullptr;
  std::exception_ptr error_;                // of the lowest index that threw
  size_t error_index_ = 0;
  std::atomic_flag error_lock_ = ATOMIC_FLAG_INIT;
  std::atomic<bool> stop_{false};
  alignas(64) std::atomic<size_t> next_{0};           // the next index to take
  alignas(64) std::atomic<uint64_t> generation_{0};   // bumped to start a loop; 0 never starts one
  alignas(64) std::atomic<unsigned> running_{0};      // workers still in the current loop
  char pad_[64 - sizeof(std::atomic<unsigned>)] = {};  // nothing else on running_'s line
};

}  // namespace l1d::sim
