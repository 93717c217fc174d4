// vecadd: c[i] = a[i] + b[i] over float arrays, one thread per element. Streaming: every
// byte is touched once, fully coalesced (one 128 B request per warp and array).
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

class VecAdd final : public GeneratedWorkload {
 public:
  std::string name() const override { return "vecadd"; }
  std::string description() const override { return "vector add c = a + b (streaming, fully coalesced)"; }

  WorkloadInfo info() const override {
    return {false, false, "CUDA SDK", a_ ? std::to_string(a_->size()) + " floats per array" : "", ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    const uint64_t n = scale == WorkloadScale::kTest ? 23016 : scale == WorkloadScale::kSmall ? (1u << 20) : (1u << 22);
    Rng rng(mix_seed(seed, "vecadd"));
    auto a = std::make_shared<std::vector<float>>(n);
    auto b = std::make_shared<std::vector<float>>(n);
    for (uint64_t i = 0; i < n; ++i) (*a)[i] = rng.unitf() * 100.0f, (*b)[i] = rng.unitf() * 100.0f;
    a_ = a, b_ = b;
    const Addr a_base = layout_.array(mem, "a", *a);
    const Addr b_base = layout_.array(mem, "b", *b);
    const Addr c_base = layout_.array(mem, "c", std::vector<float>(n, 0.0f));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad);  // i = blockIdx.x * blockDim.x + threadIdx.x
    const StaticOp guard = k.alu(kLatInt);   // if (i < n)
    const StaticOp addr = k.alu(kLatInt);    // byte offset i * 4
    const StaticOp ld_a = k.load(4), ld_b = k.load(4);
    const StaticOp add = k.alu(kLatFp);
    const StaticOp st_c = k.store(4);
    const StaticOp exit = k.exit();

    add_kernel("vecadd", n, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t all = w.mask_below(UINT64_MAX), m = w.mask_below(n);
      s.alu(tid, all);
      s.alu(guard, all);
      s.alu(addr, m);
      s.load(ld_a, m, [&](uint32_t l) { return a_base + 4 * w.global_id(l); });
      s.load(ld_b, m, [&](uint32_t l) { return b_base + 4 * w.global_id(l); });
      s.alu(add, m);
      s.store(st_c, m, [&](uint32_t l) {
        const uint64_t i = w.global_id(l);
        return LaneWrite{c_base + 4 * i, bits((*a)[i] + (*b)[i])};
      });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {  // one float add: exact
    std::vector<float> want(a_->size());
    for (size_t i = 0; i < want.size(); ++i) want[i] = (*a_)[i] + (*b_)[i];
    c.exact("c", want);
  }

 private:
  std::shared_ptr<const std::vector<float>> a_, b_;
};

}  // namespace

std::unique_ptr<Workload> make_vecadd() { return std::make_unique<VecAdd>(); }

}  // namespace l1d::sim::wl
