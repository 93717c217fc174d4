// strmatch (SM, Mars StringMatch): find a keyword in every line of a text. One map task (thread)
// per line, a naive scan as in Mars' map function:
//   for p in [0, len - klen]: if (text[start+p] == key[0]) { q = 1; while (q < klen &&
//                              text[start+p+q] == key[q]) ++q; if (q == klen) break }
//   result[line] = p (or -1)
// One-byte loads; the lanes walk different lines (uncoalesced) and reuse each line's bytes for
// dozens of iterations: cache-sensitive. The loop lengths follow the text: irregular.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/text.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

// One line's scan: the result, and per step the (line offset, keyword index) it compares.
int32_t scan(const std::string& text, int32_t start, int32_t len, const std::string& key,
             std::vector<std::pair<int32_t, int32_t>>* steps) {
  const auto klen = static_cast<int32_t>(key.size());
  const auto at = [&](int32_t p) { return text[static_cast<size_t>(start + p)]; };
  for (int32_t p = 0; p + klen <= len; ++p) {
    steps->emplace_back(p, 0);
    if (at(p) != key[0]) continue;
    int32_t q = 1;
    while (q < klen && (steps->emplace_back(p + q, q), at(p + q) == key[static_cast<size_t>(q)])) ++q;
    if (q == klen) return p;
  }
  return -1;
}

class Strmatch final : public GeneratedWorkload {
 public:
  std::string name() const override { return "strmatch"; }
  std::string description() const override { return "Mars StringMatch: naive keyword scan, one thread per line"; }
  WorkloadInfo info() const override {
    return {true, true, "Mars (SM)",
            text_ ? std::to_string(text_->start.size()) + " lines, " + std::to_string(text_->bytes.size() / 1024) +
                        " KB text"
                  : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "strmatch"));
    // Small: 23040 lines = 90 CTAs of 8 warps, the 6 per SM that fill gtx480's 15 SMs (issue 21;
    // 8192 lines of 4 .. 16 words launched 32), of 4 .. 10 words so that the run stays about as long
    // (137 K cycles, 8192 lines: 126 K). Test has the same 90 CTAs, shortened by the per-thread
    // scan: lines of one word (19 K warp instructions, 3.3 K cycles; 256 lines of 4 .. 16 words
    // launched 1 CTA). Full is 256 CTAs.
    // On a larger device small launches its fill (issue 21: qv100 640 CTAs, a100 864), of lines of 1 ..
    // 2 words (a warp scans its longest line: 10 words x 1.5 / (the fill over gtx480's), rounded,
    // at least 2), so that a run stays near 1.5x gtx480's; gtx480 keeps 23040 lines of 4 .. 10.
    const bool grown = scale == WorkloadScale::kSmall && fill_ctas(8) > 90;
    const uint32_t small_max = grown ? std::max(2u, static_cast<uint32_t>(10 * 1.5 / fill_over_gtx480() + 0.5)) : 10;
    auto text = std::make_shared<const Text>(
        make_text(by_scale(scale, 23040u, grown ? fill_ctas(8) * kCtaThreads : 23040u, 65536u), 2000, rng,
                  by_scale(scale, 1u, grown ? 1u : 4u, 4u), by_scale(scale, 1u, small_max, 16u)));
    text_ = text, key_ = text->vocab[7];
    const std::string key = key_;
    const auto lines = static_cast<uint32_t>(text->start.size());
    const Addr t_base = layout_.array(mem, "text", std::vector<char>(text->bytes.begin(), text->bytes.end()));
    const Addr s_base = layout_.array(mem, "offsets", text->start), l_base = layout_.array(mem, "lengths", text->len);
    std::string kpad = key;
    kpad.resize((key.size() + 4) / 4 * 4, '\0');
    const Addr k_base = layout_.array(mem, "keyword", std::vector<char>(kpad.begin(), kpad.end()));
    const Addr r_base = layout_.array(mem, "result", std::vector<int32_t>(lines, -2));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_s = k.load(4), ld_l = k.load(4);
    const StaticOp ld_k0 = k.load(1), ld_c = k.load(1), ld_kq = k.load(1), cmp = k.alu(kLatInt), br = k.alu(kLatInt);
    const StaticOp st = k.store(4), exit = k.exit();
    add_kernel("strmatch_map", lines, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(lines);
      const auto line = [&](uint32_t l) { return w.global_id(l); };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.load(ld_s, m, [&](uint32_t l) { return s_base + 4 * line(l); });
      s.load(ld_l, m, [&](uint32_t l) { return l_base + 4 * line(l); });
      s.load(ld_k0, m, [&](uint32_t) { return k_base; });
      std::array<std::vector<std::pair<int32_t, int32_t>>, kWarpSize> steps;
      std::array<int32_t, kWarpSize> found{};
      for_lanes(m, [&](uint32_t l) {
        found[l] = scan(text->bytes, text->start[line(l)], text->len[line(l)], key, &steps[l]);
      });
      simt_loop(
          m, [&](uint32_t l) { return steps[l].size(); },
          [&](int64_t i, uint32_t am) {
            const auto step = [&](uint32_t l) { return steps[l][static_cast<size_t>(i)]; };
            s.load(ld_c, am,
                   [&](uint32_t l) { return t_base + static_cast<uint64_t>(text->start[line(l)] + step(l).first); });
            s.load(ld_kq, lanes_where(am, [&](uint32_t l) { return step(l).second > 0; }),
                   [&](uint32_t l) { return k_base + static_cast<uint64_t>(step(l).second); });
            s.alu(cmp, am);
            s.alu(br, am);
          });
      s.store(st, m, [&](uint32_t l) { return LaneWrite{r_base + 4 * line(l), bits(found[l])}; });
      s.exit(exit);
    });
  }

 protected:
  void check(ResultCheck& c) const override {
    std::vector<int32_t> want(text_->start.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const size_t p =
          text_->bytes.substr(static_cast<size_t>(text_->start[i]), static_cast<size_t>(text_->len[i])).find(key_);
      want[i] = p == std::string::npos ? -1 : static_cast<int32_t>(p);
    }
    c.exact("result", want);
    if (std::count_if(want.begin(), want.end(), [](int32_t v) { return v >= 0; }) == 0)
      c.fail("the keyword occurs in no line");
  }

 private:
  std::shared_ptr<const Text> text_;
  std::string key_;
};

}  // namespace

std::unique_ptr<Workload> make_strmatch() { return std::make_unique<Strmatch>(); }

}  // namespace l1d::sim::wl
