#include "golden/l1_testbench.h"

#include <fmt/format.h>

#include <stdexcept>

#include "golden/agcb_predictor.h"

namespace l1d::golden {

uint8_t initial_byte(Addr a) { return static_cast<uint8_t>((a * 0x9E3779B1u) >> 13); }

LineData initial_line(Addr line_addr) {
  LineData d;
  for (uint32_t b = 0; b < kLineBytes; ++b) d[b] = initial_byte(line_addr + b);
  return d;
}

std::optional<MemResp> serve_line(LineData& line, bool& l2_bit, const MemReq& r) {
  if (r.op == MemOp::kStore) {
    for (uint32_t b = 0; b < kLineBytes; ++b)
      if (r.byte_mask[b]) line[b] = r.data[b];
    return std::nullopt;
  }
  MemResp resp;
  resp.mshr = r.mshr;
  resp.sectors = r.sectors;
  for (uint32_t b = 0; b < kLineBytes; ++b)
    if ((r.sectors >> (b / kChunkBytes)) & 1) resp.data[b] = line[b];
  if (r.agcb_bypass) resp.l2_bypass_bit = l2_bypass_override(l2_bit);
  return resp;
}

namespace {

LineData& line_in(std::unordered_map<Addr, LineData>& m, Addr line) {
  auto it = m.find(line);
  if (it == m.end()) it = m.emplace(line, initial_line(line)).first;
  return it->second;
}

}  // namespace

L1Testbench::L1Testbench(const Config& cfg, MemoryModel mem, uint64_t seed)
    : cfg_(cfg), mem_(mem), rng_(seed), l1_(cfg) {}

uint8_t L1Testbench::memory_byte(Addr a) const {
  auto it = memory_.find(a & ~Addr{kLineBytes - 1});
  return it == memory_.end() ? initial_byte(a) : it->second[a % kLineBytes];
}

void L1Testbench::memory_accept(const MemReq& r) {
  std::optional<MemResp> resp = serve_line(line_in(memory_, r.line_addr), l2_bits_[r.line_addr], r);
  if (!resp) return;
  InFlight f;
  f.resp = *resp;
  std::uniform_int_distribution<uint32_t> lat(mem_.min_latency, mem_.max_latency);
  f.due = cycle_ + lat(rng_);
  in_flight_.push_back(f);
}

std::optional<MemResp> L1Testbench::memory_respond() {
  // One response per cycle: the earliest due (lowest index among equals), when due.
  size_t best = in_flight_.size();
  for (size_t i = 0; i < in_flight_.size(); ++i)
    if (in_flight_[i].due <= cycle_ && (best == in_flight_.size() || in_flight_[i].due < in_flight_[best].due))
      best = i;
  if (best == in_flight_.size()) return std::nullopt;
  MemResp r = in_flight_[best].resp;
  in_flight_.erase(in_flight_.begin() + static_cast<std::ptrdiff_t>(best));
  return r;
}

void L1Testbench::check_response(const CoreResp& r, TestbenchResult& res) {
  auto it = outstanding_.find(r.id);
  if (it == outstanding_.end()) {
    ++res.data_mismatches;
    if (res.first_mismatch.empty()) res.first_mismatch = fmt::format("response for unknown request {}", r.id);
    return;
  }
  const Expected& e = it->second;
  for (uint32_t b = 0; b < kLineBytes; ++b) {
    if (e.mask[b] && r.data[b] != e.data[b]) {
      ++res.data_mismatches;
      if (res.first_mismatch.empty())
        res.first_mismatch = fmt::format("cycle {}: request {} ({}) line {:#x} byte {}: got {:#04x}, expected {:#04x}",
                                         cycle_, r.id, to_string(r.outcome), e.addr & ~Addr{kLineBytes - 1}, b,
                                         r.data[b], e.data[b]);
      break;
    }
  }
  if (!e.mask.none()) ++res.loads_checked;
  outstanding_.erase(it);
}

void L1Testbench::trace(const L1Inputs& in, const L1Outputs& out) const {
  const Addr t = *trace_line;
  if (in.core_req_valid && out.core_req_ready && (in.core_req.addr & ~Addr{127}) == t)
    fmt::print(stderr, "{:>8} fire  req {} {} addr {:#x} size {} G={}\n", cycle_, in.core_req.id,
               in.core_req.op == MemOp::kLoad ? "load" : "store", in.core_req.addr, in.core_req.size,
               l1_.granularity());
  if (out.mem_req_valid && in.mem_req_ready && out.mem_req.line_addr == t)
    fmt::print(stderr, "{:>8} mem   {} sectors {:#x} mshr {}\n", cycle_, out.mem_req.op == MemOp::kLoad ? "read" : "write",
               out.mem_req.sectors, out.mem_req.mshr);

  auto o = out.core_resp_valid ? outstanding_.find(out.core_resp.id) : outstanding_.end();
  if (o != outstanding_.end() && (o->second.addr & ~Addr{127}) == t)
    fmt::print(stderr, "{:>8} resp  req {} {}\n", cycle_, out.core_resp.id, to_string(out.core_resp.outcome));
}

TestbenchResult L1Testbench::run(const RequestSource& source, uint64_t requests, uint32_t check_every,
                                 uint64_t drain_limit) {
  TestbenchResult res;
  std::optional<CoreReq> pending;
  uint32_t next_id = 1;
  uint64_t idle_since = 0;
  std::uniform_int_distribution<uint32_t> pct(0, 99);
  while (true) {
    if (!pending && res.requests < requests) {
      pending = source(rng_);
      if (pending) pending->id = next_id++;
    }
    L1Inputs in;
    in.core_req_valid = pending.has_value();
    if (pending) in.core_req = *pending;
    in.mem_req_ready = pct(rng_) < mem_.ready_percent;
    if (std::optional<MemResp> r = memory_respond()) {
      in.mem_resp_valid = true;
      in.mem_resp = *r;
    }
    in.occupancy = static_cast<uint32_t>(rng_() % (cfg_.core.warps_per_sm + 1));
    // The streams use AWID = warp slot: warps launch in slot order in the first cycles.
    in.kernel_start = cycle_ == 0;
    in.warp_launch = cycle_ < std::min<uint32_t>(cfg_.core.warps_per_sm, 255);
    if (on_cycle) on_cycle(cycle_, in);

    const L1Outputs out = l1_.step(in);
    if (on_step) on_step(cycle_, in, out);

    if (trace_line) trace(in, out);
    if (out.core_resp_valid) check_response(out.core_resp, res);
    if (out.mem_req_valid && in.mem_req_ready) memory_accept(out.mem_req);
    if (in.core_req_valid && out.core_req_ready) {
      const CoreReq& q = *pending;
      const Addr line = q.addr & ~Addr{kLineBytes - 1};
      LineData& arch = line_in(shadow_, line);
      Expected e;
      e.addr = q.addr;
      if (q.op == MemOp::kStore) {
        for (uint32_t b = 0; b < kLineBytes; ++b)
          if (q.byte_mask[b]) arch[b] = q.data[b];
      } else {
        e.data = arch;
        e.mask = q.byte_mask;
      }
      outstanding_[q.id] = e;
      ++res.requests;
      pending.reset();
    }
    ++cycle_;
    if (check_every && cycle_ % check_every == 0) l1_.check_invariants();
    if (res.data_mismatches) break;
    if (res.requests >= requests && !pending) {
      if (outstanding_.empty() && in_flight_.empty() && l1_.idle()) {
        res.drained = true;
        break;
      }
      if (++idle_since > drain_limit) break;
    }
  }
  res.cycles = cycle_;
  if (check_every) l1_.check_invariants();
  return res;
}

// ---------------------------------------------------------------------------------------
// Synthetic streams

namespace {

struct StreamShape {
  uint32_t footprint_lines;  // distinct 128 B lines touched
  uint32_t store_percent;
  bool sequential;
  uint32_t fixed_size;       // 0 = random 32/64/128
  uint32_t pcs;
  uint32_t burst = 1;        // requests to one line in a row (random lines: a new one per burst)
};

struct StreamState {
  uint64_t seq = 0;   // requests so far
  uint64_t line = 0;  // the current burst's line
};

CoreReq random_request(std::mt19937_64& rng, const StreamShape& s, StreamState& st, uint32_t warps) {
  static constexpr Addr kBase = 0x10000000;
  CoreReq q;
  const uint32_t sizes[3] = {32, 64, 128};
  q.size = s.fixed_size ? s.fixed_size : sizes[rng() % 3];
  if (st.seq % s.burst == 0) st.line = s.sequential ? (st.seq / s.burst) % s.footprint_lines : rng() % s.footprint_lines;
  ++st.seq;
  const uint64_t line = st.line;
  const uint32_t offset = static_cast<uint32_t>(rng() % (kLineBytes / q.size)) * q.size;
  q.addr = kBase + line * kLineBytes + offset;
  q.op = rng() % 100 < s.store_percent ? MemOp::kStore : MemOp::kLoad;
  // Lanes of 4 bytes, each present with probability 3/4 (at least one).
  for (uint32_t lane = 0; lane < q.size / 4; ++lane)
    if (rng() % 4) q.byte_mask |= ByteMask{0xF} << (offset + lane * 4);
  if (q.byte_mask.none()) q.byte_mask |= ByteMask{0xF} << offset;
  for (uint32_t b = 0; b < kLineBytes; ++b) q.data[b] = static_cast<uint8_t>(rng());
  q.warp = static_cast<uint8_t>(rng() % warps);
  q.awid = q.warp;  // warps are launched in slot order at the start (AWID = slot)
  q.token = rng() % 2;
  q.pc = 0x1000 + (rng() % s.pcs) * 8;
  return q;
}

}  // namespace

std::vector<std::string> stream_names() { return {"mixed", "reuse", "stream", "irregular", "burst"}; }

RequestSource make_stream(const std::string& name, const Config& cfg) {
  const uint32_t cache_lines = cfg.l1.size_bytes / kLineBytes;
  StreamShape s;
  if (name == "mixed") s = {cache_lines * 4, 25, false, 0, 16};
  else if (name == "reuse") s = {cache_lines / 2, 5, false, 0, 4};
  else if (name == "stream") s = {1u << 20, 0, true, 128, 2};
  else if (name == "irregular") s = {cache_lines * 8, 10, false, 32, 32};
  // Loads in bursts to one line of a footprint four times the cache: the first misses, the next
  // merge into its MSHR entry until the entry's merge limit, and the rest fail (merge_full).
  else if (name == "burst") s = {cache_lines * 4, 0, false, 0, 4, cfg.l1.mshr_max_merge + 4};
  else throw std::invalid_argument(fmt::format("unknown stream '{}' (known: mixed, reuse, stream, irregular, burst)", name));
  const uint32_t warps = std::min<uint32_t>(cfg.core.warps_per_sm, 255);
  auto st = std::make_shared<StreamState>();
  return [s, st, warps](std::mt19937_64& rng) { return std::optional<CoreReq>(random_request(rng, s, *st, warps)); };
}

}  // namespace l1d::golden
