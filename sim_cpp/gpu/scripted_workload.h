// A workload given as explicit per-warp instruction lists: for unit tests and micro-benchmarks
// of the core model (a constructed case, rather than an algorithm). Header-only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim_cpp/workload/workload.h"

namespace l1d::sim::scripted {

using Program = std::vector<WarpInst>;  // must end with exit()

inline WarpInst alu(uint32_t latency, uint64_t pc = 0x10) {
  WarpInst i;
  i.kind = OpKind::kAlu;
  i.latency = latency;
  i.pc = pc;
  return i;
}

// A load of `bytes` per lane from addr(lane), for the lanes of `mask`.
inline WarpInst load(uint64_t pc, const std::function<Addr(uint32_t)>& addr, uint32_t bytes = 4,
                     uint32_t mask = 0xFFFFFFFFu) {
  WarpInst i;
  i.kind = OpKind::kLoad;
  i.pc = pc;
  i.access_bytes = bytes;
  i.active_mask = mask;
  for (uint32_t l = 0; l < kWarpSize; ++l)
    if ((mask >> l) & 1) i.addr[l] = addr(l);
  return i;
}

inline WarpInst store(uint64_t pc, const std::function<Addr(uint32_t)>& addr,
                      const std::function<uint64_t(uint32_t)>& value, uint32_t bytes = 4,
                      uint32_t mask = 0xFFFFFFFFu) {
  WarpInst i = load(pc, addr, bytes, mask);
  i.kind = OpKind::kStore;
  for (uint32_t l = 0; l < kWarpSize; ++l)
    if ((mask >> l) & 1) i.value[l] = value(l);
  return i;
}

inline WarpInst barrier(uint64_t pc = 0x20) {
  WarpInst i;
  i.kind = OpKind::kBarrier;
  i.pc = pc;
  return i;
}

inline WarpInst exit(uint64_t pc = 0x30) {
  WarpInst i;
  i.kind = OpKind::kExit;
  i.pc = pc;
  return i;
}

class ListProgram final : public WarpProgram {
 public:
  explicit ListProgram(Program p) : p_(std::move(p)) {}
  WarpInst next() override { return i_ < p_.size() ? p_[i_++] : exit(); }

 private:
  Program p_;
  size_t i_ = 0;
};

struct KernelSpec {
  std::string name = "kernel";
  KernelGrid grid;
  std::function<Program(uint32_t cta, uint32_t warp)> body;
  uint64_t shared_bytes = 0;  // per CTA (Kernel::shared_bytes_per_cta)
};

class ScriptedKernel final : public Kernel {
 public:
  explicit ScriptedKernel(KernelSpec s) : s_(std::move(s)) {}
  std::string name() const override { return s_.name; }
  KernelGrid grid() const override { return s_.grid; }
  uint64_t shared_bytes_per_cta() const override { return s_.shared_bytes; }
  std::unique_ptr<WarpProgram> warp(uint32_t cta, uint32_t w) const override {
    return std::make_unique<ListProgram>(s_.body(cta, w));
  }

 private:
  KernelSpec s_;
};

class ScriptedWorkload final : public Workload {
 public:
  explicit ScriptedWorkload(std::vector<KernelSpec> kernels, std::function<void(FunctionalMemory&)> init = {})
      : init_(std::move(init)) {
    for (auto& k : kernels) kernels_.push_back(std::make_unique<ScriptedKernel>(std::move(k)));
  }
  std::string name() const override { return "scripted"; }
  std::string description() const override { return "explicit per-warp instruction lists"; }
  void init(FunctionalMemory& mem, WorkloadScale, uint64_t) override {
    if (init_) init_(mem);
  }
  uint32_t kernels() const override { return static_cast<uint32_t>(kernels_.size()); }
  const Kernel& kernel(uint32_t i) const override { return *kernels_.at(i); }

 private:
  std::function<void(FunctionalMemory&)> init_;
  std::vector<std::unique_ptr<ScriptedKernel>> kernels_;
};

}  // namespace l1d::sim::scripted
