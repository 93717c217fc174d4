// A real trace as a Workload (docs/simulator.md, "Real traces"): the kernels of an Accel-Sim /
// NVBit trace directory (trace_parser.h), their copies, and a report of what was read.
//
// Addresses. The L1 keeps l1.address_bits (32 in the presets) of an address, while traced
// addresses are 47-bit virtual ones. The trace's addresses go through a page table, as on the
// GPU: every 2 MiB virtual page the trace touches (instructions and copies) gets a physical
// frame, frames in increasing virtual order from 0. Offsets inside a page are kept, so
// alignment, coalescing, L1 set indexing (set and hash bits are below bit 21) and contiguity
// of adjacent pages are those of the trace. More pages than the address space holds is an error.
//
// Data. Traces carry no values, so the memory image is defined: a MemcpyHtoD writes
// copy_byte(pa) = a seeded hash of the physical address into every byte it covers (at init);
// every other byte reads FunctionalMemory::initial_byte(pa). A store writes, to each byte, the
// value that byte already holds (content(pa)). The image therefore never changes, so the
// load-data check is exact for any trace, whatever its CTAs share in one kernel or one 32 B
// sector (the synthetic workloads' contract cannot be asked of a real trace), and it still
// catches every wrong address, offset, sector or byte lane on the load and store paths.
//
// L2. Before each kernel, the copies listed before it in kernelslist.g are left in the L2 as
// the copy's writes would leave them (attach_copies() sets the Gpu's kernel hook; the memory
// system's preload_l2).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim_cpp/trace/trace_parser.h"
#include "sim_cpp/workload/workload.h"

namespace l1d::sim {
class Gpu;
}

namespace l1d::sim::trace {

struct TraceOptions {
  std::optional<uint32_t> isa_override;  // time every kernel as this binary version
  uint32_t address_bits = 32;            // the physical address space (the preset's l1.address_bits)
  uint32_t threads = 1;                  // reading (plain-text traces in parts), the page table and init() on this many
};

class TraceWorkload final : public Workload {
 public:
  // Translates the addresses (on TraceOptions::threads threads); throws TraceError when the trace
  // does not fit the address space.
  TraceWorkload(TraceSet set, const TraceOptions& opt);
  ~TraceWorkload() override;

  std::string name() const override;
  std::string description() const override;
  // Writes the copies' bytes (scale does not apply to a trace), on TraceOptions::threads threads.
  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override;
  uint32_t kernels() const override { return static_cast<uint32_t>(kernels_.size()); }
  const Kernel& kernel(uint32_t i) const override { return *kernels_.at(i); }

  struct Copy {
    Addr pa = 0;
    uint64_t bytes = 0;
  };
  // The copies kernelslist.g lists before kernel `i` (after kernel i - 1).
  const std::vector<Copy>& copies_before(uint32_t i) const { return copies_before_.at(i); }
  // What the image holds at physical address `pa` (before and after every kernel).
  uint8_t content(Addr pa) const;
  // content() of `bytes` (1..8) bytes from `pa`, little-endian: one range look-up per value
  // instead of one per byte (a store's lanes in TraceWarp::next).
  uint64_t content_value(Addr pa, uint32_t bytes) const;
  // A run [lo, hi) of addresses whose bytes are all copied (copy_byte) or all not (initial_byte).
  struct ContentSpan {
    Addr lo = 1, hi = 0;  // empty
    bool copied = false;
  };
  // content_value() through `span`, the caller's last one: looked up again only when the value
  // leaves it (a store's lanes mostly fall in one span; TraceWarp keeps one per warp, so the
  // SMs' threads never share it).
  uint64_t content_value(Addr pa, uint32_t bytes, ContentSpan& span) const;
  // out[i] = content(pa + i) for i < n, through `span` as content_value(): a run inside one span
  // is hashed in one pass that vectorises (a coalesced store's lanes, TraceWarp).
  void content_run(Addr pa, uint32_t n, ContentSpan& span, uint8_t* out) const;
  // Physical address of a virtual one the trace uses; throws std::out_of_range otherwise.
  Addr translate(Addr va) const;

  const TraceSet& trace() const { return set_; }
  uint64_t pages() const { return vpages_.size(); }
  nlohmann::json report_json() const;
  std::string report() const;  // a few lines for the gpusim summary

 private:
  uint8_t copy_byte(Addr pa) const;
  ContentSpan span_at(Addr pa) const;  // the span that holds pa
  bool in_copy(Addr pa) const;

  TraceSet set_;
  std::vector<uint64_t> vpages_;                 // sorted virtual page numbers; index = frame
  std::vector<std::vector<Copy>> copies_before_;  // per kernel
  std::vector<Copy> all_copies_;                  // every copy, in command order
  std::vector<std::pair<Addr, Addr>> copied_;     // merged [begin, end) physical ranges of all copies
  std::vector<std::unique_ptr<Kernel>> kernels_;
  uint64_t copy_salt_ = 0;
  uint32_t threads_ = 1;  // TraceOptions::threads: init() hashes the copies' bytes on this many
};

// Reads `path` (kernelslist.g or its directory) into a TraceWorkload; throws TraceError.
std::unique_ptr<TraceWorkload> load_trace_workload(const std::string& path, const TraceOptions& opt = {});

// Makes `gpu` replay `w`'s copies into its L2 before each kernel (both must outlive the run).
void attach_copies(Gpu& gpu, const TraceWorkload& w);

}  // namespace l1d::sim::trace
