// golden::L1 with l1.pipeline staged (docs/l1d-microarchitecture.md section 16): the decisions of
// sections 4-15 unchanged, taken at stage M2 by the same functions the single-cycle L1 calls
// (lookup, fill_step, flush_step), with the timing of RTL v2's pipe around them: an arbiter at A
// (fill > flush > replay > core), three pipe registers (T, M1, M2: the decisions are taken at M2),
// a 2-entry core input FIFO, a replay FIFO for failed core requests, squashes, a 3-cycle response
// path and a delayed miss-queue head.
//
// The per-operation model is sound because the RTL forwards every same-set write into M1's row and
// corrects M1's match with the change M2 made in the cycle before (16.5): an operation at M2 sees
// exactly the state the operations decided before it left.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "golden/l1.h"
#include "golden/line_bytes.h"

namespace l1d::golden {

using namespace line_bytes;

namespace {
bool is(const auto& op, auto kind) { return op.kind == kind; }
}  // namespace

void L1::step_staged(const L1Inputs& in, L1Outputs& out) {
  const uint64_t now = counters_.cycles;
  out.core_resp_valid = resp_pipe_[2].valid;
  out.core_resp = resp_pipe_[2].resp;
  out.mem_req_valid = !miss_queue_.empty() && miss_queue_visible_.front() <= now;
  out.mem_req = out.mem_req_valid ? miss_queue_.front() : kNoMemReq;
  out.core_req_ready = core_fifo_.size() < 2;

  // A: the arbiter acts on the state at the start of the cycle.
  const bool core_waiting = !replay_fifo_.empty() || !core_fifo_.empty();
  Op a = arbitrate();
  // A waiting core request is passed over only for a fill step or a flush (which holds A).
  if (core_waiting && !is(a, Op::Kind::kCore)) ++counters_.s1_stall_cycles;

  // M2: the decision.
  const size_t queued_before = miss_queue_.size();
  const uint64_t epoch = flush_epoch_;
  bool produced = false;
  if (!is(m_op_, Op::Kind::kNone)) {
    const uint32_t set = set_of(m_op_);
    const uint64_t before = set_signature(set);
    produced = decide(m_op_, a);
    ++staged_pairs_.decided;
    if (last_decided_ && last_set_ == set) {
      ++staged_pairs_.same_set;
      if (last_changed_) {
        ++(is(m_op_, Op::Kind::kCore)   ? staged_pairs_.stale_core
           : is(m_op_, Op::Kind::kFill) ? staged_pairs_.stale_fill
                                        : staged_pairs_.stale_flush);
      }
    }
    last_changed_ = set_signature(set) != before;
    last_set_ = set;
  }
  last_decided_ = !is(m_op_, Op::Kind::kNone);
  // The requests M2 queued become presentable from m + 3, one per cycle, in order (16.4).
  for (size_t k = queued_before; k < miss_queue_.size(); ++k) {
    last_visible_ = std::max(now + 3 + (k - queued_before), last_visible_ + 1);
    miss_queue_visible_.push_back(last_visible_);
  }

  // Clock edge.
  if (out.mem_req_valid && in.mem_req_ready) {
    miss_queue_.pop_front();
    miss_queue_visible_.pop_front();
  }
  if (in.core_req_valid && out.core_req_ready) {
    validate(in.core_req);
    core_fifo_.push_back(in.core_req);
  }
  accept_cycle_inputs(in);
  if (flush_epoch_ != epoch) {
    // A flush started (a granularity switch at M2 or a kernel end): the walk issues from line 0,
    // and no core request is decided while it runs (16.3).
    squash(Op::Kind::kFlush, a);
    flush_cursor_ = 0;
    squash_core_to_replay(nullptr, a);
  } else if (!flushing_) {
    squash(Op::Kind::kFlush, a);  // l1.kernel_end invalidate ended a granularity walk
  }
  resp_pipe_[2] = resp_pipe_[1];
  resp_pipe_[1] = resp_pipe_[0];
  resp_pipe_[0] = {produced, produced ? next_resp_ : CoreResp{}};
  m_op_ = m1_op_;
  m1_op_ = t_op_;
  t_op_ = a;
  ++counters_.cycles;
}

L1::Op L1::arbitrate() {
  Op op;
  if (fill_cursor_pos_ < fill_fifo_.size()) {
    const uint32_t id = fill_fifo_[fill_cursor_pos_];
    op.kind = Op::Kind::kFill;
    op.entry = id;
    op.index = fill_cursor_step_;
    if (fill_cursor_step_ + 1 < mshr_.entry(id).requests.size()) {
      ++fill_cursor_step_;
    } else {
      ++fill_cursor_pos_;
      fill_cursor_step_ = 0;
    }
    return op;
  }
  if (flushing_) {
    // The walker holds A until its last line is done at M2 (16.3).
    if (flush_cursor_ < split_.sets() * ways_) {
      op.kind = Op::Kind::kFlush;
      op.index = flush_cursor_++;
    }
    return op;
  }
  for (auto* fifo : {&replay_fifo_, &core_fifo_}) {
    if (fifo->empty()) continue;
    op.kind = Op::Kind::kCore;
    op.req = fifo->front();
    fifo->pop_front();
    return op;
  }
  return op;
}

uint32_t L1::set_of(const Op& op) const {
  switch (op.kind) {
    case Op::Kind::kCore: return split_.decode(op.req.addr).set;
    case Op::Kind::kFill: return split_.decode(mshr_.entry(op.entry).line_addr).set;
    case Op::Kind::kFlush: return op.index / ways_;
    case Op::Kind::kNone: break;
  }
  return 0;
}

// What a match of `set` reads, hashed: the lines' common-tags, slot valid bits, chunk-tags and
// dirty bits, and the set's MSHR entries (line, requests). For StagedPairs only.
uint64_t L1::set_signature(uint32_t set) const {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  const auto mix = [&](uint64_t v) { h = (h ^ v) * 0x100000001b3ULL; };
  for (const CacheLine& line : sets_[set]) {
    mix(line.common_tag);
    for (const Slot& sl : line.slot) {
      mix((uint64_t{sl.chunk_tag} << 4) | (uint64_t{sl.reserved} << 3) | (uint64_t{sl.written} << 2) |
          (uint64_t{sl.valid} << 1) | (sl.dirty != 0));
    }
  }
  for (uint32_t i = 0; i < mshr_.size(); ++i) {
    const MshrEntry& e = mshr_.entry(i);
    if (e.valid && split_.decode(e.line_addr).set == set) mix(e.line_addr ^ (uint64_t{e.requests.size()} << 56));
  }
  return h;
}

bool L1::decide(const Op& op, Op& a) {
  switch (op.kind) {
    case Op::Kind::kCore: {
      if (flushing_) throw std::logic_error("L1 (staged): a core request reached M2 during a flush");
      const S1Result r = lookup(op.req);
      if (!r.completed) {
        (op.req.op == MemOp::kLoad ? accelsim_.read : accelsim_.write).res_fail +=
            static_cast<uint64_t>(std::popcount(sectors_of(op.req.byte_mask)));
        squash_core_to_replay(&op, a);
      }
      return r.responds;
    }
    case Op::Kind::kFill: {
      if (fill_fifo_.empty() || op.entry != fill_fifo_.front() || op.index != (fill_placed_ ? fill_index_ : 0))
        throw std::logic_error(fmt::format("L1 (staged): fill step {} of MSHR {} reached M2 out of order", op.index,
                                           op.entry));
      const size_t fifo_before = fill_fifo_.size();
      const bool produced = fill_step();
      if (fill_fifo_.size() < fifo_before) {
        // The entry left the FIFO; every step of it was issued, so the cursor is past it.
        if (fill_cursor_pos_ == 0) throw std::logic_error("L1 (staged): fill entry done before its steps were issued");
        --fill_cursor_pos_;
      } else {
        fill_decided(produced, a);
      }
      return produced;
    }
    case Op::Kind::kFlush: {
      if (!flushing_ || op.index != flush_next_)
        throw std::logic_error(fmt::format("L1 (staged): flush of line {} reached M2 out of order", op.index));
      flush_step();
      if (flushing_ && flush_next_ == op.index) {  // it waits for miss-queue room: reissue from it
        squash(Op::Kind::kFlush, a);
        flush_cursor_ = op.index;
      }
      return false;
    }
    case Op::Kind::kNone: break;
  }
  return false;
}

// After a fill step at M2 that left the head entry in the FIFO: the next fill operation to reach M2
// must be the entry's next step (step 0 again if placement waited; a step a load merged after the
// fill unit read the entry's request count). Otherwise the fill unit reissues from it (16.3).
void L1::fill_decided(bool placed, Op& a) {
  const uint32_t next = placed ? fill_index_ : 0;
  const Op* younger = nullptr;  // the next fill operation behind it: in M1, T or A, oldest first
  for (const Op* op : {&m1_op_, &t_op_, &a}) {
    if (is(*op, Op::Kind::kFill)) {
      younger = op;
      break;
    }
  }
  const bool in_step = younger ? younger->entry == fill_fifo_.front() && younger->index == next
                               : fill_cursor_pos_ == 0 && fill_cursor_step_ == next;
  if (in_step) return;
  squash(Op::Kind::kFill, a);
  fill_cursor_pos_ = 0;
  fill_cursor_step_ = next;
}

void L1::squash(Op::Kind kind, Op& a) {
  for (Op* op : {&m1_op_, &t_op_, &a})
    if (op->kind == kind) *op = Op{};
}

// The failed core request (if any) and the younger core requests in M1, T and A go back to the
// front of the replay FIFO, oldest first (16.3).
void L1::squash_core_to_replay(const Op* failed, Op& a) {
  std::vector<CoreReq> back;
  if (failed) back.push_back(failed->req);
  for (Op* op : {&m1_op_, &t_op_, &a})
    if (is(*op, Op::Kind::kCore)) {
      back.push_back(op->req);
      *op = Op{};
    }
  replay_fifo_.insert(replay_fifo_.begin(), back.begin(), back.end());
  if (replay_fifo_.size() > kReplayFifoDepth)
    throw std::logic_error(fmt::format("L1 (staged): {} requests in the replay FIFO (at most {})", replay_fifo_.size(),
                                       kReplayFifoDepth));
}

bool L1::staged_idle() const {
  return is(t_op_, Op::Kind::kNone) && is(m1_op_, Op::Kind::kNone) && is(m_op_, Op::Kind::kNone) && core_fifo_.empty() && replay_fifo_.empty() &&
         !resp_pipe_[0].valid && !resp_pipe_[1].valid && !resp_pipe_[2].valid;
}

}  // namespace l1d::golden
