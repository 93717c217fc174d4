// invindex (II, Mars InvertedIndex, the map phase): find the links of HTML documents and emit
// (URL, document) pairs. One map task (thread) per document line; a naive scan for `href="` as in
// Mars' map, then the URL up to the closing quote:
//   k = 0; for p in [0, len): if (text[start+p..] starts with `href="`) {
//            h = FNV-1a over the URL bytes; url[line*K + k] = URL start; hash[line*K + k] = h; ++k }
//   links[line] = k
// (Mars sizes the output with a counting pass and a prefix sum; K = 4 fixed slots per line here.)
// One-byte loads, lanes on different lines, each line's bytes reused over the scan:
// cache-sensitive; the work follows the text: irregular.
#include "sim_cpp/workload/kernel_builder.h"
#include "sim_cpp/workload/result_check.h"
#include "sim_cpp/workload/text.h"
#include "sim_cpp/workload/workloads.h"

namespace l1d::sim::wl {
namespace {

constexpr uint32_t kSlots = 4;
const std::string kPattern = "href=\"";

struct Step {  // one load of the scan: line offset, pattern index (-1: a URL byte)
  int32_t off, pat;
};
struct Link {
  int32_t start;
  uint32_t hash;
};

std::vector<Link> scan(const std::string& text, int32_t start, int32_t len, std::vector<Step>* steps) {
  std::vector<Link> links;
  const auto at = [&](int32_t p) { return text[static_cast<size_t>(start + p)]; };
  const auto plen = static_cast<int32_t>(kPattern.size());
  for (int32_t p = 0; p + plen <= len; ++p) {
    int32_t q = 0;
    while (q < plen && (steps->push_back({p + q, q}), at(p + q) == kPattern[static_cast<size_t>(q)])) ++q;
    if (q < plen) continue;
    uint32_t h = 2166136261u;
    int32_t e = p + plen;
    for (; e < len && (steps->push_back({e, -1}), at(e) != '"'); ++e) h = (h ^ static_cast<uint8_t>(at(e))) * 16777619u;
    links.push_back({start + p + plen, h});
    p = e;
  }
  return links;
}

class Invindex final : public GeneratedWorkload {
 public:
  std::string name() const override { return "invindex"; }
  std::string description() const override {
    return "Mars InvertedIndex map: scan HTML lines for links, emit (URL, line)";
  }
  WorkloadInfo info() const override {
    return {true, true, "Mars (II)",
            text_ ? std::to_string(text_->start.size()) + " lines, " + std::to_string(text_->bytes.size() / 1024) +
                        " KB HTML"
                  : "",
            ""};
  }

  void init(FunctionalMemory& mem, WorkloadScale scale, uint64_t seed) override {
    reset();
    Rng rng(mix_seed(seed, "invindex"));
    // Lines of words with up to kSlots links <a href="http://host/path">.
    // Small: 23040 lines = 90 CTAs of 8 warps, the 6 per SM that fill gtx480's 15 SMs (issue 21;
    // 4096 lines of 4 .. 16 words and 0 .. 4 links launched 16). A warp scans as long as its
    // longest line, so the lines are short and even: 2 .. 4 words and 0 .. 1 link (about the CPU
    // time of the 4096 lines; 2 .. 4 words with 0 .. 4 links cost 3.8x). Test stays 1 CTA.
    // On a preset with more than gtx480's 90 CTA slots (qv100 640, a100 864) small fills it, fill x
    // 256 lines, of one word and 0 .. 1 link with a site-relative URL (`<a href="/path">`, about 18
    // bytes where `http://host.org/path` makes about 35): the longest line of a warp, which sets
    // its scan, is about 25 bytes instead of gtx480's 60.
    const bool grown = scale == WorkloadScale::kSmall && fill_ctas(8) > 90;
    const uint32_t min_words = by_scale(scale, 4u, grown ? 1u : 2u, 4u);
    const uint32_t max_words = by_scale(scale, 16u, grown ? 1u : 4u, 16u);
    const uint32_t max_links = by_scale(scale, kSlots, 1u, kSlots);
    const Text words =
        make_text(by_scale(scale, 256u, grown ? fill_ctas(8) * kCtaThreads : 23040u, 65536u), 1000, rng, min_words,
                  max_words);
    auto text = std::make_shared<Text>();
    for (size_t i = 0; i < words.start.size(); ++i) {
      std::string line = words.bytes.substr(static_cast<size_t>(words.start[i]), static_cast<size_t>(words.len[i]));
      for (uint64_t k = rng.below(max_links + 1); k > 0; --k) {
        const size_t at = line.find(' ', rng.below(line.size()));
        const std::string link =
            grown ? " <a href=\"/" + words.vocab[rng.below(1000)] + "\">"
                  : " <a href=\"http://" + words.vocab[rng.below(50)] + ".org/" + words.vocab[rng.below(1000)] + "\">";
        line.insert(at == std::string::npos ? line.size() : at, link);
      }
      text->start.push_back(static_cast<int32_t>(text->bytes.size()));
      text->len.push_back(static_cast<int32_t>(line.size()));
      text->bytes += line + "\n";
    }
    while (text->bytes.size() % 4) text->bytes += '\n';
    text_ = text;
    const auto lines = static_cast<uint32_t>(text->start.size());
    const Addr t_base = layout_.array(mem, "text", std::vector<char>(text->bytes.begin(), text->bytes.end()));
    const Addr s_base = layout_.array(mem, "offsets", text->start), l_base = layout_.array(mem, "lengths", text->len);
    std::string pat = kPattern + std::string(2, '\0');
    const Addr p_base = layout_.array(mem, "pattern", std::vector<char>(pat.begin(), pat.end()));
    const Addr u_base = layout_.array(mem, "url", std::vector<int32_t>(uint64_t{lines} * kSlots, -1));
    const Addr h_base = layout_.array(mem, "hash", std::vector<int32_t>(uint64_t{lines} * kSlots, 0));
    const Addr n_base = layout_.array(mem, "links", std::vector<int32_t>(lines, -1));

    KernelCode k(kFirstKernelPc);
    const StaticOp tid = k.alu(kLatIntMad), guard = k.alu(kLatInt), ld_s = k.load(4), ld_l = k.load(4);
    const StaticOp ld_c = k.load(1), ld_p = k.load(1), cmp = k.alu(kLatInt), hash = k.alu(kLatIntMad);
    const StaticOp st_u = k.store(4), st_h = k.store(4), loop = k.alu(kLatInt), st_n = k.store(4), exit = k.exit();
    add_kernel("ii_map", lines, [=](WarpStream& s, const WarpCoords& w) {
      const uint32_t m = w.mask_below(lines);
      const auto line = [&](uint32_t l) { return w.global_id(l); };
      s.alu(tid, w.mask_below(UINT64_MAX));
      s.alu(guard, w.mask_below(UINT64_MAX));
      s.load(ld_s, m, [&](uint32_t l) { return s_base + 4 * line(l); });
      s.load(ld_l, m, [&](uint32_t l) { return l_base + 4 * line(l); });
      std::array<std::vector<Step>, kWarpSize> steps;
      std::array<std::vector<Link>, kWarpSize> links;
      std::array<uint32_t, kWarpSize> emitted{};
      for_lanes(m,
                [&](uint32_t l) { links[l] = scan(text->bytes, text->start[line(l)], text->len[line(l)], &steps[l]); });
      simt_loop(
          m, [&](uint32_t l) { return steps[l].size(); },
          [&](int64_t i, uint32_t am) {
            const auto st = [&](uint32_t l) { return steps[l][static_cast<size_t>(i)]; };
            s.load(ld_c, am,
                   [&](uint32_t l) { return t_base + static_cast<uint64_t>(text->start[line(l)] + st(l).off); });
            s.load(ld_p, lanes_where(am, [&](uint32_t l) { return st(l).pat >= 0; }),
                   [&](uint32_t l) { return p_base + static_cast<uint64_t>(st(l).pat); });
            s.alu(cmp, am);
            s.alu(hash, lanes_where(am, [&](uint32_t l) { return st(l).pat < 0; }));
            // A URL ends at its closing quote (the last step of a URL run).
            const uint32_t ends = lanes_where(am, [&](uint32_t l) {
              const size_t j = static_cast<size_t>(i);
              return st(l).pat < 0 && text->bytes[static_cast<size_t>(text->start[line(l)] + st(l).off)] == '"' &&
                     emitted[l] < kSlots && (j + 1 == steps[l].size() || steps[l][j + 1].pat >= 0);
            });
            const auto slot = [&](uint32_t l) { return line(l) * kSlots + emitted[l]; };
            s.store(st_u, ends, [&](uint32_t l) {
              return LaneWrite{u_base + 4 * slot(l), bits(links[l][emitted[l]].start)};
            });
            s.store(st_h, ends, [&](uint32_t l) {
              return LaneWrite{h_base + 4 * slot(l), bits(static_cast<int32_t>(links[l][emitted[l]].hash))};
            });
            for_lanes(ends, [&](uint32_t l) { ++emitted[l]; });
            s.alu(loop, am);
          });
      s.store(st_n, m, [&](uint32_t l) {
        return LaneWrite{n_base + 4 * line(l), bits(static_cast<int32_t>(links[l].size()))};
      });
      s.exit(exit);
    });
  }

 protected:
  // Links found with std::string::find, their URLs up to the closing quote.
  void check(ResultCheck& c) const override {
    const size_t lines = text_->start.size();
    std::vector<int32_t> url(lines * kSlots, -1), hash(lines * kSlots, 0), count(lines, 0);
    for (size_t i = 0; i < lines; ++i) {
      const auto s = static_cast<size_t>(text_->start[i]), e = s + static_cast<size_t>(text_->len[i]);
      for (size_t p = text_->bytes.find(kPattern, s); p != std::string::npos && p + kPattern.size() <= e;
           p = text_->bytes.find(kPattern, p + 1)) {
        const size_t u = p + kPattern.size(), q = text_->bytes.find('"', u);
        uint32_t h = 2166136261u;
        for (size_t b = u; b < q; ++b) h = (h ^ static_cast<uint8_t>(text_->bytes[b])) * 16777619u;
        url[i * kSlots + static_cast<size_t>(count[i])] = static_cast<int32_t>(u);
        hash[i * kSlots + static_cast<size_t>(count[i]++)] = static_cast<int32_t>(h);
      }
    }
    c.exact("links", count);
    c.exact("url", url);
    c.exact("hash", hash);
  }

 private:
  std::shared_ptr<const Text> text_;
};

}  // namespace

std::unique_ptr<Workload> make_invindex() { return std::make_unique<Invindex>(); }

}  // namespace l1d::sim::wl
