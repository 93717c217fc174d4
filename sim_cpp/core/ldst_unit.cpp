// The SM's load/store unit (ldst_unit.h).
#include "sim_cpp/core/ldst_unit.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace l1d::sim {

std::string LoadMismatch::to_string() const {
  return fmt::format(
      "load data mismatch: cycle {} SM {} warp {} request {} pc {:#x} addr {:#x} size {}: byte {} expected {:#04x} got "
      "{:#04x}",
      cycle, sm, warp, request, pc, addr, size, offset, expected, got);
}

LdstUnit::LdstUnit(uint32_t sm, uint32_t hit_latency, ArchImage& arch)
    : sm_(sm), hit_latency_(hit_latency), arch_(arch), delay_(hit_latency + 2) {}

void LdstUnit::accept(uint32_t warp, uint8_t awid, bool token, uint32_t age_rank, OpKind kind, uint64_t pc,
                      std::vector<CoalescedRequest>& reqs, uint32_t tag) {
  if (busy_) throw std::logic_error("LDST unit: instruction issued while busy");
  if (reqs.empty()) throw std::logic_error("LDST unit: memory instruction without requests");
  busy_ = true;
  warp_ = warp;
  awid_ = awid;
  token_ = token;
  age_bucket_ = std::min(age_rank, LdstStats::kAgeRanks - 1);
  tag_ = tag;
  kind_ = kind;
  pc_ = pc;
  reqs_.swap(reqs);
  next_ = 0;
  ++stats_.instructions;
  ++(kind_ == OpKind::kLoad ? stats_.load_instructions : stats_.store_instructions);
  build_current();
}

uint32_t LdstUnit::allocate() {
  uint32_t idx;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
  } else {
    if (recs_.size() >= (size_t{1} << kIndexBits)) throw std::logic_error("LDST unit: too many requests in flight");
    idx = static_cast<uint32_t>(recs_.size());
    recs_.emplace_back();
  }
  Rec& r = recs_[idx];
  r.live = true;
  r.id = (++generation_ << kIndexBits) | idx;
  ++live_;
  return idx;
}

void LdstUnit::release(uint32_t idx) {
  recs_[idx].live = false;
  free_.push_back(idx);
  --live_;
}

void LdstUnit::build_current() {
  const CoalescedRequest& q = reqs_[next_];
  ++serial_;
  cur_rec_ = allocate();
  Rec& r = recs_[cur_rec_];
  r.warp = warp_;
  r.age_bucket = age_bucket_;
  r.tag = tag_;
  r.load = kind_ == OpKind::kLoad;
  r.pc = pc_;
  r.addr = q.addr;
  r.size = q.size;
  r.mask = q.byte_mask;
  r.direct = false;
  cur_.id = r.id;
  cur_.warp = static_cast<uint8_t>(warp_);
  cur_.awid = awid_;
  cur_.token = token_;
  cur_.pc = pc_;
  cur_.op = r.load ? MemOp::kLoad : MemOp::kStore;
  cur_.addr = q.addr;
  cur_.size = q.size;
  cur_.byte_mask = q.byte_mask;
  if (r.load)
    cur_.data.fill(0);
  else
    cur_.data = q.data;
}

LdstUnit::Fired LdstUnit::fired(uint64_t now) {
  if (!busy_) throw std::logic_error("LDST unit: fire without a request");
  const CoalescedRequest& q = reqs_[next_];
  Rec& r = recs_[cur_rec_];
  r.accepted = now;
  if (arch_op_.pending) throw std::logic_error(fmt::format("SM {}: two LDST requests fired in one cycle", sm_));
  arch_op_.pending = true;
  arch_op_.load = r.load;
  arch_op_.rec = cur_rec_;
  arch_op_.line = q.addr & ~Addr{kLineBytes - 1};
  arch_op_.mask = q.byte_mask;
  if (r.load) {
    ++stats_.load_requests;
    ++stats_.load_requests_by_age[r.age_bucket];
  } else {
    arch_op_.data = q.data;
    ++stats_.store_requests;
  }
  ++stats_.requests;
  ++stats_.requests_by_size[q.size == 32 ? 0 : q.size == 64 ? 1 : 2];

  Fired f;
  if (++next_ < reqs_.size()) {
    build_current();
    return f;
  }
  f.done = true;
  f.store = kind_ == OpKind::kStore;
  f.warp = warp_;
  busy_ = false;
  warp_ = kNone;
  return f;
}

void LdstUnit::commit_arch() {
  if (!arch_op_.pending) return;
  arch_op_.pending = false;
  if (arch_op_.load) {
    // The expected response: the requested bytes of the architectural image at acceptance (after
    // the stores of lower-numbered SMs accepted in the same cycle), zero elsewhere.
    Rec& r = recs_[arch_op_.rec];
    r.expected = arch_.line(arch_op_.line);
    keep_masked(r.expected, arch_op_.mask);
  } else {
    arch_.write(arch_op_.line, arch_op_.mask, arch_op_.data);
  }
}

uint32_t LdstUnit::rec_of(uint32_t id, const char* what) const {
  const uint32_t idx = id & ((1u << kIndexBits) - 1);
  if (idx >= recs_.size() || !recs_[idx].live || recs_[idx].id != id)
    throw std::logic_error(fmt::format("SM {}: {} response for unknown request id {:#x}", sm_, what, id));
  if (arch_op_.pending && arch_op_.rec == idx)
    throw std::logic_error(fmt::format("SM {}: {} response for request {:#x} in the cycle it was accepted", sm_, what, id));
  return idx;
}

void LdstUnit::check_load(Rec& r, Outcome outcome, const LineData& data, uint64_t now) {
  r.outcome = outcome;
  stats_.load_hits_by_age[r.age_bucket] += outcome == Outcome::kHit;
  ++stats_.loads_checked;
  if (std::memcmp(data.data(), r.expected.data(), kLineBytes) != 0) {
    ++stats_.load_mismatches;
    if (!first_mismatch_) {
      LoadMismatch m;
      m.cycle = now;
      m.sm = sm_;
      m.warp = r.warp;
      m.request = r.id;
      m.pc = r.pc;
      m.addr = r.addr;
      m.size = r.size;
      for (uint32_t b = 0; b < kLineBytes; ++b)
        if (data[b] != r.expected[b]) {
          m.offset = b;
          m.expected = r.expected[b];
          m.got = data[b];
          break;
        }
      first_mismatch_ = m;
    }
  }
}

void LdstUnit::l1_response(const CoreResp& resp, uint64_t now) {
  const uint32_t idx = rec_of(resp.id, "L1");
  Rec& r = recs_[idx];
  if (r.direct) throw std::logic_error(fmt::format("SM {}: L1 response for direct load {:#x}", sm_, resp.id));
  ++stats_.responses[static_cast<int>(resp.outcome)];
  ++stats_.responses_by_size[static_cast<int>(resp.outcome)][r.size == 32 ? 0 : r.size == 64 ? 1 : 2];
  if (!r.load) {
    if (resp.outcome != Outcome::kStoreAck)
      throw std::logic_error(fmt::format("SM {}: store request {:#x} answered with a load outcome", sm_, resp.id));
    release(idx);
    return;
  }
  if (resp.outcome == Outcome::kStoreAck)
    throw std::logic_error(fmt::format("SM {}: load request {:#x} answered with a store ack", sm_, resp.id));
  check_load(r, resp.outcome, resp.data, now);
  if (delay_count_ == delay_.size()) throw std::logic_error("LDST unit: hit-latency delay line overflow");
  delay_[(delay_head_ + delay_count_) % delay_.size()] = {now + hit_latency_, idx};
  ++delay_count_;
}

// ---------------------------------------------------------------------------------------
// l1.hit_latency_at before_tag (contract 13.5)

void LdstUnit::set_pipe(uint32_t stages) {
  if (stages == 0 || live_ != 0) throw std::logic_error("LDST unit: pipe of 0 stages or set while in use");
  pipe_stages_ = stages;
  pipe_.assign(stages, PipeEntry{});
  pipe_head_ = pipe_count_ = 0;
}

LdstUnit::Fired LdstUnit::dispatch_to_pipe(uint64_t now) {
  if (!busy_ || pipe_full()) throw std::logic_error("LDST unit: dispatch into a full pipe or without a request");
  PipeEntry& e = pipe_[(pipe_head_ + pipe_count_) % pipe_stages_];
  e.ready = now + pipe_stages_;
  e.serial = serial_;
  e.req = cur_;
  ++pipe_count_;
  return fired(now);
}

void LdstUnit::pipe_accepted() {
  if (pipe_count_ == 0) throw std::logic_error("LDST unit: L1 accepted from an empty pipe");
  pipe_head_ = (pipe_head_ + 1) % pipe_stages_;
  --pipe_count_;
}

bool LdstUnit::pipe_holds_store(Addr line) const {
  for (uint32_t k = 0; k < pipe_count_; ++k) {
    const CoreReq& q = pipe_[(pipe_head_ + k) % pipe_stages_].req;
    if (q.op == MemOp::kStore && (q.addr & ~Addr{kLineBytes - 1}) == (line & ~Addr{kLineBytes - 1})) return true;
  }
  return false;
}

bool LdstUnit::pipe_holds_warp(uint32_t warp) const {
  for (uint32_t k = 0; k < pipe_count_; ++k)
    if (pipe_[(pipe_head_ + k) % pipe_stages_].req.warp == warp) return true;
  return false;
}

// ---------------------------------------------------------------------------------------
// l1.bypass_path direct (contract 13.6)

LdstUnit::Fired LdstUnit::dispatch_direct(uint64_t now, bool bto, MemReq& out) {
  if (!offer_is_load()) throw std::logic_error("LDST unit: direct dispatch of a non-load");
  const uint32_t first = static_cast<uint32_t>((cur_.addr % kLineBytes) / kChunkBytes);
  SectorMask range = static_cast<SectorMask>(((1u << (cur_.size / kChunkBytes)) - 1) << first);
  if (bto) {
    range = 0;
    for (uint32_t c = 0; c < kLineBytes / kChunkBytes; ++c)
      for (uint32_t b = 0; b < kChunkBytes; ++b)
        if (cur_.byte_mask[c * kChunkBytes + b]) {
          range = static_cast<SectorMask>(range | (1u << c));
          break;
        }
  }
  out = MemReq{};
  out.line_addr = cur_.addr & ~Addr{kLineBytes - 1};
  out.op = MemOp::kLoad;
  out.sectors = range;
  out.bypass = true;
  out.ldst_id = cur_.id;
  recs_[cur_rec_].direct = true;
  ++stats_.direct_loads;
  ++direct_outstanding_;
  return fired(now);
}

void LdstUnit::direct_response(const MemResp& resp, uint64_t now) {
  const uint32_t idx = rec_of(resp.ldst_id, "memory");
  Rec& r = recs_[idx];
  if (!r.direct) throw std::logic_error(fmt::format("SM {}: memory response for non-direct request {:#x}", sm_, r.id));
  constexpr int kBypass = static_cast<int>(Outcome::kBypassReturn);
  ++stats_.responses[kBypass];
  ++stats_.responses_by_size[kBypass][r.size == 32 ? 0 : r.size == 64 ? 1 : 2];
  LineData data = resp.data;
  keep_masked(data, r.mask);
  check_load(r, Outcome::kBypassReturn, data, now);
  --direct_outstanding_;
  direct_ready_.push_back(idx);
}

std::string LdstUnit::describe() const {
  std::ostringstream os;
  if (busy_)
    os << fmt::format("LDST: {} of warp {} pc {:#x}, request {}/{} (id {:#x} addr {:#x} size {}) offered to the L1\n",
                      kind_ == OpKind::kLoad ? "load" : "store", warp_, pc_, next_ + 1, reqs_.size(), cur_.id,
                      cur_.addr, cur_.size);
  else
    os << "LDST: empty\n";
  uint32_t at_l1 = 0;
  for (const Rec& r : recs_) at_l1 += r.live && !r.direct;
  at_l1 -= static_cast<uint32_t>(delay_count_) + pipe_count_ + (busy_ ? 1 : 0);
  os << fmt::format("  requests awaiting an L1 response: {}; responses in the hit-latency delay: {}\n", at_l1,
                    delay_count_);
  if (pipe_stages_)
    os << fmt::format("  requests in the before-tag pipe: {}/{}\n", pipe_count_, pipe_stages_);
  if (direct_outstanding_ || stats_.direct_loads)
    os << fmt::format("  direct loads awaiting memory: {}\n", direct_outstanding_);
  uint32_t listed = 0;
  for (uint32_t i = 0; i < recs_.size() && listed < 8; ++i) {
    const Rec& r = recs_[i];
    if (!r.live || (busy_ && i == cur_rec_)) continue;
    bool delayed = false;
    for (size_t k = 0; k < delay_count_; ++k) delayed |= delay_[(delay_head_ + k) % delay_.size()].rec == i;
    if (delayed) continue;
    os << fmt::format("    id {:#x} warp {} {}{} addr {:#x} size {} accepted at cycle {}\n", r.id, r.warp,
                      r.load ? "load" : "store", r.direct ? " (direct)" : "", r.addr, r.size, r.accepted);
    ++listed;
  }
  return os.str();
}

}  // namespace l1d::sim
