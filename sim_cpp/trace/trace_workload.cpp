// A real trace as a Workload (trace_workload.h).
#include "sim_cpp/trace/trace_workload.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim_cpp/gpu/gpu.h"
#include "sim_cpp/trace/trace_error.h"

namespace l1d::sim::trace {
namespace {

constexpr uint64_t kPageMask = (uint64_t{1} << kPageBits) - 1;

uint64_t mix64(uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// out[i] = the copy byte of address first + i (TraceWorkload::copy_byte) for i < n. The hashes are
// independent, so the loop vectorises; the baseline x86-64 target has no vector 64-bit multiply,
// hence a second clone for x86-64-v3 (AVX2), chosen at load time where the CPU has it (integer
// arithmetic: both clones give the same bytes). About 8 instructions a byte instead of 21
// (docs/performance.md, eighth round).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void hash_copy_bytes(Addr first, uint32_t n, uint64_t salt, uint8_t* out) {
  for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(mix64((first + i) ^ salt) >> 56);
}

// out[i] = FunctionalMemory::initial_byte(first + i) for i < n: bits 13-20 of the address times
// 0x9E3779B1, which the low 32 bits of the product hold, so 32-bit lanes compute it (the loop
// vectorises; the x86-64-v3 clone multiplies 8 lanes at once).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void initial_bytes(Addr first, uint32_t n, uint8_t* out) {
  const auto low = static_cast<uint32_t>(first);
  for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(((low + i) * 0x9E3779B1u) >> 13);
}

// One warp's traced instructions. A 16 B-per-lane access runs as two 8 B halves (the low 8 B of
// every lane, then the high 8 B): the coalescer and the L1 contract take at most 8 B per lane.
class TraceWarp final : public WarpProgram {
 public:
  TraceWarp(const ParsedKernel& k, const TraceWorkload& w, uint64_t pc_base, uint32_t warp)
      : k_(k), w_(w), pc_base_(pc_base), begin_(k.warp_begin[warp]), i_(begin_), end_(k.warp_begin[warp + 1]) {}

  WarpInst next() override {
    WarpInst out;
    fill(out);
    return out;
  }
  void next_into(WarpInst& out) override { fill(out); }

 private:
  // Writes the next instruction into `out`: the fields its kind uses and nothing else. An ALU
  // instruction's or an exit's lane arrays, a load's values and an inactive lane's address and
  // value keep what `out` held (WarpInst reads them for the active lanes of loads and stores
  // only), so the SM's refill of its i-buffer in place writes no lane it will not read.
  void fill(WarpInst& out) {
    out.latency = 1;
    out.access_bytes = 4;
    if (i_ == end_) {  // the trace did not end with EXIT / RET (or has no instruction)
      out.kind = OpKind::kExit;
      out.pc = pc_base_ + (end_ > begin_ ? k_.insts[end_ - 1].pc + 16 : 0);
      out.active_mask = 0xFFFFFFFFu;
      out.writes = out.reads = 0;
      out.reads_all_loads = false;
      return;
    }
    const TraceInst& t = k_.insts[i_];
    operands(t, out);
    out.kind = t.kind;
    out.pc = pc_base_ + t.pc;
    out.active_mask = t.mask;
    switch (t.kind) {
      case OpKind::kAlu:
        out.latency = t.latency;
        ++i_;
        break;
      case OpKind::kBarrier:
        ++i_;
        break;
      case OpKind::kExit:
        break;  // stays: next() after the exit returns it again
      case OpKind::kLoad:
      case OpKind::kStore: {
        const uint32_t bytes = t.width == 16 ? 8 : t.width;
        const uint64_t offset = t.width == 16 && high_half_ ? 8 : 0;
        out.access_bytes = bytes;
        lane_addresses(t, offset, out);
        if (t.kind == OpKind::kStore) store_values(t, bytes, out);
        if (t.width == 16 && !high_half_) {
          high_half_ = true;
        } else {
          high_half_ = false;
          ++i_;
        }
        break;
      }
    }
  }

  // The active lanes' addresses (+ offset: a 16 B access's high half); the k-th active lane's is
  // ParsedKernel::lane_address(t, k). A whole warp's strided addresses in a loop that vectorises.
  void lane_addresses(const TraceInst& t, uint64_t offset, WarpInst& out) const {
    uint32_t k = 0;
    if (t.strided()) {  // one address read instead of a lane count
      const Addr first = k_.addrs[t.addr] + offset;
      const auto step = static_cast<uint64_t>(int64_t{t.stride});
      if (t.mask == 0xFFFFFFFFu) {
        for (uint32_t l = 0; l < kWarpSize; ++l) out.addr[l] = first + step * l;
      } else {
        for (uint32_t m = t.mask; m != 0; m &= m - 1) out.addr[std::countr_zero(m)] = first + step * k++;
      }
    } else {
      const Addr* listed = k_.addrs.data() + t.addr;
      for (uint32_t m = t.mask; m != 0; m &= m - 1) out.addr[std::countr_zero(m)] = listed[k++] + offset;
    }
  }

  // A store's values: each active lane's `bytes` bytes of the image at its address
  // (TraceWorkload::content_value). Lanes that follow each other without a gap (stride = width,
  // the common coalesced store) read their bytes as one run (TraceWorkload::content_run: one
  // hash pass over up to 256 bytes instead of a look-up and a byte loop per lane).
  void store_values(const TraceInst& t, uint32_t bytes, WarpInst& out) {
    if (t.strided() && t.width == bytes && t.stride == static_cast<int32_t>(bytes)) {
      const auto n = lane_count(t.mask);
      std::array<uint8_t, kWarpSize * 8> run;
      w_.content_run(out.addr[std::countr_zero(t.mask)], n * bytes, span_, run.data());
      // run[k * bytes, (k + 1) * bytes) is the k-th active lane's value, little-endian
      switch (bytes) {
        case 1: lane_values<uint8_t>(t.mask, run.data(), out); return;
        case 2: lane_values<uint16_t>(t.mask, run.data(), out); return;
        case 4: lane_values<uint32_t>(t.mask, run.data(), out); return;
        default: lane_values<uint64_t>(t.mask, run.data(), out); return;
      }
    }
    for (uint32_t m = t.mask; m != 0; m &= m - 1) {
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      out.value[l] = w_.content_value(out.addr[l], bytes, span_);
    }
  }

  // value[l] of the k-th active lane l = the k-th V (little-endian) of `run`.
  template <typename V>
  static void lane_values(uint32_t mask, const uint8_t* run, WarpInst& out) {
    static_assert(std::endian::native == std::endian::little, "a lane's value is its bytes little-endian");
    V v;
    if (mask == 0xFFFFFFFFu) {
      for (uint32_t l = 0; l < kWarpSize; ++l) std::memcpy(&v, run + sizeof(V) * l, sizeof(V)), out.value[l] = v;
      return;
    }
    uint32_t k = 0;
    for (uint32_t m = mask; m != 0; m &= m - 1)
      std::memcpy(&v, run + sizeof(V) * k++, sizeof(V)), out.value[std::countr_zero(m)] = v;
  }

  // The scoreboard operands of `t` (core.load_wait on_use). A load writes every 32-bit register
  // of its lane's bytes: an 8 B load to R2 writes R2 and R3, and the halves of a 16 B one R2-R3
  // and R4-R5 (high_half_ says which half this is, as the caller has not advanced it yet).
  void operands(const TraceInst& t, WarpInst& out) const {
    out.reads_all_loads = false;
    out.writes = out.reads = 0;
    const uint16_t* r = k_.regs.data() + t.regs;
    const bool load = t.kind == OpKind::kLoad;
    const uint32_t per_dst = load && t.width >= 8 ? 2 : 1;
    const uint32_t skip = load && t.width == 16 && high_half_ ? 2 : 0;
    for (uint32_t d = 0; d < t.dsts; ++d) {
      const uint32_t file_end = r[d] < 255 ? 255 : r[d] < 320 ? 319 : r[d] < 328 ? 327 : 335;  // RZ, URZ, PT, UPT
      for (uint32_t k = skip; k < skip + per_dst && r[d] + k < file_end; ++k)
        out.regs[out.writes++] = static_cast<uint16_t>(r[d] + k);
    }
    for (uint32_t k = 0; k < t.srcs; ++k) out.regs[out.writes + out.reads++] = r[t.dsts + k];
  }

  const ParsedKernel& k_;
  const TraceWorkload& w_;
  uint64_t pc_base_;
  uint64_t begin_, i_, end_;
  bool high_half_ = false;
  TraceWorkload::ContentSpan span_;  // content_value's last span (this warp's stores)
};

class TraceKernel final : public Kernel {
 public:
  TraceKernel(const ParsedKernel& k, const TraceWorkload& w, uint64_t pc_base) : k_(k), w_(w), pc_base_(pc_base) {}
  std::string name() const override { return k_.header.name; }
  KernelGrid grid() const override { return {k_.ctas, k_.warps_per_cta}; }
  uint64_t shared_bytes_per_cta() const override { return k_.header.shmem; }
  std::unique_ptr<WarpProgram> warp(uint32_t cta, uint32_t warp_in_cta) const override {
    if (cta >= k_.ctas || warp_in_cta >= k_.warps_per_cta)
      throw std::out_of_range(fmt::format("trace kernel {}: CTA {} warp {} outside the grid", k_.header.name, cta,
                                          warp_in_cta));
    return std::make_unique<TraceWarp>(k_, w_, pc_base_, cta * k_.warps_per_cta + warp_in_cta);
  }

 private:
  const ParsedKernel& k_;
  const TraceWorkload& w_;
  uint64_t pc_base_;
};

}  // namespace

TraceWorkload::TraceWorkload(TraceSet set, const TraceOptions& opt)
    : set_(std::move(set)), threads_(std::max<uint32_t>(1, opt.threads)) {
  const uint64_t frames = opt.address_bits >= 64 ? UINT64_MAX : (uint64_t{1} << opt.address_bits) >> kPageBits;
  auto too_big = [&](uint64_t pages) {
    return TraceError(set_.list_file, 0,
                      fmt::format("the trace touches {} pages of 2 MiB, the {}-bit physical address space holds {}",
                                  pages, opt.address_bits, frames));
  };
  // Pages: every address of every load / store (a strided instruction's lanes are on its one
  // address's page), every copied byte.
  // (Neighbouring addresses share a page: a page equal to the last one pushed is skipped, which
  // leaves the sort below a few entries per page instead of one per address.)
  // On threads_ threads (the serial part of --threads): each takes a contiguous share of every
  // kernel's addresses; the union of their pages is sorted below, so it does not matter which
  // thread saw a page first.
  {
    std::vector<std::vector<uint64_t>> found(threads_);
    const auto pages_of = [&](uint32_t t) {
      std::vector<uint64_t>& out = found[t];
      for (const ParsedKernel& k : set_.kernels) {
        const size_t n = k.addrs.size(), from = n * t / threads_, to = n * (t + 1) / threads_;
        for (size_t i = from; i < to; ++i)
          if (out.empty() || out.back() != k.addrs[i] >> kPageBits) out.push_back(k.addrs[i] >> kPageBits);
      }
    };
    {
      std::vector<std::jthread> helpers;
      for (uint32_t t = 1; t < threads_; ++t) helpers.emplace_back(pages_of, t);
      pages_of(0);
    }
    vpages_ = std::move(found[0]);
    for (uint32_t t = 1; t < threads_; ++t) vpages_.insert(vpages_.end(), found[t].begin(), found[t].end());
  }
  for (const TraceCommand& c : set_.commands) {
    if (c.kind != TraceCommand::Kind::kMemcpy || c.bytes == 0) continue;
    const uint64_t first = c.addr >> kPageBits, last = (c.addr + c.bytes - 1) >> kPageBits;
    if (last - first >= frames) throw too_big(last - first + 1);
    for (uint64_t p = first; p <= last; ++p) vpages_.push_back(p);
  }
  std::sort(vpages_.begin(), vpages_.end());
  vpages_.erase(std::unique(vpages_.begin(), vpages_.end()), vpages_.end());
  if (vpages_.size() > frames) throw too_big(vpages_.size());

  // A warp's addresses mostly share a page: translate() searches only when the page changes.
  // Each address is translated alone (every page is in vpages_ by now), so the threads_ threads
  // each take a contiguous share of every kernel's addresses. (A strided instruction's one
  // address stands for lanes on its own page, so they keep their stride: ParsedKernel::addrs.)
  const auto translate_share = [&](uint32_t t) {
    for (ParsedKernel& k : set_.kernels) {
      const size_t n = k.addrs.size(), from = n * t / threads_, to = n * (t + 1) / threads_;
      uint64_t vpage = ~uint64_t{0}, frame_base = 0;
      for (size_t i = from; i < to; ++i) {
        Addr& a = k.addrs[i];
        if (a >> kPageBits != vpage) {
          vpage = a >> kPageBits;
          frame_base = translate(a) & ~kPageMask;
        }
        a = frame_base | (a & kPageMask);
      }
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (uint32_t t = 1; t < threads_; ++t) helpers.emplace_back(translate_share, t);
    translate_share(0);
  }
  // Copies: adjacent virtual pages get adjacent frames, so a copy stays one physical range.
  copies_before_.assign(set_.kernels.size(), {});
  std::vector<Copy> pending;
  for (const TraceCommand& c : set_.commands) {
    if (c.kind == TraceCommand::Kind::kKernel) {
      copies_before_[c.kernel] = std::move(pending);
      pending.clear();
    } else if (c.bytes != 0) {
      const Copy p{translate(c.addr), c.bytes};
      pending.push_back(p);
      all_copies_.push_back(p);
      copied_.emplace_back(p.pa, p.pa + p.bytes);
    }
  }
  std::sort(copied_.begin(), copied_.end());
  std::vector<std::pair<Addr, Addr>> merged;
  for (const auto& r : copied_) {
    if (!merged.empty() && r.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, r.second);
    else
      merged.push_back(r);
  }
  copied_ = std::move(merged);

  // PCs: trace PCs are offsets in their function; each function gets its own 4 GiB of PC space
  // so that different kernels' instructions never share a PC (launches of one function do).
  std::map<std::string, uint64_t> functions;
  for (const ParsedKernel& k : set_.kernels) {
    const uint64_t f = functions.emplace(k.header.name, functions.size()).first->second;
    kernels_.push_back(std::make_unique<TraceKernel>(k, *this, f << 32));
  }
}

TraceWorkload::~TraceWorkload() = default;

Addr TraceWorkload::translate(Addr va) const {
  const auto it = std::lower_bound(vpages_.begin(), vpages_.end(), va >> kPageBits);
  if (it == vpages_.end() || *it != va >> kPageBits)
    throw std::out_of_range(fmt::format("address {:#x} is on no page of the trace", va));
  return (static_cast<uint64_t>(it - vpages_.begin()) << kPageBits) | (va & kPageMask);
}

std::string TraceWorkload::name() const { return "trace:" + set_.list_file; }

std::string TraceWorkload::description() const {
  return fmt::format("Accel-Sim trace {} ({} kernels)", set_.list_file, set_.kernels.size());
}

// hash_copy_bytes() computes the same bytes for a range.
uint8_t TraceWorkload::copy_byte(Addr pa) const { return static_cast<uint8_t>(mix64(pa ^ copy_salt_) >> 56); }

bool TraceWorkload::in_copy(Addr pa) const {
  auto it = std::upper_bound(copied_.begin(), copied_.end(), std::make_pair(pa, ~Addr{0}));
  return it != copied_.begin() && pa < std::prev(it)->second;
}

uint8_t TraceWorkload::content(Addr pa) const {
  return in_copy(pa) ? copy_byte(pa) : FunctionalMemory::initial_byte(pa);
}

uint64_t TraceWorkload::content_value(Addr pa, uint32_t bytes) const {
  // The copied range at or before pa decides every byte below its end; past it (the value
  // straddles the range's end, or pa is after it) bytes are not copied up to the next range.
  const auto it = std::upper_bound(copied_.begin(), copied_.end(), std::make_pair(pa, ~Addr{0}));
  const bool in = it != copied_.begin() && pa < std::prev(it)->second;
  const Addr next_begin = it == copied_.end() ? ~Addr{0} : it->first;
  const Addr in_end = in ? std::prev(it)->second : pa;
  uint64_t v = 0;
  for (uint32_t b = 0; b < bytes; ++b) {
    const Addr a = pa + b;
    uint8_t byte;
    if (a < in_end)
      byte = copy_byte(a);
    else if (a < next_begin)
      byte = FunctionalMemory::initial_byte(a);
    else
      byte = content(a);  // reaches the next range: look it up
    v |= uint64_t{byte} << (8 * b);
  }
  return v;
}

TraceWorkload::ContentSpan TraceWorkload::span_at(Addr pa) const {
  const auto it = std::upper_bound(copied_.begin(), copied_.end(), std::make_pair(pa, ~Addr{0}));
  if (it != copied_.begin() && pa < std::prev(it)->second) return {std::prev(it)->first, std::prev(it)->second, true};
  return {it == copied_.begin() ? Addr{0} : std::prev(it)->second, it == copied_.end() ? ~Addr{0} : it->first, false};
}

uint64_t TraceWorkload::content_value(Addr pa, uint32_t bytes, ContentSpan& span) const {
  if (pa < span.lo || pa >= span.hi || span.hi - pa < bytes) {
    span = span_at(pa);
    if (span.hi - pa < bytes) return content_value(pa, bytes);  // the value straddles the span's end
  }
  uint64_t v = 0;
  if (span.copied)
    for (uint32_t b = 0; b < bytes; ++b) v |= uint64_t{copy_byte(pa + b)} << (8 * b);
  else
    for (uint32_t b = 0; b < bytes; ++b) v |= uint64_t{FunctionalMemory::initial_byte(pa + b)} << (8 * b);
  return v;
}

void TraceWorkload::content_run(Addr pa, uint32_t n, ContentSpan& span, uint8_t* out) const {
  if (pa < span.lo || pa >= span.hi) span = span_at(pa);
  if (span.hi - pa < n) {  // the run leaves the span: byte by byte
    for (uint32_t i = 0; i < n; ++i) out[i] = content(pa + i);
  } else if (span.copied) {
    hash_copy_bytes(pa, n, copy_salt_, out);
  } else {
    initial_bytes(pa, n, out);
  }
}

void TraceWorkload::init(FunctionalMemory& mem, WorkloadScale, uint64_t seed) {
  copy_salt_ = mix64(seed + 0x7A11CE5Dull);
  // A line at a time (a copy of many MB byte by byte is a noticeable part of a short run). The
  // bytes' hashes are most of the work: batches of lines are hashed on threads_ threads (each
  // byte's value depends on its address alone), then written in order.
  struct Piece {
    Addr line, lo, hi;  // the copied bytes [lo, hi) of the line
  };
  std::vector<Piece> pieces;
  for (const auto& [b, e] : copied_)
    for (Addr line = b & ~Addr{kLineBytes - 1}; line < e; line += kLineBytes)
      pieces.push_back({line, std::max(b, line), std::min(e, line + kLineBytes)});
  constexpr size_t kBatch = size_t{1} << 14;
  std::vector<MemReq> batch(std::min(kBatch, pieces.size()));
  for (size_t first = 0; first < pieces.size(); first += kBatch) {
    const size_t n = std::min(kBatch, pieces.size() - first);
    const auto hash = [&](size_t from, size_t to) {
      for (size_t i = from; i < to; ++i) {
        const Piece& p = pieces[first + i];
        MemReq& w = batch[i];
        w.line_addr = p.line;
        w.op = MemOp::kStore;
        hash_copy_bytes(p.lo, static_cast<uint32_t>(p.hi - p.lo), copy_salt_, &w.data[p.lo - p.line]);
        w.byte_mask = (ByteMask{}.set() >> (kLineBytes - (p.hi - p.lo))) << (p.lo - p.line);  // bytes lo .. hi - 1
      }
    };
    {
      std::vector<std::jthread> helpers;
      for (uint32_t t = 1; t < threads_; ++t) helpers.emplace_back(hash, n * t / threads_, n * (t + 1) / threads_);
      hash(0, n / threads_);
    }
    for (size_t i = 0; i < n; ++i) mem.apply_write(batch[i]);
  }
}

nlohmann::json TraceWorkload::report_json() const {
  nlohmann::json kernels = nlohmann::json::array();
  uint64_t total = 0, memory = 0;
  for (const ParsedKernel& k : set_.kernels) {
    nlohmann::json classes, unknown = nlohmann::json::object();
    for (uint32_t c = 0; c < kTraceClasses; ++c) classes[to_string(static_cast<TraceClass>(c))] = k.by_class[c];
    for (const auto& [op, n] : k.unknown_opcodes) unknown[op] = n;
    const KernelHeader& h = k.header;
    kernels.push_back({{"file", k.file},
                       {"name", h.name},
                       {"kernel_id", h.kernel_id},
                       {"grid", {h.grid.x, h.grid.y, h.grid.z}},
                       {"block", {h.block.x, h.block.y, h.block.z}},
                       {"shmem", h.shmem},
                       {"nregs", h.nregs},
                       {"binary_version", h.binary_version},
                       {"latency_table", k.isa->family},
                       {"tracer_version", h.tracer_version},
                       {"lineinfo", h.lineinfo},
                       {"ignored_header_keys", h.ignored_keys},
                       {"ctas", k.ctas},
                       {"warps_per_cta", k.warps_per_cta},
                       {"trace_instructions", k.trace_instructions},
                       {"memory_instructions", k.memory_instructions},
                       {"by_class", classes},
                       {"unknown_opcodes", unknown},
                       {"wide_accesses", k.wide_accesses},
                       {"synthetic_exits", k.synthetic_exits}});
    total += k.trace_instructions;
    memory += k.memory_instructions;
  }
  uint64_t copy_bytes = 0;
  for (const Copy& c : all_copies_) copy_bytes += c.bytes;
  return {{"list_file", set_.list_file},
          {"kernels", kernels},
          {"trace_instructions", total},
          {"memory_instructions", memory},
          {"copies", all_copies_.size()},
          {"copy_bytes", copy_bytes},
          {"ignored_commands", set_.ignored_commands},
          {"pages", vpages_.size()},
          {"page_bytes", uint64_t{1} << kPageBits}};
}

std::string TraceWorkload::report() const {
  std::ostringstream os;
  os << "trace: " << set_.list_file << ", " << set_.kernels.size() << " kernel(s), " << all_copies_.size()
     << " copies, " << vpages_.size() << " pages of 2 MiB\n";
  for (const ParsedKernel& k : set_.kernels) {
    const KernelHeader& h = k.header;
    os << fmt::format("  {}: {} grid ({},{},{}) block ({},{},{}), sm_{} ({} latencies), {} warp instructions, {} memory",
                      k.file, h.name, h.grid.x, h.grid.y, h.grid.z, h.block.x, h.block.y, h.block.z, h.binary_version,
                      k.isa->family, k.trace_instructions, k.memory_instructions);
    auto n = [&k](TraceClass c) { return k.by_class[static_cast<uint32_t>(c)]; };
    os << fmt::format(" (L1 loads {}, L1 stores {}, shared {})", n(TraceClass::kGlobalLoad) + n(TraceClass::kLocalLoad),
                      n(TraceClass::kGlobalStore) + n(TraceClass::kLocalStore), n(TraceClass::kShared));
    if (k.wide_accesses) os << ", " << k.wide_accesses << " 16 B accesses run as 8 B halves";
    if (k.synthetic_exits) os << ", " << k.synthetic_exits << " warps without a final EXIT";
    os << "\n";
    if (!k.unknown_opcodes.empty()) {
      os << "    unknown opcodes (run as integer ALU):";
      for (const auto& [op, count] : k.unknown_opcodes) os << " " << op << " x" << count;
      os << "\n";
    }
  }
  return os.str();
}

std::unique_ptr<TraceWorkload> load_trace_workload(const std::string& path, const TraceOptions& opt) {
  ParseOptions p;
  p.isa_override = opt.isa_override;
  p.threads = opt.threads;
  return std::make_unique<TraceWorkload>(parse_trace_dir(path, p), opt);
}

void attach_copies(Gpu& gpu, const TraceWorkload& w) {
  gpu.set_kernel_hook([&gpu, &w](uint32_t k) {
    for (const TraceWorkload::Copy& c : w.copies_before(k)) gpu.preload_l2(c.pa, c.bytes);
  });
}

}  // namespace l1d::sim::trace
