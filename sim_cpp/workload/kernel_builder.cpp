#include "sim_cpp/workload/kernel_builder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <initializer_list>
#include <numbers>
#include <stdexcept>

#include "sim_cpp/workload/result_check.h"

namespace l1d::sim::wl {

double Rng::normal() {
  const double u1 = 1.0 - unit();  // (0, 1]
  const double u2 = unit();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

namespace {

// cos(2 pi u) for u in [0, 1), within 2e-15 of the exact value (measured: 6.7e-16 over 4 M
// draws): u's quadrant q is split off exactly (u - q / 4 is a multiple of 2^-53, |u - q / 4| <= 1/8
// but for a rounding of 4u + 0.5), and the rest, |t| <= pi / 4, goes through the Taylor
// polynomials of cos and sin to t^16 and t^17 (remainders below 1e-17).
double cos_2pi(double u) {
  const int q = static_cast<int>(4.0 * u + 0.5);
  const double t = 2.0 * std::numbers::pi * (u - 0.25 * static_cast<double>(q)), t2 = t * t;
  double c = 1.0 / 20922789888000.0, s = 1.0 / 355687428096000.0;  // 1/16!, 1/17!
  for (const double k : {-1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0, 1.0 / 40320.0, -1.0 / 720.0,
                         1.0 / 24.0, -1.0 / 2.0, 1.0}) {
    c = c * t2 + k;  // 1/14!, ..., 1/2!, 1
  }
  for (const double k : {-1.0 / 1307674368000.0, 1.0 / 6227020800.0, -1.0 / 39916800.0, 1.0 / 362880.0,
                         -1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0, 1.0}) {
    s = s * t2 + k;  // 1/15!, ..., 1/3!, 1
  }
  s *= t;
  switch (q & 3) {  // cos(t + q pi / 2)
    case 0: return c;
    case 1: return -s;
    case 2: return -c;
    default: return s;
  }
}

}  // namespace

float Rng::normal_float(double scale) {
  const double u1 = 1.0 - unit(), u2 = unit();
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double v = r * cos_2pi(u2) * scale;
  // normal() * scale uses libm's cos(2 pi u2), which differs from cos_2pi(u2) by at most 4e-15
  // (2e-15 each, cos's argument rounded to double included), so the two products differ by at
  // most r * scale * 4e-15 plus their roundings (1e-15 * |v|): the slack, doubled to cover the
  // roundings of v -+ slack. Rounding to float is monotonic, so if both ends round to v's float,
  // so does libm's product; else (about 2 draws in a million) it is computed.
  const float f = static_cast<float>(v);
  const double slack = 2 * (r * scale * 4e-15 + std::fabs(v) * 1e-15) + 1e-300;
  const uint32_t fb = std::bit_cast<uint32_t>(f);
  if (std::bit_cast<uint32_t>(static_cast<float>(v - slack)) == fb &&
      std::bit_cast<uint32_t>(static_cast<float>(v + slack)) == fb) {
    return f;
  }
  return static_cast<float>(r * std::cos(2.0 * std::numbers::pi * u2) * scale);
}

std::vector<float> uniform_floats(Rng& rng, uint64_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (float& x : v) x = lo + (hi - lo) * rng.unitf();
  return v;
}

uint64_t mix_seed(uint64_t seed, std::string_view salt) {
  uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of the salt, then one splitmix step with the seed
  for (char c : salt) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  return Rng(seed ^ h).next();
}

void write_bytes(FunctionalMemory& mem, Addr a, const void* data, uint64_t bytes) {
  mem.write_bytes(a, data, bytes);
}

Addr MemoryLayout::next_base() const {
  if (regions_.empty()) return kBase;
  const Region& last = regions_.back();
  return (last.base + last.bytes + kAlign + kAlign - 1) / kAlign * kAlign;
}

Addr MemoryLayout::place(FunctionalMemory& mem, std::string name, const void* data, uint64_t bytes,
                         uint32_t elem_bytes) {
  const Addr base = next_base();
  if (base + bytes > (Addr{1} << 32))
    throw std::length_error("MemoryLayout: workload exceeds the 32-bit address space");
  write_bytes(mem, base, data, bytes);
  regions_.push_back(Region{std::move(name), base, bytes, elem_bytes});
  return base;
}

Addr MemoryLayout::reserve(std::string name, uint64_t bytes, uint32_t elem_bytes) {
  const Addr base = next_base();
  if (base + bytes > (Addr{1} << 32))
    throw std::length_error("MemoryLayout: workload exceeds the 32-bit address space");
  Region r{std::move(name), base, bytes, elem_bytes};
  r.partial = true;
  regions_.push_back(std::move(r));
  return base;
}

void MemoryLayout::write(FunctionalMemory& mem, std::string_view name, Addr a, const void* data, uint64_t bytes) {
  auto it = std::find_if(regions_.begin(), regions_.end(), [&](const Region& r) { return r.name == name; });
  if (it == regions_.end() || !it->partial || a < it->base || a + bytes > it->base + it->bytes)
    throw std::out_of_range("MemoryLayout::write: " + std::to_string(bytes) + " bytes at " + std::to_string(a) +
                            " are not inside the reserved region " + std::string(name));
  if (bytes == 0) return;
  write_bytes(mem, a, data, bytes);
  // Insert [a, a + bytes) and merge it with the ranges it overlaps or touches.
  auto& w = it->written;
  Addr lo = a, hi = a + bytes;
  auto first = std::lower_bound(w.begin(), w.end(), lo, [](const auto& s, Addr v) { return s.second < v; });
  auto last = first;
  while (last != w.end() && last->first <= hi) {
    lo = std::min(lo, last->first);
    hi = std::max(hi, last->second);
    ++last;
  }
  first = w.erase(first, last);
  w.insert(first, {lo, hi});
}

bool Region::contains(Addr a, uint32_t n) const {
  if (a < base || a + n > base + bytes) return false;
  if (!partial) return true;
  auto it = std::upper_bound(written.begin(), written.end(), a, [](Addr v, const auto& s) { return v < s.first; });
  return it != written.begin() && a + n <= std::prev(it)->second;
}

std::vector<std::pair<Addr, Addr>> Region::initialised() const {
  if (!partial) return {{base, base + bytes}};
  return written;
}

uint64_t Region::initialised_bytes() const {
  uint64_t n = 0;
  for (const auto& [b, e] : initialised()) n += e - b;
  return n;
}

TruncatedMatrix::TruncatedMatrix(Rng& rng, uint32_t nx, uint32_t ny, uint32_t k)
    : nx_(nx), ny_(ny), k_(std::min({k, nx, ny})) {
  cols_.resize(uint64_t{nx_} * k_);
  rows_.resize(uint64_t{k_} * ny_);
  const auto value = [&](uint64_t i, uint64_t j) { return static_cast<float>(rng.unit_at(i * ny_ + j)); };
  for (uint64_t i = 0; i < nx_; ++i) {
    for (uint64_t j = 0; j < k_; ++j) cols_[i * k_ + j] = value(i, j);
  }
  for (uint64_t i = 0; i < k_; ++i) {
    for (uint64_t j = k_; j < ny_; ++j) rows_[i * ny_ + j] = value(i, j);
  }
  rng.discard(uint64_t{nx_} * ny_);
}

WorkloadInfo polybench_matrix_info(const TruncatedMatrix* a, uint32_t published_ctas, std::string published_grid) {
  std::string input;
  if (a != nullptr) {
    input = std::to_string(a->nx()) + " x " + std::to_string(a->ny()) + " floats";
    if (a->k() < a->ny()) input += ", loops over the first " + std::to_string(a->k());
  }
  return {false, true, "PolyBench/GPU", std::move(input), "", published_ctas, std::move(published_grid)};
}

Addr TruncatedMatrix::place(FunctionalMemory& mem, MemoryLayout& layout, std::string name) const {
  const Addr base = layout.reserve(name, uint64_t{nx_} * ny_ * 4, 4);
  std::vector<float> row(ny_);
  for (uint64_t i = 0; i < nx_; ++i) {
    const uint32_t n = i < k_ ? ny_ : k_;
    for (uint32_t j = 0; j < n; ++j) row[j] = at(i, j);
    layout.write(mem, name, base + i * ny_ * 4, row.data(), uint64_t{n} * 4);
  }
  return base;
}

const Region& MemoryLayout::region(std::string_view name) const {
  for (const Region& r : regions_) {
    if (r.name == name) return r;
  }
  throw std::out_of_range("no memory region named " + std::string(name));
}

uint32_t WarpCoords::mask_below(uint64_t n) const {
  uint32_t m = 0;
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
    if (thread_in_cta(lane) < threads_per_cta && global_id(lane) < n) m |= 1u << lane;
  }
  return m;
}

KernelGrid grid_1d(uint64_t threads, uint32_t threads_per_cta) {
  KernelGrid g;
  g.ctas = static_cast<uint32_t>(std::max<uint64_t>(1, (threads + threads_per_cta - 1) / threads_per_cta));
  g.warps_per_cta = (threads_per_cta + kWarpSize - 1) / kWarpSize;
  return g;
}

// ---------------------------------------------------------------- WarpStream

StaticOp StaticOp::reads(std::initializer_list<StaticOp> loads) const {
  if (loads.size() > kMaxUses) throw std::logic_error("StaticOp::reads: more than kMaxUses loads");
  StaticOp op = *this;
  op.all_loads = false;
  op.uses.fill(0);
  uint32_t n = 0;
  for (const StaticOp& l : loads) {
    if (l.kind != OpKind::kLoad || l.dst == 0) throw std::logic_error("StaticOp::reads: not a KernelCode load");
    op.uses[n++] = l.dst;
  }
  return op;
}

StaticOp KernelCode::load(uint32_t bytes) {
  // Registers are 8 bits in StaticOp (below kRegIds); a kernel declares a few dozen loads at most.
  if (loads_ == 255) throw std::logic_error("KernelCode: more than 255 static loads");
  StaticOp op = take({OpKind::kLoad, 0, 1, bytes});
  op.dst = static_cast<uint8_t>(++loads_);
  return op;
}

bool WarpStream::begin(const StaticOp& op, OpKind expected, uint32_t mask) {
  if (op.kind != expected) throw std::logic_error("WarpStream: static instruction of the wrong kind");
  if (ended()) throw std::logic_error("WarpStream: instruction after exit");
  if (mask == 0) return false;
  const uint64_t index = seen_++;
  last_kind_ = op.kind;
  if (index < first_) return false;  // before the window: skipped
  const size_t per_lane = op.kind != OpKind::kStore ? 1 : op.bytes == 16 ? 3 : 2;  // WarpStream::pool_
  const size_t lanes = static_cast<size_t>(std::popcount(mask)) * per_lane;
  const bool is_mem = op.kind == OpKind::kLoad || op.kind == OpKind::kStore;
  if (!recs_.empty() && (recs_.size() >= max_recs_ || (is_mem && pool_.size() + lanes > max_pool_))) throw WindowFull{};
  recs_.push_back(Rec{op.pc, op.latency, mask, static_cast<uint32_t>(pool_.size()), op.kind,
                      static_cast<uint8_t>(op.bytes), op.dst, op.all_loads, op.uses});
  return is_mem;
}

void WarpStream::alu(const StaticOp& op, uint32_t mask) { begin(op, OpKind::kAlu, mask); }
void WarpStream::barrier(const StaticOp& op) { begin(op, OpKind::kBarrier, kFullMask); }
void WarpStream::exit(const StaticOp& op) { begin(op, OpKind::kExit, kFullMask); }

WarpInst WarpStream::replay(size_t i) const {
  WarpInst w;
  LaneZeros z{true, true, true};
  replay_into(i, w, z);
  return w;
}

void WarpStream::replay_into(size_t i, WarpInst& w, LaneZeros& z) const {
  const Rec& r = recs_[i];
  w.kind = r.kind;
  w.pc = r.pc;
  w.latency = r.latency;
  w.access_bytes = r.bytes;
  w.active_mask = r.mask;
  w.reads_all_loads = r.all_loads;
  w.regs.fill(0);
  w.writes = w.reads = 0;
  if (r.dst != 0) w.regs[w.writes++] = r.dst;
  for (const uint8_t u : r.uses)
    if (u != 0) w.regs[w.writes + w.reads++] = u;
  const bool mem = r.kind == OpKind::kLoad || r.kind == OpKind::kStore;
  const bool store = r.kind == OpKind::kStore, wide = store && r.bytes == 16;
  // Every array not written below is all zero afterwards, as in a fresh WarpInst.
  if (!z.addr) w.addr.fill(0);
  if (!z.value) w.value.fill(0);
  if (!z.value_hi) w.value_hi.fill(0);
  if (mem) {
    uint32_t p = r.first;
    for_lanes(r.mask, [&](uint32_t lane) {
      w.addr[lane] = pool_[p++];
      if (store) w.value[lane] = pool_[p++];
      if (wide) w.value_hi[lane] = pool_[p++];
    });
  }
  z.addr = !mem;
  z.value = !store;
  z.value_hi = !wide;
}

// A fully recorded stream.
class RecordedProgram final : public WarpProgram {
 public:
  explicit RecordedProgram(WarpStream&& s) : s_(std::move(s)) {}
  WarpInst next() override {
    const WarpInst w = s_.replay(pos_);
    if (pos_ + 1 < s_.recs_.size()) ++pos_;  // after the exit, keep returning it
    return w;
  }
  void next_into(WarpInst& out) override {
    s_.replay_into(pos_, out, zeros_);
    if (pos_ + 1 < s_.recs_.size()) ++pos_;
  }

 private:
  WarpStream s_;
  size_t pos_ = 0;
  WarpStream::LaneZeros zeros_;  // next_into's target, as the last call left it
};

std::unique_ptr<WarpProgram> WarpStream::finish() && {
  if (!ended()) throw std::logic_error("WarpStream: stream must end with exit");
  return std::make_unique<RecordedProgram>(std::move(*this));
}

// A stream produced window by window by re-running the body (see GeneratedKernel).
class WindowedProgram final : public WarpProgram {
 public:
  WindowedProgram(std::shared_ptr<const GeneratedKernel::Body> body, WarpCoords coords)
      : body_(std::move(body)), coords_(coords), window_(0, 0, 0) {
    refill();
  }
  WarpInst next() override {
    advance();
    return window_.replay(pos_++);
  }
  void next_into(WarpInst& out) override {
    advance();
    window_.replay_into(pos_++, out, zeros_);
  }

 private:
  void advance() {
    if (pos_ == window_.recs_.size()) {
      if (last_window_) {
        pos_ = window_.recs_.size() - 1;  // after the exit, keep returning it
      } else {
        refill();
      }
    }
  }
  void refill() {
    const uint64_t first = window_.first_ + window_.recs_.size();
    window_ = WarpStream(first, GeneratedKernel::kWindowInsts, GeneratedKernel::kWindowLaneEntries);
    // Room for as much as this thread's last window held (the warps of a CTA, generated one
    // after the other, are alike): the window fills without regrowing and copying its arrays.
    // Only the capacity depends on it, never what is recorded.
    window_.recs_.reserve(last_recs_);
    window_.pool_.reserve(last_pool_);
    pos_ = 0;
    try {
      (*body_)(window_, coords_);
      if (!window_.ended()) throw std::logic_error("GeneratedKernel: warp body must end with exit");
      last_window_ = true;
    } catch (const WarpStream::WindowFull&) {
      last_window_ = false;
    }
    last_recs_ = window_.recs_.size();
    last_pool_ = window_.pool_.size();
    if (window_.recs_.empty()) throw std::logic_error("GeneratedKernel: warp body is not deterministic");
  }
  static thread_local size_t last_recs_, last_pool_;  // the sizes of the thread's last window

  std::shared_ptr<const GeneratedKernel::Body> body_;
  WarpCoords coords_;
  WarpStream window_;
  size_t pos_ = 0;
  bool last_window_ = false;
  WarpStream::LaneZeros zeros_;  // next_into's target, as the last call left it
};

thread_local size_t WindowedProgram::last_recs_ = 0;
thread_local size_t WindowedProgram::last_pool_ = 0;

// ---------------------------------------------------------------- kernels, workloads

std::unique_ptr<WarpProgram> GeneratedKernel::warp(uint32_t cta, uint32_t warp_in_cta) const {
  if (cta >= grid_.ctas || warp_in_cta >= grid_.warps_per_cta) throw std::out_of_range("GeneratedKernel: no such warp");
  return std::make_unique<WindowedProgram>(body_, WarpCoords{cta, warp_in_cta, threads_per_cta_});
}

const Kernel& GeneratedWorkload::kernel(uint32_t i) const {
  if (i >= kernels_.size()) throw std::out_of_range("workload " + name() + ": no kernel " + std::to_string(i));
  return *kernels_[i];
}

uint64_t GeneratedWorkload::footprint_bytes() const {
  uint64_t n = 0;
  for (const Region& r : layout_.regions()) n += r.initialised_bytes();
  return n;
}

void GeneratedWorkload::set_input_file(const std::string& path) {
  if (info().input_format.empty()) Workload::set_input_file(path);
  input_path_ = path;
}

void GeneratedWorkload::set_generator(const std::string& name) {
  Workload::set_generator(name);
  generator_ = name;
}

std::string GeneratedWorkload::verify(const FunctionalMemory& mem) const {
  if (kernels_.empty()) return "workload " + name() + ": init() has not run";
  ResultCheck c(mem, name(), layout_);
  check(c);
  return c.result();
}

void GeneratedWorkload::add_kernel(std::string name, uint64_t threads, GeneratedKernel::Body body,
                                   uint32_t threads_per_cta) {
  kernels_.push_back(std::make_unique<GeneratedKernel>(std::move(name), grid_1d(threads, threads_per_cta),
                                                       threads_per_cta, std::move(body)));
}

void GeneratedWorkload::published(uint32_t ctas, std::string arithmetic) {
  if (kernels_.empty()) throw std::logic_error("workload " + name() + ": published() before any add_kernel()");
  kernels_.back()->set_published({ctas, std::move(arithmetic)});
}

}  // namespace l1d::sim::wl
