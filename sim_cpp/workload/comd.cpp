// comd (CoMD, the ExMatEx molecular-dynamics proxy app): Lennard-Jones forces with link cells.
// Atoms sit in nx x ny x nz boxes of side r_cut (periodic), 4 per box on a jittered FCC lattice
// of constant r_cut (CoMD's lattice is FCC, 4 atoms per unit cell; with its Cu defaults, a box of
// side >= r_cut holds about 5 atoms). Positions are CoMD-CUDA's: one array per coordinate (r.x,
// r.y, r.z), each box owning MAXATOMS = 64 slots (atom a of box b at b * 64 + a), so each
// neighbour box costs a warp three lines of its own; a packed AoS float3 layout (12 B per atom,
// 2.7 boxes a line) missed 16.8 % at full scale where the dissertation's CoMD misses 64 % at 8
// warps per scheduler (docs/workloads.md, paper vs ours).
// One thread per atom:
//   for each of the 27 neighbour boxes: for each atom j of that box:
//     d = r[i] - r[j] (minimum image); r2 = d.d; if (j != i && r2 < rc^2)
//       f[i] += 24 eps (2 (s^2/r2)^6 - (s^2/r2)^3) / r2 * d;  e[i] += 2 eps ((s^2/r2)^6 - (s^2/r2)^3) - shift
//   store f[i], e[i]
// A warp holds eight boxes whose neighbour lists differ; each neighbour box is read by 27 boxes:
// cache-sensitive. The neighbour boxes come from the box table (nAtoms, boxes): irregular.
// Grid: CoMD-CUDA's thread-per-atom force kernel (LJ_Force_thread_atom) launches
// ceil(atoms / THREAD_ATOM_CTA) CTAs, one thread per atom (its CTA is 128 threads; ours are 256,
// so that gtx480's 8-CTA limit does not cap an SM at 32 of its 48 warps). Issue 21: small has
// 16 x 18 x 20 boxes = 23040 atoms = 90 CTAs of 8 warps, the 6 per SM that fill gtx480's 15 SMs
// (7^3 boxes of 8 atoms launched 11); the per-thread loop is 27 boxes x 4 atoms (was x 8). Test
// stays one CTA (4^3 boxes, 256 atoms); full is 24 x 24 x 20 boxes, 180 CTAs.
// Published grid (issue 21): CoMD's default input (mycommand.c: nx = ny = nz = 20 FCC unit cells,
// 4 atoms each) is 32000 atoms, which CoMD-CUDA's thread-per-atom kernel runs as ceil(32000 /
// 128) = 250 CTAs of 128 threads, 1000 warps = 125 of our CTAs of 256 (declared): it fills
// gtx480 (90 CTAs of 8 warps), but not qv100 (640) or a100 (864), where 1000 warps are 20 % and
// 14 % of the warp slots. So on a device whose fill exceeds 125 CTAs, small runs CoMD's own 32000
// atoms (20 x 20 x 20 boxes of 4, 125 CTAs); gtx480 keeps 16 x 18 x 20 boxes (90 CTAs).
#include <array>
#include <cmath>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kPerBox = 4;
constexpr uint32_t kMaxAtoms = 64;  // CoMD-CUDA's MAXATOMS: slots per link cell in each array
constexpr float kSigma = 1.0f, kEps = 1.0f, kCut = 2.5f;
// CoMD's default 20^3 FCC unit cells (32000 atoms) in our CTAs of 256 threads, one per atom.
constexpr uint32_t kCoMDDefaultAtoms = 20 * 20 * 20 * 4;
constexpr uint32_t kPublishedCtas = (kCoMDDefaultAtoms + kCtaThreads - 1) / kCtaThreads;

class Comd final : public GeneratedWorkload {
 public:
  std::string name() const override { return "comd"; }
  std::string description() const override { return "CoMD Lennard-Jones force kernel with link cells"; }
  WorkloadInfo info() const override {
    return {true, true, "ExMatEx CoMD",
            dims_[0] ? std::to_string(uint64_t{dims_[0]} * dims_[1] * dims_[2] * kPerBox) + " atoms in " +
                           std::to_string(dims_[0]) + " x " + std::to_string(dims_[1]) + " x " +
                           std::to_string(dims_[2]) + " boxes"
                     : "",
            "", kPublishedCtas,
            "CoMD's default input (nx = ny = nz = 20 FCC cells, 32000 atoms): CoMD-CUDA's LJ_Force_thread_atom "
            "on ceil(32000 / THREAD_ATOM_CTA 128) = 250 CTAs of 128 threads = 125 of our CTAs of 256"};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Dims nb = by_scale(scale, Dims{4, 4, 4}, Dims{16, 18, 20}, Dims{24, 24, 20});
    if (scale == WorkloadScale::kSmall && fill_ctas(8) > kPublishedCtas) nb = Dims{20, 20, 20};  // CoMD's 32000 atoms
    const uint32_t boxes = nb[0] * nb[1] * nb[2], atoms = boxes * kPerBox;
    Rng rng(mix_seed(seed, "comd"));
    std::vector<float> r(uint64_t{atoms} * 3);
    for (uint64_t b = 0; b < boxes; ++b)
      for (uint64_t a = 0; a < kPerBox; ++a)
        for (uint64_t c = 0; c < 3; ++c) {
          const uint64_t cell = c == 0 ? b % nb[0] : c == 1 ? b / nb[0] % nb[1] : b / nb[0] / nb[1];
          // FCC: atom 0 at the cell corner, atom a = 1..3 half a cell off on every axis but a - 1.
          const float lattice = ((a != 0 && c != a - 1) ? 0.75f : 0.25f) * kCut;
          r[(b * kPerBox + a) * 3 + c] = static_cast<float>(cell) * kCut + lattice + (rng.unitf() - 0.5f) * 0.2f;
        }
    dims_ = nb, r_ = share(r);
    std::vector<int32_t> nbr(uint64_t{boxes} * 27);  // the 27 neighbour boxes of each box
    for (uint32_t b = 0; b < boxes; ++b)
      for (uint32_t k = 0; k < 27; ++k) {
        const auto wrap = [&](uint32_t v, uint32_t d, uint32_t n) { return (v + n + d - 1) % n; };
        nbr[uint64_t{b} * 27 + k] = static_cast<int32_t>(
            wrap(b % nb[0], k % 3, nb[0]) +
            nb[0] * (wrap(b / nb[0] % nb[1], k / 3 % 3, nb[1]) + nb[1] * wrap(b / nb[0] / nb[1], k / 9, nb[2])));
      }
    std::vector<float> f, e;
    forces<float>(r, nbr, nb, f, e);
    auto rs = r_, fs = share(f), es = share(e);
    auto nbrs = share(nbr);
    // r.x, r.y, r.z: a box's atoms in the first kPerBox of its kMaxAtoms slots, the rest 0.
    Addr r_base[3];
    for (uint64_t c = 0; c < 3; ++c) {
      std::vector<float> rc(uint64_t{boxes} * kMaxAtoms, 0.0f);
      for (uint64_t i = 0; i < atoms; ++i) rc[slot(i)] = r[i * 3 + c];
      r_base[c] = layout_.array(mem, std::string("r.") + "xyz"[c], rc);
    }
    const Addr n_base = layout_.array(mem, "nAtoms", std::vector<int32_t>(boxes, kPerBox));
    const Addr b_base = layout_.array(mem, "nbrBoxes", nbr);
    const Addr f_base = layout_.array(mem, "f", std::vector<float>(f.size(), 0.0f));
    const Addr e_base = layout_.array(mem, "e", std::vector<float>(e.size(), 0.0f));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_ri = k.load(4), ld_nb = k.load(4);
    const StaticOp ld_n = k.load(4), ld_rj = k.load(4), dr = k.alu(kLatFp), r2 = k.alu(kLatFma), cmp = k.alu(kLatFp);
    const StaticOp lj = k.alu(kLatFma), loop = k.alu(kLatInt), st = k.store(4), exit = k.exit();
    add_kernel("ljForce", atoms, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(atoms);
      const auto box = [&](uint32_t l) { return w.global_id(l) / kPerBox; };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      for (uint64_t c = 0; c < 3; ++c)
        s.load(ld_ri, m, [&](uint32_t l) { return r_base[c] + 4 * slot(w.global_id(l)); });
      for (uint64_t kk = 0; kk < 27; ++kk) {
        const auto nbox = [&](uint32_t l) { return static_cast<uint64_t>((*nbrs)[box(l) * 27 + kk]); };
        s.load(ld_nb, m, [&](uint32_t l) { return b_base + 4 * (box(l) * 27 + kk); });
        s.load(ld_n, m, [&](uint32_t l) { return n_base + 4 * nbox(l); });
        for (uint64_t j = 0; j < kPerBox; ++j) {
          for (uint64_t c = 0; c < 3; ++c)
            s.load(ld_rj, m, [&](uint32_t l) { return r_base[c] + 4 * (nbox(l) * kMaxAtoms + j); });
          s.alu(dr, m);
          s.alu(r2, m);
          s.alu(cmp, m);
          s.alu(lj, lanes_where(m, [&](uint32_t l) {
                  const uint64_t i = w.global_id(l), o = nbox(l) * kPerBox + j;
                  return o != i && dist2((*rs), i, o, nb) < kCut * kCut;
                }));
          s.alu(loop, m);
        }
      }
      for (uint64_t c = 0; c < 3; ++c)
        s.store(st, m, [&](uint32_t l) {
          return LaneWrite{f_base + 4 * (w.global_id(l) * 3 + c), bits((*fs)[w.global_id(l) * 3 + c])};
        });
      s.store(st, m, [&](uint32_t l) { return LaneWrite{e_base + 4 * w.global_id(l), bits((*es)[w.global_id(l)])}; });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<int32_t> nbr = c.read<int32_t>("nbrBoxes");
    std::vector<double> f, e;
    forces<double>(*r_, nbr, dims_, f, e);
    c.close("f", f, 1e-3, 1e-3);
    c.close("e", e, 1e-3, 1e-4);
  }

 private:
  using Dims = std::array<uint32_t, 3>;  // boxes along x, y, z
  // Atom i's slot in r.x / r.y / r.z (CoMD-CUDA's iOff = iBox * MAXATOMS + iAtom).
  static uint64_t slot(uint64_t i) { return i / kPerBox * kMaxAtoms + i % kPerBox; }
  // Minimum-image squared distance between atoms a and b.
  template <typename T = float>
  static T dist2(const std::vector<float>& r, uint64_t a, uint64_t b, const Dims& nb, T* d = nullptr) {
    T sum = 0;
    for (uint64_t c = 0; c < 3; ++c) {
      const T len = static_cast<T>(nb[c]) * static_cast<T>(kCut);
      T x = static_cast<T>(r[a * 3 + c]) - static_cast<T>(r[b * 3 + c]);
      x -= len * std::round(x / len);
      if (d) d[c] = x;
      sum += x * x;
    }
    return sum;
  }
  // Forces and energies in precision T, neighbour boxes in the kernel's order.
  template <typename T>
  static void forces(const std::vector<float>& r, const std::vector<int32_t>& nbr, const Dims& nb, std::vector<T>& f,
                     std::vector<T>& e) {
    const uint64_t atoms = r.size() / 3;
    const T s2c = T(kSigma) * kSigma / (T(kCut) * kCut), s6c = s2c * s2c * s2c, shift = 4 * T(kEps) * (s6c * s6c - s6c);
    f.assign(atoms * 3, T(0)), e.assign(atoms, T(0));
    for (uint64_t i = 0; i < atoms; ++i)
      for (uint64_t kk = 0; kk < 27; ++kk)
        for (uint64_t j = 0; j < kPerBox; ++j) {
          const uint64_t o = static_cast<uint64_t>(nbr[i / kPerBox * 27 + kk]) * kPerBox + j;
          T d[3];
          const T rr = dist2<T>(r, i, o, nb, d);
          if (o == i || rr >= T(kCut) * kCut) continue;
          const T s2 = T(kSigma) * kSigma / rr, s6 = s2 * s2 * s2;
          const T fr = 24 * T(kEps) * (2 * s6 * s6 - s6) / rr;
          for (int c = 0; c < 3; ++c) f[i * 3 + static_cast<uint64_t>(c)] += fr * d[c];
          e[i] += T(0.5) * (4 * T(kEps) * (s6 * s6 - s6) - shift);
        }
  }

  Dims dims_{};
  Shared<float> r_;
};

}  // namespace

std::unique_ptr<Workload> make_comd() { return std::make_unique<Comd>(); }

}  // namespace l1d::sim::wl
