// MemoryPort implementations: the real MemorySystem, an ideal fixed-latency memory and a
// response-dropping fault injector (memory_port.h).
#include "sim_cpp/core/memory_port.h"

#include <deque>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace l1d::sim {

namespace {

class SystemPort final : public MemoryPort {
 public:
  SystemPort(const Config& cfg, FunctionalMemory& image) : mem_(cfg, image) {}
  bool request_ready(uint32_t sm) const override { return mem_.request_ready(sm); }
  uint32_t request_room(uint32_t sm, uint32_t cap) const override { return mem_.request_room(sm, cap); }
  void request(uint32_t sm, const MemReq& r) override { mem_.request(sm, r); }
  std::optional<MemResp> response(uint32_t sm) override { return mem_.response(sm); }
  void tick() override { mem_.tick(); }
  bool split_tick() const override { return true; }
  bool split_response() const override { return true; }
  const MemResp* peek_response(uint32_t sm) const override { return mem_.peek_response(sm); }
  uint32_t peek_port(uint32_t sm, uint32_t cap, const MemResp*& resp) const override {
    return mem_.peek_port(sm, cap, resp);
  }
  void take_response(uint32_t sm) override { mem_.take_response(sm); }
  bool port_events() const override { return true; }
  uint64_t response_arrival(uint32_t sm) const override { return mem_.response_arrival(sm); }
  const std::vector<uint32_t>& response_grants() const override { return mem_.response_grants(); }
  const std::vector<uint32_t>& request_room_freed() const override { return mem_.request_room_freed(); }
  void tick_independent() override { mem_.tick_partitions(); }
  void tick_rest() override { mem_.tick_networks(); }
  bool idle() const override { return mem_.idle(); }
  uint64_t next_event(uint64_t) const override { return mem_.next_event(); }
  void skip(uint64_t n) override { mem_.skip(n); }
  std::string describe_state() const override { return mem_.describe_state(); }
  const MemorySystemStats& stats() const override { return mem_.stats(); }
  nlohmann::json stats_json() const override { return mem_.stats_json(); }
  void preload_l2(Addr addr, uint64_t bytes) override { mem_.preload_l2(addr, bytes); }

 private:
  MemorySystem mem_;
};

class FixedLatencyMemory final : public MemoryPort {
 public:
  FixedLatencyMemory(uint32_t sms, FunctionalMemory& image, uint32_t latency)
      : image_(image), latency_(latency), queues_(sms) {}
  bool request_ready(uint32_t) const override { return true; }
  uint32_t request_room(uint32_t, uint32_t cap) const override { return cap; }
  void request(uint32_t sm, const MemReq& r) override {
    ++stats_.requests;
    if (r.op == MemOp::kStore) {
      ++stats_.writes;
      image_.apply_write(r);
      return;
    }
    ++stats_.reads;
    MemResp resp;
    resp.mshr = r.mshr;
    resp.ldst_id = r.ldst_id;
    resp.data = image_.read_sectors(r.line_addr, r.sectors);
    resp.sectors = r.sectors;
    queues_.at(sm).push_back({now_ + latency_, now_, resp});
  }
  std::optional<MemResp> response(uint32_t sm) override {
    auto& q = queues_.at(sm);
    if (q.empty() || q.front().due > now_) return std::nullopt;
    const MemResp r = q.front().resp;
    stats_.round_trip_sum += now_ - q.front().sent;
    ++stats_.round_trips;
    q.pop_front();
    return r;
  }
  void tick() override { ++now_; }
  bool idle() const override {
    for (const auto& q : queues_)
      if (!q.empty()) return false;
    return true;
  }
  std::string describe_state() const override {
    std::string s;
    for (size_t i = 0; i < queues_.size(); ++i)
      if (!queues_[i].empty()) s += fmt::format("fixed-latency memory: SM {}: {} responses pending\n", i, queues_[i].size());
    return s.empty() ? "fixed-latency memory: empty\n" : s;
  }
  const MemorySystemStats& stats() const override { return stats_; }
  nlohmann::json stats_json() const override {
    return {{"kind", "fixed_latency"},
            {"latency", latency_},
            {"requests", stats_.requests},
            {"reads", stats_.reads},
            {"writes", stats_.writes}};
  }

 private:
  struct Pending {
    uint64_t due = 0, sent = 0;
    MemResp resp;
  };
  FunctionalMemory& image_;
  uint32_t latency_;
  uint64_t now_ = 0;
  std::vector<std::deque<Pending>> queues_;
  MemorySystemStats stats_;
};

class DroppingMemory final : public MemoryPort {
 public:
  DroppingMemory(std::unique_ptr<MemoryPort> inner, uint64_t n) : inner_(std::move(inner)), n_(n) {}
  bool request_ready(uint32_t sm) const override { return inner_->request_ready(sm); }
  uint32_t request_room(uint32_t sm, uint32_t cap) const override { return inner_->request_room(sm, cap); }
  void request(uint32_t sm, const MemReq& r) override { inner_->request(sm, r); }
  std::optional<MemResp> response(uint32_t sm) override {
    std::optional<MemResp> r = inner_->response(sm);
    if (r && ++count_ == n_) {
      note_ = fmt::format("fault injector: dropped response #{} (SM {}, MSHR {})\n", n_, sm, r->mshr);
      return std::nullopt;
    }
    return r;
  }
  void tick() override { inner_->tick(); }
  bool idle() const override { return inner_->idle(); }
  // Dropping a response happens in a cycle that delivers it, which the inner port never skips.
  uint64_t next_event(uint64_t now) const override { return inner_->next_event(now); }
  void skip(uint64_t n) override { inner_->skip(n); }
  std::string describe_state() const override { return inner_->describe_state() + note_; }
  const MemorySystemStats& stats() const override { return inner_->stats(); }
  nlohmann::json stats_json() const override { return inner_->stats_json(); }
  void preload_l2(Addr addr, uint64_t bytes) override { inner_->preload_l2(addr, bytes); }

 private:
  std::unique_ptr<MemoryPort> inner_;
  uint64_t n_;
  uint64_t count_ = 0;
  std::string note_;
};

}  // namespace

std::unique_ptr<MemoryPort> make_memory_port(const Config& cfg, FunctionalMemory& image) {
  return std::make_unique<SystemPort>(cfg, image);
}

std::unique_ptr<MemoryPort> make_fixed_latency_memory(uint32_t sms, FunctionalMemory& image, uint32_t latency) {
  return std::make_unique<FixedLatencyMemory>(sms, image, latency);
}

std::unique_ptr<MemoryPort> make_dropping_memory(std::unique_ptr<MemoryPort> inner, uint64_t n) {
  return std::make_unique<DroppingMemory>(std::move(inner), n);
}

}  // namespace l1d::sim
