// cfd (CFD, Rodinia euler3d): finite-volume Euler solver on an unstructured mesh of cells with
// 4 faces each (Rodinia's NNB), 5 variables per cell (density, momentum x/y/z, energy), arrays
// stored variable-major (v[i + k * nelr]), as Rodinia's. Per iteration: the copy of the
// variables to old_variables (a device-to-device cudaMemcpy in Rodinia: not an SM kernel, so
// each iteration's copy is its own region, "old_variables<it>", written at init), then
//   cuda_compute_step_factor, thread i: step[i] = 0.5 / (sqrt(area[i]) * (|velocity| + speed of sound))
//   3 Runge-Kutta stages j of
//   cuda_compute_flux, thread i: own variables, velocity, pressure, flux contributions; for each
//     face f: nb = neighbours[i + f * nelr], normal = normals[i + (f + d * 4) * nelr] (d = x, y, z);
//     nb >= 0: load nb's 5 variables (the gather), add the scalar dissipation and the central flux;
//     nb == -1 (wing): add normal * pressure to the momentum; nb == -2: the far-field flux
//     (Rodinia's constant-memory ff_variable: operands, not loads); fluxes[i + k * nelr] = sums
//   cuda_time_step, thread i: v[i + k * nelr] = old[i + k * nelr] + step[i] / (3 + 1 - j) * fluxes[i + k * nelr]
// The mesh is generated: a gx x gy grid of cells (faces -x, +x, -y, +y; the bottom edge a wing,
// the other edges far field) with random face areas and tilts (each face's normal opposite for
// its two cells), numbered tile by tile (8 x 8 cells) in a random order inside each tile, as a
// mesh numbering with locality but no structure; the initial state is the far field (Mach 1.2,
// 3 degrees) with 5 % noise. Few iterations (Rodinia runs 2000). The gathers go through the
// neighbour array: irregular.
// Grid: Rodinia launches one thread per cell, nelr / block_length CTAs per kernel (its
// fvcorr.domn.097K mesh: 97 K cells, hundreds of CTAs). Issue 21: small is 160 x 144 = 23040
// cells = 90 CTAs of 8 warps per kernel, the 6 per SM that fill gtx480's 15 SMs (128 x 64 cells
// launched 32), shortened to one iteration (7 launches, was 3 iterations = 21): about the same
// warp instructions. Test stays 32 x 32 cells (4 CTAs a launch), full 384 x 256, 3 iterations.
#include <cmath>
#include <numeric>

#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kNnb = 4, kNvar = 5, kRk = 3, kTile = 16;
constexpr int32_t kWing = -1, kFarField = -2;
constexpr double kGamma = 1.4, kSmoothing = 0.2;
// Launches of cuda_compute_step_factor, cuda_compute_flux and cuda_time_step: all of them, or at
// small on a preset larger than gtx480 the first two (Cfd::init).
constexpr uint32_t kAllLaunches = UINT32_MAX, kLaunchesLarge = 2;

struct Mesh {
  uint32_t nelr = 0;
  std::vector<int32_t> nb;     // nb[i + f * nelr]
  std::vector<float> normals;  // normals[i + (f + d * kNnb) * nelr]
  std::vector<float> areas;
};

// Derived quantities of one cell's variables (Rodinia's compute_velocity / pressure / speed of
// sound / flux contribution).
template <typename T>
struct Flow {
  T rho, m[3], e, v[3], speed_sqd, p, c;
  T fc[3][3], fce[3];  // fc[k][d]: momentum k's flux contribution along d; fce: energy's
  Flow(T rho_, T mx, T my, T mz, T e_) : rho(rho_), m{mx, my, mz}, e(e_) {
    for (int d = 0; d < 3; ++d) v[d] = m[d] / rho;
    speed_sqd = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    p = T(kGamma - 1) * (e - T(0.5) * rho * speed_sqd);
    c = std::sqrt(T(kGamma) * p / rho);
    for (int k = 0; k < 3; ++k) {
      for (int d = 0; d < 3; ++d) fc[k][d] = m[k] * v[d] + (k == d ? p : T(0));
    }
    for (int d = 0; d < 3; ++d) fce[d] = v[d] * (e + p);
  }
};

template <typename T>
Flow<T> far_field() {
  const double aoa = 3.0 * M_PI / 180.0, mach = 1.2, rho = 1.4, p = 1.0, c = std::sqrt(kGamma * p / rho);
  const double vx = std::cos(aoa) * mach * c, vy = std::sin(aoa) * mach * c;
  const double e = 0.5 * rho * (vx * vx + vy * vy) + p / (kGamma - 1);
  return Flow<T>(T(rho), T(rho * vx), T(rho * vy), T(0), T(e));
}

template <typename T>
Flow<T> flow(const std::vector<T>& var, uint64_t i, uint64_t nelr) {
  return Flow<T>(var[i], var[i + nelr], var[i + 2 * nelr], var[i + 3 * nelr], var[i + 4 * nelr]);
}

template <typename T>
std::vector<T> step_factors(const Mesh& mesh, const std::vector<T>& var) {
  std::vector<T> step(mesh.nelr);
  for (uint64_t i = 0; i < mesh.nelr; ++i) {
    const Flow<T> f = flow(var, i, mesh.nelr);
    step[i] = T(0.5) / (std::sqrt(T(mesh.areas[i])) * (std::sqrt(f.speed_sqd) + f.c));
  }
  return step;
}

template <typename T>
std::vector<T> fluxes(const Mesh& mesh, const std::vector<T>& var) {
  const uint64_t n = mesh.nelr;
  const Flow<T> ff = far_field<T>();
  std::vector<T> flux(kNvar * n);
  for (uint64_t i = 0; i < n; ++i) {
    const Flow<T> a = flow(var, i, n);
    const T speed = std::sqrt(a.speed_sqd);
    T fr = 0, fm[3] = {0, 0, 0}, fe = 0;
    for (uint64_t f = 0; f < kNnb; ++f) {
      T nrm[3];
      for (uint64_t d = 0; d < 3; ++d) nrm[d] = mesh.normals[i + (f + d * kNnb) * n];
      const T len = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
      const int32_t nb = mesh.nb[i + f * n];
      const Flow<T> o = nb >= 0 ? flow(var, static_cast<uint64_t>(nb), n) : ff;
      if (nb >= 0) {  // scalar dissipation
        const T factor = -len * T(kSmoothing) * T(0.5) * (speed + std::sqrt(o.speed_sqd) + a.c + o.c);
        fr += factor * (a.rho - o.rho);
        fe += factor * (a.e - o.e);
        for (int k = 0; k < 3; ++k) fm[k] += factor * (a.m[k] - o.m[k]);
      }
      if (nb == kWing) {
        for (int k = 0; k < 3; ++k) fm[k] += nrm[k] * a.p;
        continue;
      }
      for (int d = 0; d < 3; ++d) {  // the central flux (neighbour or far field)
        const T factor = T(0.5) * nrm[d];
        fr += factor * (o.m[d] + a.m[d]);
        fe += factor * (o.fce[d] + a.fce[d]);
        for (int k = 0; k < 3; ++k) fm[k] += factor * (o.fc[k][d] + a.fc[k][d]);
      }
    }
    flux[i] = fr, flux[i + n] = fm[0], flux[i + 2 * n] = fm[1], flux[i + 3 * n] = fm[2], flux[i + 4 * n] = fe;
  }
  return flux;
}

template <typename T>
std::vector<T> time_step(uint32_t j, const std::vector<T>& old, const std::vector<T>& step,
                         const std::vector<T>& flux) {
  const uint64_t n = step.size();
  std::vector<T> var(old.size());
  for (uint64_t i = 0; i < n; ++i) {
    const T factor = step[i] / T(kRk + 1 - j);
    for (uint64_t k = 0; k < kNvar; ++k) var[i + k * n] = old[i + k * n] + factor * flux[i + k * n];
  }
  return var;
}

// The mesh: see the header comment.
Mesh make_mesh(uint32_t gx, uint32_t gy, Rng& rng) {
  Mesh m;
  const uint32_t n = gx * gy, tiles_x = gx / kTile;
  m.nelr = n;
  std::vector<uint32_t> id(n);  // grid cell (x, y) -> cell number
  for (uint32_t t = 0; t < n / (kTile * kTile); ++t) {
    std::vector<uint32_t> order(kTile * kTile);
    std::iota(order.begin(), order.end(), t * kTile * kTile);
    for (uint32_t k = kTile * kTile - 1; k > 0; --k) std::swap(order[k], order[rng.below(uint64_t{k} + 1)]);
    const uint32_t tx = t % tiles_x, ty = t / tiles_x;
    for (uint32_t k = 0; k < kTile * kTile; ++k) id[(ty * kTile + k / kTile) * gx + tx * kTile + k % kTile] = order[k];
  }
  m.nb.assign(kNnb * n, kFarField);
  m.normals.assign(3 * kNnb * n, 0.0f);
  m.areas = uniform_floats(rng, n, 0.9f, 1.1f);
  const auto set_face = [&](uint32_t cell, uint32_t f, int32_t nb, float nx, float ny, float nz) {
    m.nb[cell + f * n] = nb;
    const float v[3] = {nx, ny, nz};
    for (uint32_t d = 0; d < 3; ++d) m.normals[cell + (f + d * kNnb) * n] = v[d];
  };
  for (uint32_t y = 0; y < gy; ++y) {
    for (uint32_t x = 0; x < gx; ++x) {
      const uint32_t c = id[y * gx + x];
      // Faces +x and +y: shared with the next cell (or the boundary); -x and -y at the borders.
      const float ax = 0.8f + 0.4f * rng.unitf(), tx = 0.1f * (rng.unitf() - 0.5f);
      const float ay = 0.8f + 0.4f * rng.unitf(), ty = 0.1f * (rng.unitf() - 0.5f);
      if (x + 1 < gx) {
        const uint32_t r = id[y * gx + x + 1];
        set_face(c, 1, static_cast<int32_t>(r), ax, 0.0f, tx);
        set_face(r, 0, static_cast<int32_t>(c), -ax, 0.0f, -tx);
      } else {
        set_face(c, 1, kFarField, ax, 0.0f, tx);
      }
      if (x == 0) set_face(c, 0, kFarField, -ax, 0.0f, -tx);
      if (y + 1 < gy) {
        const uint32_t u = id[(y + 1) * gx + x];
        set_face(c, 3, static_cast<int32_t>(u), 0.0f, ay, ty);
        set_face(u, 2, static_cast<int32_t>(c), 0.0f, -ay, -ty);
      } else {
        set_face(c, 3, kFarField, 0.0f, ay, ty);
      }
      if (y == 0) set_face(c, 2, kWing, 0.0f, -ay, -ty);
    }
  }
  return m;
}

class Cfd final : public GeneratedWorkload {
 public:
  std::string name() const override { return "cfd"; }
  std::string description() const override { return "Rodinia CFD euler3d: step factor, flux and RK time step kernels"; }
  WorkloadInfo info() const override {
    return {true, true, "Rodinia (CFD)",
            mesh_ ? std::to_string(mesh_->nelr) + " cells x 4 faces, " +
                        (launches_ == kAllLaunches
                             ? std::to_string(iters_) + " iterations of 3 RK stages"
                             : "the first " + std::to_string(launches_) + " launches of an iteration")
                  : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    uint32_t gx = by_scale(scale, 32u, 160u, 384u), gy = by_scale(scale, 32u, 144u, 256u);
    iters_ = by_scale(scale, 1u, 1u, 3u);
    // Issue 21 on a preset with more than gtx480's 90 CTA slots (qv100 640, a100 864): small's mesh
    // fills it (fill x 256 cells: qv100 512 x 320, a100 512 x 432) and its one iteration stops after
    // the first kLaunchesLarge launches (cuda_compute_step_factor and the first cuda_compute_flux,
    // the gathers): a thread's work, its cell's 4 faces, has no loop to cut, so the run is cut by
    // launches.
    launches_ = kAllLaunches;
    if (scale == WorkloadScale::kSmall && fill_ctas(8) > 90) {
      gx = 512;
      gy = (fill_ctas(8) * kCtaThreads / gx + kTile - 1) / kTile * kTile;
      launches_ = kLaunchesLarge;
    }
    Rng rng(mix_seed(seed, "cfd"));
    auto mesh = std::make_shared<const Mesh>(make_mesh(gx, gy, rng));
    const uint64_t n = mesh->nelr;
    const Flow<float> ff = far_field<float>();
    const float ffv[kNvar] = {ff.rho, ff.m[0], ff.m[1], ff.m[2], ff.e};
    std::vector<float> var(kNvar * n);
    for (uint64_t k = 0; k < kNvar; ++k) {
      for (uint64_t i = 0; i < n; ++i) var[i + k * n] = ffv[k] * (0.95f + 0.1f * rng.unitf());
    }
    mesh_ = mesh, var0_ = share(var);

    const Addr nb_base = layout_.array(mem, "neighbours", mesh->nb);
    const Addr nrm_base = layout_.array(mem, "normals", mesh->normals);
    const Addr area_base = layout_.array(mem, "areas", mesh->areas);
    const Addr var_base = layout_.array(mem, "variables", var);
    const Addr step_base = layout_.array(mem, "step_factors", std::vector<float>(n, 0.0f));
    const Addr flux_base = layout_.array(mem, "fluxes", std::vector<float>(kNvar * n, 0.0f));

    KernelCode k1(kFirstKernelPc);
    const StaticOp s_tid = k1.alu(kLatIntMad), s_ld = k1.load(4), s_div = k1.alu(kLatFp), s_dot = k1.alu(kLatFma);
    const StaticOp s_p = k1.alu(kLatFma), s_c = k1.alu(kLatFp), s_lda = k1.load(4), s_sqrt = k1.alu(kLatFp);
    const StaticOp s_st = k1.store(4), s_exit = k1.exit();
    KernelCode k2 = k1.next_kernel();
    const StaticOp f_tid = k2.alu(kLatIntMad), f_ld = k2.load(4), f_vel = k2.alu(kLatFp), f_dot = k2.alu(kLatFma);
    const StaticOp f_p = k2.alu(kLatFma), f_c = k2.alu(kLatFp), f_fc = k2.alu(kLatFma), f_ldnb = k2.load(4);
    const StaticOp f_ldn = k2.load(4), f_len = k2.alu(kLatFma), f_test = k2.alu(kLatInt), f_ldv = k2.load(4);
    const StaticOp f_nvel = k2.alu(kLatFp), f_np = k2.alu(kLatFma), f_nc = k2.alu(kLatFp), f_diss = k2.alu(kLatFma);
    const StaticOp f_cen = k2.alu(kLatFma), f_wing = k2.alu(kLatFma), f_ff = k2.alu(kLatFma), f_loop = k2.alu(kLatInt);
    const StaticOp f_st = k2.store(4), f_exit = k2.exit();
    KernelCode k3 = k2.next_kernel();
    const StaticOp t_tid = k3.alu(kLatIntMad), t_lds = k3.load(4), t_div = k3.alu(kLatFp), t_ldo = k3.load(4);
    const StaticOp t_ldf = k3.load(4), t_fma = k3.alu(kLatFma), t_st = k3.store(4), t_exit = k3.exit();

    // Host run (float, the kernels' arithmetic), kernel by kernel.
    for (uint32_t it = 0; it < iters_ && kernels() < launches_; ++it) {
      auto old = share(var);
      const Addr old_base = layout_.array(mem, "old_variables" + std::to_string(it), var);
      auto step = share(step_factors(*mesh, var));
      add_kernel("cuda_compute_step_factor", n, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(n);
        s.alu(s_tid, w.mask_below(UINT64_MAX));
        for (uint64_t k = 0; k < kNvar; ++k)
          s.load(s_ld, m, [&](uint32_t l) { return var_base + 4 * (w.global_id(l) + k * n); });
        for (const StaticOp& op : {s_div, s_dot, s_p, s_c}) s.alu(op, m);
        s.load(s_lda, m, [&](uint32_t l) { return area_base + 4 * w.global_id(l); });
        s.alu(s_sqrt, m);
        s.store(s_st, m, [&](uint32_t l) {
          return LaneWrite{step_base + 4 * w.global_id(l), bits((*step)[w.global_id(l)])};
        });
        s.exit(s_exit);
      });
      for (uint32_t j = 0; j < kRk && kernels() < launches_; ++j) {
        auto flux = share(fluxes(*mesh, var));
        add_kernel("cuda_compute_flux", n, [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(n);
          const auto i = [&](uint32_t l) { return w.global_id(l); };
          s.alu(f_tid, w.mask_below(UINT64_MAX));
          for (uint64_t k = 0; k < kNvar; ++k)
            s.load(f_ld, m, [&](uint32_t l) { return var_base + 4 * (i(l) + k * n); });
          for (const StaticOp& op : {f_vel, f_dot, f_p, f_c, f_fc}) s.alu(op, m);
          for (uint64_t f = 0; f < kNnb; ++f) {
            const auto nb = [&](uint32_t l) { return mesh->nb[i(l) + f * n]; };
            s.load(f_ldnb, m, [&](uint32_t l) { return nb_base + 4 * (i(l) + f * n); });
            for (uint64_t d = 0; d < 3; ++d)
              s.load(f_ldn, m, [&](uint32_t l) { return nrm_base + 4 * (i(l) + (f + d * kNnb) * n); });
            s.alu(f_len, m);
            s.alu(f_test, m);
            const uint32_t inner = lanes_where(m, [&](uint32_t l) { return nb(l) >= 0; });
            const uint32_t wing = lanes_where(m, [&](uint32_t l) { return nb(l) == kWing; });
            for (uint64_t k = 0; k < kNvar; ++k) {
              s.load(f_ldv, inner, [&](uint32_t l) { return var_base + 4 * (static_cast<uint64_t>(nb(l)) + k * n); });
            }
            for (const StaticOp& op : {f_nvel, f_np, f_nc, f_diss, f_cen}) s.alu(op, inner);
            s.alu(f_wing, wing);
            s.alu(f_ff, m & ~inner & ~wing);
            s.alu(f_loop, m);
          }
          for (uint64_t k = 0; k < kNvar; ++k) {
            s.store(f_st, m, [&](uint32_t l) {
              return LaneWrite{flux_base + 4 * (i(l) + k * n), bits((*flux)[i(l) + k * n])};
            });
          }
          s.exit(f_exit);
        });
        if (kernels() >= launches_) break;
        var = time_step(j, *old, *step, *flux);
        auto next = share(var);
        add_kernel("cuda_time_step", n, [=](WarpStream& s, const WarpCoords& w) {
          const uint32_t m = w.mask_below(n);
          const auto i = [&](uint32_t l) { return w.global_id(l); };
          s.alu(t_tid, w.mask_below(UINT64_MAX));
          s.load(t_lds, m, [&](uint32_t l) { return step_base + 4 * i(l); });
          s.alu(t_div, m);
          for (uint64_t k = 0; k < kNvar; ++k) {
            s.load(t_ldo, m, [&](uint32_t l) { return old_base + 4 * (i(l) + k * n); });
            s.load(t_ldf, m, [&](uint32_t l) { return flux_base + 4 * (i(l) + k * n); });
            s.alu(t_fma, m);
            s.store(t_st, m, [&](uint32_t l) {
              return LaneWrite{var_base + 4 * (i(l) + k * n), bits((*next)[i(l) + k * n])};
            });
          }
          s.exit(t_exit);
        });
      }
    }
  }

 protected:
  // The iterations again in double: the last step factors, fluxes and the final variables.
  void check(ResultCheck& c) const override {
    std::vector<double> var(var0_->begin(), var0_->end()), step, flux;
    uint32_t launched = 0;  // init's launches, in its order
    for (uint32_t it = 0; it < iters_ && launched < launches_; ++it) {
      const std::vector<double> old = var;
      step = step_factors(*mesh_, var);
      ++launched;
      for (uint32_t j = 0; j < kRk && launched < launches_; ++j) {
        flux = fluxes(*mesh_, var);
        if (++launched >= launches_) break;
        var = time_step(j, old, step, flux);
        ++launched;
      }
    }
    c.close("step_factors", step, 1e-4, 1e-6);
    c.close("fluxes", flux, 1e-3, 1e-4);
    c.close("variables", var, 1e-4, 1e-5);
  }

 private:
  std::shared_ptr<const Mesh> mesh_;
  Shared<float> var0_;
  uint32_t iters_ = 0;
  uint32_t launches_ = kAllLaunches;  // launches made (the first launches_ of the iterations)
};

}  // namespace

std::unique_ptr<Workload> make_cfd() { return std::make_unique<Cfd>(); }

}  // namespace l1d::sim::wl
