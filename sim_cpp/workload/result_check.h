// The result checks of the generated workloads (Workload::verify): arrays in memory against the
// values a host-side reference computed. The first difference (array, index, value, expected)
// and how many elements differ become one line; later arrays are not looked at once one failed.
#pragma once

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sim_cpp/mem/functional_memory.h"
#include "sim_cpp/workload/kernel_builder.h"

namespace l1d::sim::wl {

class ResultCheck {
 public:
  ResultCheck(const FunctionalMemory& mem, const std::string& workload, const MemoryLayout& layout)
      : mem_(mem), workload_(workload), layout_(layout) {}

  // The region's elements as T (region bytes / sizeof(T) of them).
  template <typename T>
  std::vector<T> read(std::string_view region) const {
    const Region& r = layout_.region(region);
    std::vector<T> v(r.bytes / sizeof(T));
    static_assert(std::is_trivially_copyable_v<T>);
    mem_.read_bytes(r.base, v.data(), v.size() * sizeof(T));  // as mem_.read<T> element by element
    return v;
  }

  // Every element equal (integers, flags).
  template <typename T>
  void exact(std::string_view region, const std::vector<T>& want) {
    if (!ok()) return;
    const std::vector<T> got = read<T>(region);
    if (!sized(region, got.size(), want.size())) return;
    compare(region, got.size(), [&](size_t i) { return got[i] == want[i]; },
            [&](size_t i) { return show(got[i]) + ", expected " + show(want[i]); });
  }

  // Floats: |got - want| <= abs_tol + rel_tol * |want| (the reference is computed in double, in
  // another order than the kernel's float arithmetic).
  void close(std::string_view region, const std::vector<double>& want, double rel_tol = 1e-4, double abs_tol = 1e-5) {
    if (!ok()) return;
    const std::vector<float> got = read<float>(region);
    if (!sized(region, got.size(), want.size())) return;
    compare(region, got.size(),
            [&](size_t i) { return std::fabs(static_cast<double>(got[i]) - want[i]) <= abs_tol + rel_tol * std::fabs(want[i]); },
            [&](size_t i) { return show(got[i]) + ", expected " + show(want[i]); });
  }

  // A custom element test: good(i) for i < n; describe(i) says what is wrong with element i.
  template <typename Good, typename Describe>
  void each(std::string_view region, size_t n, Good&& good, Describe&& describe) {
    if (ok()) compare(region, n, good, describe);
  }

  // A failure that is not about one element.
  void fail(const std::string& what) {
    if (ok()) error_ = workload_ + ": " + what;
  }

  bool ok() const { return error_.empty(); }
  const std::string& result() const { return error_; }

 private:
  template <typename T>
  static std::string show(T v) {
    std::ostringstream s;
    s.precision(9);
    if constexpr (sizeof(T) == 1) {
      s << static_cast<int>(v);
    } else {
      s << v;
    }
    return s.str();
  }
  bool sized(std::string_view region, size_t got, size_t want) {
    if (got == want) return true;
    fail(std::string(region) + " has " + std::to_string(got) + " elements, the reference " + std::to_string(want));
    return false;
  }
  template <typename Good, typename Describe>
  void compare(std::string_view region, size_t n, Good&& good, Describe&& describe) {
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; ++i) {
      if (good(i)) continue;
      if (bad++ == 0) first = i;
    }
    if (bad == 0) return;
    error_ = workload_ + ": " + std::string(region) + "[" + std::to_string(first) + "] = " + describe(first) + " (" +
             std::to_string(bad) + " of " + std::to_string(n) + " elements wrong)";
  }

  const FunctionalMemory& mem_;
  std::string workload_;
  const MemoryLayout& layout_;
  std::string error_;
};

}  // namespace l1d::sim::wl
