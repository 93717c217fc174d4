// L1Port over golden::L1 (the C++ reference of the L1 contract).
#include <memory>
#include <string>

#include "golden/l1.h"
#include "sim_cpp/l1/l1_port.h"

namespace l1d::sim {

namespace {

class GoldenL1Port final : public L1Port {
 public:
  explicit GoldenL1Port(const Config& cfg) : l1_(cfg), way_bytes_(cfg.l1.ways * 128) {}
  L1Outputs step(const L1Inputs& in) override { return l1_.step(in); }
  void step_into(const L1Inputs& in, L1Outputs& out) override { l1_.step(in, out); }
  const L1Counters& counters() const override { return l1_.counters(); }
  bool idle() const override { return l1_.idle(); }
  uint64_t quiet_cycles(uint32_t occupancy) const override { return l1_.quiet_cycles(occupancy); }
  void skip_quiet_cycles(uint64_t n, uint32_t occupancy, bool agelru_enable) override {
    l1_.skip_quiet_cycles(n, occupancy, agelru_enable);
  }
  uint64_t retry_cycles(uint32_t occupancy) const override { return l1_.retry_cycles(occupancy); }
  void skip_retry_cycles(uint64_t n, uint32_t occupancy) override { l1_.skip_retry_cycles(n, occupancy); }
  bool mem_req_pending() const override { return l1_.mem_req_pending(); }
  std::string describe_state() const override { return l1_.describe_state(); }
  bool two_level_bypass() const override { return l1_.two_level().bypass(); }
  bool store_pending(Addr line_addr) const override { return l1_.store_pending(line_addr); }
  const golden::L1* golden_model() const override { return &l1_; }
  void resize(uint32_t bytes) override { l1_.resize_sets(bytes / way_bytes_); }

 private:
  golden::L1 l1_;
  uint32_t way_bytes_;
};

}  // namespace

std::unique_ptr<L1Port> make_golden_l1(const Config& cfg) { return std::make_unique<GoldenL1Port>(cfg); }

}  // namespace l1d::sim
