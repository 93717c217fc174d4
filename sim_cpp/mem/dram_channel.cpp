// DRAM channel with FR-FCFS (dram_channel.h).
#include "sim_cpp/mem/dram_channel.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace l1d::sim {

DramChannel::DramChannel(const MemParams& p, const AddressMap& map, MemorySystemStats* stats)
    : p_(p),
      map_(map),
      stats_(stats),
      capacity_(p.dram_queue),
      banks_(p.dram_banks),
      done_(p.dram_queue * 2),
      credit_(static_cast<int64_t>(p.bw_num)) {
  if (p.bw_num == 0 || p.bw_den == 0) throw std::invalid_argument("DramChannel: zero bandwidth");
  queue_.reserve(capacity_);
}

void DramChannel::enqueue(const DramRequest& r, uint64_t /*now*/) {
  if (!can_accept()) throw std::logic_error("DramChannel::enqueue into a full queue");
  Entry e;
  e.req = r;
  e.bank = map_.dram_bank(r.channel_line);
  e.row = map_.dram_row(r.channel_line);
  Bank& b = banks_[e.bank];
  if (b.open && b.row == e.row) ++b.queued_hits;
  ++b.queued;
  queue_.push_back(e);
  quiet_until_ = 0;
}

void DramChannel::earn_credit(uint64_t now) {
  const int64_t num = static_cast<int64_t>(p_.bw_num);
  const uint64_t elapsed = now - credit_at_;
  credit_at_ = now;
  // Negative credit (a burst's debt) is paid back at the bus rate; positive credit is capped
  // at one cycle's worth. `to_cap` cycles reach the cap (no overflow for long idle spans).
  const uint64_t to_cap = static_cast<uint64_t>((num - credit_ + num - 1) / num);
  if (elapsed >= to_cap) credit_ = num;
  else credit_ += static_cast<int64_t>(elapsed) * num;
}

void DramChannel::tick(uint64_t now) {
  earn_credit(now);
  if (queue_.empty() || now < quiet_until_) return;

  // One pass, oldest first: the oldest issuable row hit (column) and the oldest request that
  // may activate its row (its bank is not activating and has no queued hit to its open row).
  const size_t none = queue_.size();
  size_t column = none, activate = none;
  const bool bus = credit_ > 0;
  const bool may_activate = now >= next_act_;
  // earn_credit: `k` cycles on, the credit is min(num, credit_ + k * num).
  const int64_t num = static_cast<int64_t>(p_.bw_num);
  const uint64_t bus_at = bus ? now : now + static_cast<uint64_t>(-credit_ / num) + 1;
  if (!bus && !may_activate) {  // nothing issues before the bus or tRRD allows it
    quiet_until_ = std::min(bus_at, next_act_);
    return;
  }
  // Per bank first: a bank with a queued hit to its open row offers a column (every queued
  // request to it that is not a hit waits), a bank with queued requests and none a hit offers
  // activations. So whether a column / an activation can issue now, and when one could when
  // none can, follow from the banks alone; the queue is scanned only for the oldest request of
  // a kind that can issue, and only until it is found.
  uint64_t issue_at = ~uint64_t{0};  // when nothing issues: the first cycle something could
  bool column_now = false, activate_now = false;
  for (const Bank& b : banks_) {
    if (b.queued_hits > 0) {
      column_now |= b.ready <= now;
      issue_at = std::min(issue_at, std::max(b.ready, bus_at));
    } else if (b.queued > 0) {
      activate_now |= b.ready <= now;
      issue_at = std::min(issue_at, std::max(b.ready, next_act_));
    }
  }
  const bool want_column = bus && column_now, want_activate = may_activate && activate_now;
  for (size_t i = 0; (want_column || want_activate) && i < queue_.size(); ++i) {
    const Entry& e = queue_[i];
    const Bank& b = banks_[e.bank];
    if (b.open && b.row == e.row) {
      if (column == none && want_column && b.ready <= now) column = i;
    } else if (b.queued_hits == 0) {
      if (activate == none && want_activate && b.ready <= now) activate = i;
    }
    if ((column != none || !want_column) && (activate != none || !want_activate)) break;
  }
  if (activate != none) {
    Entry& e = queue_[activate];
    Bank& b = banks_[e.bank];
    uint64_t start = now;
    if (b.open) start = std::max(now, b.act_at + p_.t_ras) + p_.t_rp;  // precharge first
    b.open = true;
    b.row = e.row;
    b.act_at = start;
    b.ready = start + p_.t_rcd;
    next_act_ = start + p_.t_rrd;
    e.activated = true;
    b.queued_hits = 0;
    for (const Entry& q : queue_) b.queued_hits += (q.bank == e.bank && q.row == e.row) ? 1 : 0;
  }
  if (column == none) {
    // Nothing issued: issue_at is the first cycle a bank allows something.
    if (activate == none) quiet_until_ = issue_at;
    return;
  }
  const Entry e = queue_[column];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(column));
  --banks_[e.bank].queued_hits;
  --banks_[e.bank].queued;
  const uint64_t bytes = uint64_t{sector_count(e.req.sectors)} * kChunkBytes;
  credit_ -= static_cast<int64_t>(bytes * p_.bw_den);
  if (stats_) {
    if (e.req.write) ++stats_->dram_writes; else ++stats_->dram_reads;
    if (e.activated) ++stats_->dram_row_misses; else ++stats_->dram_row_hits;
    stats_->dram_bytes += bytes;
  }
  if (!e.req.write) {
    Done& d = done_.emplace_slot();
    d.ready = now + p_.dram_latency;
    d.req = e.req;
  }
}

std::string DramChannel::describe(uint64_t now) const {
  std::ostringstream os;
  size_t reads = 0;
  for (const Entry& e : queue_) reads += e.req.write ? 0 : 1;
  uint32_t open = 0, activating = 0;
  for (const Bank& b : banks_) {
    open += b.open ? 1 : 0;
    activating += b.ready > now ? 1 : 0;
  }
  os << "queue " << queue_.size() << "/" << capacity_ << " (" << reads << " rd, " << queue_.size() - reads
     << " wr), reads returning " << done_.size() << ", banks open " << open << " activating " << activating;
  if (!queue_.empty()) {
    const Entry& e = queue_.front();
    os << ", oldest: " << (e.req.write ? "wr" : "rd") << " line " << e.req.channel_line << " bank " << e.bank
       << " row " << e.row;
  }
  return os.str();
}

}  // namespace l1d::sim
