// streamcluster (SCLUSTER, Rodinia streamcluster's pgain kernel): online facility location; for
// a candidate centre x, every point computes what it would save by switching to x:
//   thread i < num:  x_cost = dist(i, x) * p[i].weight          (coords dimension-major: coalesced)
//                    if (x_cost < p[i].cost) { switch[i] = 1; lower[i*(K+1) + K] += x_cost - p[i].cost }
//                    else lower[i*(K+1) + center_table[p[i].assign]] += p[i].cost - x_cost
// p[] is Rodinia's array of 32-byte Point structs (weight, coord pointer, assign, cost): the
// per-point fields are 32 B apart, and lower[] rows (K+1)*4 B apart. One kernel per candidate;
// between calls the host opens x when the total saving exceeds the facility cost z and moves the
// switching points to it, then copies p[], center_table and a zeroed work area ("<array><call>"
// regions) for the next call, as Rodinia's host code does. The center_table lookup is indirect.
// Grid: one thread per point, as Rodinia's pgain kernel. Issue 21: small has 46080 points = 180
// CTAs of 8 warps per call, two rounds of the 6 per SM that fill gtx480's 15 SMs (4096 points
// launched 16), shortened by the per-thread distance loop (8 dims, was 32) and the calls (2, was
// 10): 90 CTAs of 16 dims x 3 calls left a mean of 15.8 resident warps per scheduler. Test stays
// 512 points (2 CTAs), full 65536 in 64 dims, paper 65536 in Rodinia's 256 dims.
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

struct Point {  // Rodinia's Point on a 64-bit host
  float weight = 1.0f;
  uint32_t pad0 = 0;
  uint64_t coord = 0;
  int64_t assign = 0;
  float cost = 0.0f;
  uint32_t pad1 = 0;
};
static_assert(sizeof(Point) == 32);

struct Call {  // one pgain call's inputs and the kernel's results
  uint32_t x = 0;
  std::vector<Point> p;
  std::vector<int32_t> table;
  std::vector<float> lower;
  std::vector<uint8_t> sw;
};

float dist(const std::vector<float>& coord, uint32_t num, uint32_t dim, uint64_t a, uint64_t b) {
  float r = 0.0f;
  for (uint64_t d = 0; d < dim; ++d) {
    const float t = coord[d * num + a] - coord[d * num + b];
    r = std::fma(t, t, r);
  }
  return r;
}

// The kernel's results for call c (c.p, c.table, c.x set).
void pgain(Call& c, const std::vector<float>& coord, uint32_t num, uint32_t dim, uint32_t k) {
  c.lower.assign(uint64_t{num} * (k + 1), 0.0f);
  c.sw.assign(num, 0);
  for (uint64_t i = 0; i < num; ++i) {
    const float x_cost = dist(coord, num, dim, i, c.x) * c.p[i].weight;
    if (x_cost < c.p[i].cost) {
      c.sw[i] = 1;
      c.lower[i * (k + 1) + k] += x_cost - c.p[i].cost;
    } else {
      c.lower[i * (k + 1) + static_cast<uint64_t>(c.table[static_cast<uint64_t>(c.p[i].assign)])] +=
          c.p[i].cost - x_cost;
    }
  }
}

class Streamcluster final : public GeneratedWorkload {
 public:
  std::string name() const override { return "streamcluster"; }
  std::string description() const override {
    return "Rodinia streamcluster pgain: cost of switching points to a candidate";
  }
  WorkloadInfo info() const override {
    return {true, true, "Rodinia (SCLUSTER)",
            num_ ? std::to_string(num_) + " points x " + std::to_string(dim_) + " dims, " +
                       std::to_string(calls_.size()) + " pgain calls"
                 : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    // Paper: Rodinia's run script, `sc_gpu 10 20 256 65536 65536 1000 none output.txt 1`: 256 dims.
    // On a larger device small launches one wave of its fill (issue 21: qv100 640 CTAs, a100 864)
    // in one pgain call, so that a run stays near gtx480's two calls of 180 CTAs (46080 points).
    const bool grown = scale == WorkloadScale::kSmall && fill_ctas(8) > 90;
    const uint32_t num = by_scale(scale, 512u, grown ? fill_ctas(8) * kCtaThreads : 46080u, 65536u);
    const uint32_t dim = by_scale(scale, 8u, 8u, 64u, 256u);
    const uint32_t calls = by_scale(scale, 3u, grown ? 1u : 2u, 20u), k = 16;  // k: room for k centres in lower[] rows
    Rng rng(mix_seed(seed, "streamcluster"));
    auto coord = share(uniform_floats(rng, uint64_t{num} * dim));
    num_ = num, dim_ = dim, k_ = k, coord_ = coord;
    const Addr coord_base = layout_.array(mem, "coord", *coord);
    // Start: one centre (point 0) serving everybody.
    std::vector<Point> p(num);
    for (uint64_t i = 0; i < num; ++i) p[i].assign = 0, p[i].cost = dist(*coord, num, dim, i, 0);
    std::vector<int32_t> table(num, 0);
    uint32_t centres = 1;
    const float z = static_cast<float>(dim) / 8.0f * static_cast<float>(num) / 64.0f;  // facility cost
    calls_.clear();
    for (uint32_t call = 0; call < calls; ++call) {
      Call c{static_cast<uint32_t>(rng.below(num)), p, table, {}, {}};
      pgain(c, *coord, num, dim, k);
      float gain = 0.0f;
      for (uint64_t i = 0; i < num; ++i) gain -= c.sw[i] ? c.lower[i * (k + 1) + k] : 0.0f;
      if (gain > z && centres < k) {  // open x: its switching points move to it
        table[c.x] = static_cast<int32_t>(centres++);
        for (uint64_t i = 0; i < num; ++i)
          if (c.sw[i]) p[i].assign = c.x, p[i].cost = dist(*coord, num, dim, i, c.x) * p[i].weight;
      }
      calls_.push_back(std::make_shared<const Call>(std::move(c)));
    }
    KernelCode code(kFirstKernelPc);
    const StaticOp tid = code.alu(kLatIntMad), guard = code.alu(kLatInt), ld_a = code.load(4), ld_b = code.load(4);
    const StaticOp sub = code.alu(kLatFp), fma = code.alu(kLatFma), loop = code.alu(kLatInt), ld_w = code.load(4);
    const StaticOp mul = code.alu(kLatFp), ld_cost = code.load(4), cmp = code.alu(kLatFp), st_sw = code.store(1);
    const StaticOp ld_l = code.load(4), add = code.alu(kLatFp), st_l = code.store(4), ld_as = code.load(8);
    const StaticOp ld_t = code.load(4), idx = code.alu(kLatIntMad), ld_l2 = code.load(4), add2 = code.alu(kLatFp);
    const StaticOp st_l2 = code.store(4), exit = code.exit();
    for (uint32_t call = 0; call < calls; ++call) {
      const auto c = calls_[call];
      const std::string n = std::to_string(call);
      const Addr p_base = layout_.array(mem, "points" + n, c->p),
                 t_base = layout_.array(mem, "center_table" + n, c->table);
      const Addr l_base = layout_.array(mem, "work_mem" + n, std::vector<float>(c->lower.size(), 0.0f));
      const Addr sw_base = layout_.array(mem, "switch" + n, std::vector<uint8_t>(num, 0));
      add_kernel("pgain_kernel", num, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(num);
        const auto i = [&](uint32_t l) { return w.global_id(l); };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        for (uint64_t d = 0; d < dim; ++d) {
          s.load(ld_a, m, [&](uint32_t l) { return coord_base + 4 * (d * num + i(l)); });
          s.load(ld_b, m, [&](uint32_t) { return coord_base + 4 * (d * num + c->x); });
          s.alu(sub, m);
          s.alu(fma, m);
          s.alu(loop, m);
        }
        s.load(ld_w, m, [&](uint32_t l) { return p_base + 32 * i(l); });
        s.alu(mul, m);
        s.load(ld_cost, m, [&](uint32_t l) { return p_base + 32 * i(l) + 24; });
        s.alu(cmp, m);
        const uint32_t sm = lanes_where(m, [&](uint32_t l) { return c->sw[i(l)] != 0; }), om = m & ~sm;
        const auto slot = [&](uint32_t l) {
          return i(l) * (k + 1) +
                 (c->sw[i(l)] ? k : static_cast<uint64_t>(c->table[static_cast<uint64_t>(c->p[i(l)].assign)]));
        };
        const auto write = [&](uint32_t l) { return LaneWrite{l_base + 4 * slot(l), bits(c->lower[slot(l)])}; };
        s.store(st_sw, sm, [&](uint32_t l) { return LaneWrite{sw_base + i(l), 1}; });
        s.load(ld_l, sm, [&](uint32_t l) { return l_base + 4 * slot(l); });
        s.alu(add, sm);
        s.store(st_l, sm, write);
        s.load(ld_as, om, [&](uint32_t l) { return p_base + 32 * i(l) + 16; });
        s.load(ld_t, om, [&](uint32_t l) { return t_base + 4 * static_cast<uint64_t>(c->p[i(l)].assign); });
        s.alu(idx, om);
        s.load(ld_l2, om, [&](uint32_t l) { return l_base + 4 * slot(l); });
        s.alu(add2, om);
        s.store(st_l2, om, write);
        s.exit(exit);
      });
    }
  }

 protected:
  // Every call's work area and switch flags against pgain recomputed from that call's inputs.
  void check(ResultCheck& c) const override {
    for (size_t call = 0; call < calls_.size() && c.ok(); ++call) {
      Call ref{calls_[call]->x, calls_[call]->p, calls_[call]->table, {}, {}};
      pgain(ref, *coord_, num_, dim_, k_);
      c.exact("work_mem" + std::to_string(call), ref.lower);
      c.exact("switch" + std::to_string(call), ref.sw);
    }
  }

 private:
  uint32_t num_ = 0, dim_ = 0, k_ = 0;
  Shared<float> coord_;
  std::vector<std::shared_ptr<const Call>> calls_;
};

}  // namespace

std::unique_ptr<Workload> make_streamcluster() { return std::make_unique<Streamcluster>(); }

}  // namespace l1d::sim::wl
