// Generated text for the Mars MapReduce workloads (strmatch, wordcount): lines of words drawn
// from a Zipf-distributed vocabulary of random lower-case words, one line per map task; the line
// table gives each line's offset and length (Mars' key/value directory).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim_cpp/workload/kernel_builder.h"

namespace l1d::sim::wl {

struct Text {
  std::string bytes;                // all lines, each ended by '\n'
  std::vector<int32_t> start, len;  // per line: offset in bytes, length without the '\n'
  std::vector<std::string> vocab;   // the vocabulary, most frequent first
};

// `lines` lines of min_words .. max_words words (uniform); `vocab` distinct words of 2 ..
// max_letters letters (uniform; Zipf frequencies, exponent 1). max_letters is at least 3, and
// vocab must fit in the words of that length (26^2 + ... + 26^max_letters).
Text make_text(uint32_t lines, uint32_t vocab, Rng& rng, uint32_t min_words = 4, uint32_t max_words = 16,
               uint32_t max_letters = 10);

}  // namespace l1d::sim::wl
