#include "sim_cpp/workload/text.h"

#include <algorithm>
#include <cmath>

namespace l1d::sim::wl {

Text make_text(uint32_t lines, uint32_t vocab, Rng& rng, uint32_t min_words, uint32_t max_words,
               uint32_t max_letters) {
  Text t;
  while (t.vocab.size() < vocab) {
    std::string w(2 + rng.below(max_letters - 1), 'a');
    for (char& c : w) c = static_cast<char>('a' + rng.below(26));
    if (std::find(t.vocab.begin(), t.vocab.end(), w) == t.vocab.end()) t.vocab.push_back(w);
  }
  std::vector<double> cdf(vocab);
  double sum = 0;
  for (uint32_t i = 0; i < vocab; ++i) cdf[i] = sum += 1.0 / (i + 1);
  for (uint32_t l = 0; l < lines; ++l) {
    t.start.push_back(static_cast<int32_t>(t.bytes.size()));
    const uint64_t words = min_words + rng.below(max_words - min_words + 1);
    for (uint64_t k = 0; k < words; ++k) {
      const auto w = static_cast<size_t>(std::lower_bound(cdf.begin(), cdf.end(), rng.unit() * sum) - cdf.begin());
      t.bytes += (k ? " " : "") + t.vocab[std::min<size_t>(w, vocab - 1)];
    }
    t.len.push_back(static_cast<int32_t>(t.bytes.size()) - t.start.back());
    t.bytes += '\n';
  }
  while (t.bytes.size() % 4) t.bytes += '\n';
  return t;
}

}  // namespace l1d::sim::wl
