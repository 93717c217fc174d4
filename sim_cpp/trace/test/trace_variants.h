// Rewrites of a version-4 Accel-Sim trace into the other formats the reader takes (tests and
// the fuzzer, sim_cpp/trace/tools/trace_fuzz.cpp): the same instructions and addresses as
// version 5 with line numbers and immediates, as the old prefixed format (no version line,
// `tb_x tb_y tb_z warp` before every instruction), and with every address list re-encoded in
// address mode 0 (one address per lane) or 2 (base and deltas). A rewritten trace must run
// exactly as its original. Text processing only, independent of the reader's code; the input
// is a well-formed version-4 trace without line numbers (the shared traces).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace l1d::sim::trace::variants {

inline std::vector<std::string> words(const std::string& line) {
  std::istringstream is(line);
  std::vector<std::string> w;
  for (std::string t; is >> t;) w.push_back(t);
  return w;
}

inline std::string join(const std::vector<std::string>& w) {
  std::string s;
  for (const std::string& t : w) s += (s.empty() ? "" : " ") + t;
  return s;
}

// An instruction line of the structured formats: its first word is a hex PC and it has at
// least PC, mask, dest count, opcode, src count, width.
inline bool is_instruction(const std::vector<std::string>& w) {
  if (w.size() < 6 || w[0].empty()) return false;
  for (char c : w[0])
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// Index of the address-mode word of an instruction line (no prefix, no line number), or 0
// when the line has no addresses.
inline size_t mode_index(const std::vector<std::string>& w) {
  const size_t nd = std::stoul(w[2]);
  const size_t ns = std::stoul(w[4 + nd]);
  const size_t width = 5 + nd + ns;
  return std::stoul(w[width]) > 0 ? width + 1 : 0;
}

enum class Format { kV4, kV5, kOld, kMode0, kMode2 };

// Applies `f` line by line. kV5 also numbers the lines and appends an immediate to every
// instruction line (the tracer writes one only where the SASS has one).
inline std::string rewrite(const std::string& text, Format f) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string tb = "0 0 0", warp = "0";
  uint64_t lineno = 0;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> w = words(line);
    if (line.rfind("-accelsim tracer version", 0) == 0) {
      if (f == Format::kOld) continue;
      if (f == Format::kV5) line = "-accelsim tracer version = 5";
    } else if (line.rfind("-enable lineinfo", 0) == 0) {
      if (f == Format::kOld) continue;
      if (f == Format::kV5) line = "-enable lineinfo = 1";
    } else if (w.size() == 4 && w[0] == "thread" && w[1] == "block") {
      tb = w[3];
      for (char& c : tb)
        if (c == ',') c = ' ';
    } else if (w.size() == 3 && w[0] == "warp") {
      warp = w[2];
    } else if (is_instruction(w)) {
      const size_t m = mode_index(w);
      if (f == Format::kV5) {
        ++lineno;
        line = std::to_string(lineno) + " " + join(w) + " -" + std::to_string(lineno % 7);
      } else if (f == Format::kOld) {
        line = tb + " " + warp + " " + join(w);
      } else if ((f == Format::kMode0 || f == Format::kMode2) && m != 0 && w[m] == "1") {
        const uint32_t mask = static_cast<uint32_t>(std::stoul(w[1], nullptr, 16));
        const uint64_t base = std::stoull(w[m + 1], nullptr, 16);
        const int64_t stride = std::stoll(w[m + 2]);
        std::vector<std::string> o(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(m));
        o.push_back(f == Format::kMode0 ? "0" : "2");
        uint64_t a = base;
        bool first = true;
        for (uint32_t l = 0; l < 32; ++l) {
          if (!(mask >> l & 1u)) continue;
          std::ostringstream s;
          if (f == Format::kMode0)
            s << "0x" << std::hex << a;
          else if (first)
            s << "0x" << std::hex << base;
          else
            s << stride;
          o.push_back(s.str());
          a += static_cast<uint64_t>(stride);
          first = false;
        }
        line = join(o);
      }
    }
    out << line << "\n";
  }
  return out.str();
}

}  // namespace l1d::sim::trace::variants
