// wordcount (WC, Mars WordCount, the map phase): Mars runs a map twice, first to count what each
// task emits, then (after a prefix sum on the host) to emit at its offset. One thread per line:
//   wc_map_count:  n = 0; for each byte: c = text[start+i]; if (c is a letter && (i == 0 ||
//                  text[start+i-1] is not)) ++n;   count[line] = n
//   wc_map:        h = FNV-1a over each word's letters; at a word's end:
//                  key[offset[line] + k] = word start; hash[offset[line] + k] = h; ++k
// One-byte loads, lanes on different lines (uncoalesced), each line reused over its scan:
// cache-sensitive; line lengths and word boundaries follow the text: irregular.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/text.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

struct Words {  // the map output of one line
  std::vector<int32_t> key, hash;
};

Words tokenize(const std::string& text, int32_t start, int32_t len) {
  Words w;
  uint32_t h = 2166136261u;
  for (int32_t i = 0; i <= len; ++i) {
    const bool letter = i < len && text[static_cast<size_t>(start + i)] != ' ';
    if (letter && (i == 0 || text[static_cast<size_t>(start + i - 1)] == ' '))
      w.key.push_back(start + i), h = 2166136261u;
    if (letter) h = (h ^ static_cast<uint8_t>(text[static_cast<size_t>(start + i)])) * 16777619u;
    if (!letter && i > 0 && text[static_cast<size_t>(start + i - 1)] != ' ') w.hash.push_back(static_cast<int32_t>(h));
  }
  return w;
}

class Wordcount final : public GeneratedWorkload {
 public:
  std::string name() const override { return "wordcount"; }
  std::string description() const override { return "Mars WordCount map phase: count, prefix sum, emit (key, hash)"; }
  WorkloadInfo info() const override {
    return {true, true, "Mars (WC)",
            text_ ? std::to_string(text_->start.size()) + " lines, " + std::to_string(text_->bytes.size() / 1024) +
                        " KB text"
                  : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "wordcount"));
    // Small: 46080 lines = 180 CTAs of 8 warps per launch, two waves of the 90 (6 per SM) that
    // fill gtx480's 15 SMs (issue 21), of 1 .. 2 words: a warp scans as long as its longest line,
    // so twice the lines at half the words cost no more (253 K warp instructions, 34 K cycles).
    // One wave of 23040 lines of 2 .. 5 words (2026-11-27) drained warp by warp under GTO: 14.5
    // resident warps per scheduler, now 18.5. Full 32768 lines (128 CTAs) of 4 .. 16 words.
    // Test (branch workloads16) launches gtx480's fill, 23040 lines = 90 CTAs a launch, of one word
    // each from a vocabulary of 2 .. 3 letters: a warp scans its longest line, and one-word lines of
    // the default 2 .. 10 letters were 73.9 K warp instructions (branch workloads7), over a test
    // run's 50 K (was 128 lines of 4 .. 16 words, 1 CTA).
    // On a larger device small launches one wave of its fill (issue 21: qv100 640 CTAs, a100 864)
    // of one-word lines, the least a launch that fills it can scan; gtx480 keeps 46080 lines of 1 .. 2.
    const bool grown = scale == WorkloadScale::kSmall && fill_ctas(8) > 90;
    const uint32_t max_letters = scale == WorkloadScale::kTest ? 3u : 10u;  // make_text's default: 10
    auto text = std::make_shared<const Text>(
        make_text(by_scale(scale, 90u * kCtaThreads, grown ? fill_ctas(8) * kCtaThreads : 46080u, 32768u), 4000, rng,
                  by_scale(scale, 1u, 1u, 4u), by_scale(scale, 1u, grown ? 1u : 2u, 16u), max_letters));
    text_ = text;
    const auto lines = static_cast<uint32_t>(text->start.size());
    auto words = std::make_shared<std::vector<Words>>();
    std::vector<int32_t> offset(lines, 0);
    int32_t total = 0;
    for (uint32_t i = 0; i < lines; ++i) {
      words->push_back(tokenize(text->bytes, text->start[i], text->len[i]));
      offset[i] = total, total += static_cast<int32_t>(words->back().key.size());
    }
    const Addr t_base = layout_.array(mem, "text", std::vector<char>(text->bytes.begin(), text->bytes.end()));
    const Addr s_base = layout_.array(mem, "offsets", text->start), l_base = layout_.array(mem, "lengths", text->len);
    const Addr c_base = layout_.array(mem, "count", std::vector<int32_t>(lines, 0));
    const Addr o_base = layout_.array(mem, "emit_offset", offset);
    const Addr k_base = layout_.array(mem, "keys", std::vector<int32_t>(static_cast<size_t>(total), 0));
    const Addr h_base = layout_.array(mem, "hashes", std::vector<int32_t>(static_cast<size_t>(total), 0));
    auto off = share(offset);

    // The two kernels share the scan: emit = false counts, true emits.
    const auto add = [&](KernelCode& k, const char* kname, bool emit) {
      const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_s = k.load(4), ld_l = k.load(4);
      const StaticOp ld_o = k.load(4), ld_c = k.load(1), test = k.alu(kLatInt), hash = k.alu(kLatIntMad);
      const StaticOp st_k = k.store(4), st_h = k.store(4), loop = k.alu(kLatInt), st_c = k.store(4), exit = k.exit();
      add_kernel(kname, lines, [=](WarpStream& s, const WarpCoords& w) {
        const uint32_t m = w.mask_below(lines);
        const auto line = [&](uint32_t l) { return w.global_id(l); };
        const auto byte = [&](uint32_t l, int64_t i) {
          return text->bytes[static_cast<size_t>(text->start[line(l)] + i)];
        };
        s.alu(tid, w.mask_below(UINT64_MAX));
        s.alu(guard, w.mask_below(UINT64_MAX));
        s.load(ld_s, m, [&](uint32_t l) { return s_base + 4 * line(l); });
        s.load(ld_l, m, [&](uint32_t l) { return l_base + 4 * line(l); });
        if (emit) s.load(ld_o, m, [&](uint32_t l) { return o_base + 4 * line(l); });
        std::array<uint32_t, kWarpSize> k_of{};  // words emitted so far
        simt_loop(
            m, [&](uint32_t l) { return text->len[line(l)] + 1; },
            [&](int64_t i, uint32_t am) {
              const uint32_t in = lanes_where(am, [&](uint32_t l) { return i < text->len[line(l)]; });
              s.load(ld_c, in, [&](uint32_t l) { return t_base + static_cast<uint64_t>(text->start[line(l)] + i); });
              s.alu(test, am);
              if (!emit) return s.alu(loop, am);
              s.alu(hash, lanes_where(in, [&](uint32_t l) { return byte(l, i) != ' '; }));
              const uint32_t ends = lanes_where(am, [&](uint32_t l) {
                return i > 0 && byte(l, i - 1) != ' ' && (i == text->len[line(l)] || byte(l, i) == ' ');
              });
              const auto slot = [&](uint32_t l) { return static_cast<uint64_t>((*off)[line(l)]) + k_of[l]; };
              s.store(st_k, ends, [&](uint32_t l) {
                return LaneWrite{k_base + 4 * slot(l), bits((*words)[line(l)].key[k_of[l]])};
              });
              s.store(st_h, ends, [&](uint32_t l) {
                return LaneWrite{h_base + 4 * slot(l), bits((*words)[line(l)].hash[k_of[l]])};
              });
              for_lanes(ends, [&](uint32_t l) { ++k_of[l]; });
              s.alu(loop, am);
            });
        if (!emit)
          s.store(st_c, m, [&](uint32_t l) {
            return LaneWrite{c_base + 4 * line(l), bits(static_cast<int32_t>((*words)[line(l)].key.size()))};
          });
        s.exit(exit);
      });
    };
    KernelCode k1(kFirstKernelPc);
    add(k1, "wc_map_count", false);
    KernelCode k2 = k1.next_kernel();
    add(k2, "wc_map", true);
  }

 protected:
  // Counts, then every emitted pair against the words of the text (split at spaces).
  void check(ResultCheck& c) const override {
    std::vector<int32_t> count, keys, hashes;
    for (size_t i = 0; i < text_->start.size(); ++i) {
      const std::string line =
          text_->bytes.substr(static_cast<size_t>(text_->start[i]), static_cast<size_t>(text_->len[i]));
      int32_t n = 0;
      for (size_t p = 0; p < line.size();) {
        const size_t e = std::min(line.find(' ', p), line.size());
        uint32_t h = 2166136261u;
        for (size_t q = p; q < e; ++q) h = (h ^ static_cast<uint8_t>(line[q])) * 16777619u;
        keys.push_back(text_->start[i] + static_cast<int32_t>(p)), hashes.push_back(static_cast<int32_t>(h)), ++n;
        p = e + 1;
      }
      count.push_back(n);
    }
    c.exact("count", count);
    c.exact("keys", keys);
    c.exact("hashes", hashes);
  }

 private:
  std::shared_ptr<const Text> text_;
};

}  // namespace

std::unique_ptr<Workload> make_wordcount() { return std::make_unique<Wordcount>(); }

}  // namespace l1d::sim::wl
