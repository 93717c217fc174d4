// Rewrites of an Accel-Sim trace into the other formats the reader takes (tests and the fuzzer,
// sim_cpp/trace/tools/trace_fuzz.cpp): the same instructions and addresses as version 5 with
// line numbers and immediates, as the old prefixed format (no version line, `tb_x tb_y tb_z
// warp` before every instruction) and the same with an NVBit-1.x-era version line "1.2", as
// version 6 (cluster lines, a second immediate, `NoVal` / `Val` register values), and with every
// base-stride address list re-encoded in address mode 0 (one address per lane) or 2 (base and
// deltas). A rewritten trace must run exactly as its original. Text processing only,
// independent of the reader's code; the input is a well-formed grouped trace of tracer version
// 3, 4 or 5 without line numbers (the shared traces).
#pragma once

#include <bit>
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

// Index of the memory-width word of an instruction line (no prefix, no line number).
inline size_t width_index(const std::vector<std::string>& w) {
  const size_t nd = std::stoul(w[2]);
  return 5 + nd + std::stoul(w[4 + nd]);
}

// Index of the address-mode word, or 0 when the line has no addresses.
inline size_t mode_index(const std::vector<std::string>& w) {
  const size_t width = width_index(w);
  return std::stoul(w[width]) > 0 ? width + 1 : 0;
}

// Index of the first word after the addresses (the immediate, if any).
inline size_t tail_index(const std::vector<std::string>& w) {
  const size_t m = mode_index(w);
  if (m == 0) return width_index(w) + 1;
  const int active = std::popcount(static_cast<uint32_t>(std::stoul(w[1], nullptr, 16)));
  switch (std::stoul(w[m])) {
    case 0: return m + 1 + active;
    case 1: return m + 3;
    default: return m + 2 + (active > 1 ? active - 1 : 0);
  }
}

enum class Format { kV4, kV5, kOld, kOld12, kV6, kMode0, kMode2 };

// Re-encodes a base-stride (mode 1) address list in mode 0 or 2, keeping what follows it.
inline std::string reencode(const std::vector<std::string>& w, size_t m, bool mode0) {
  const uint32_t mask = static_cast<uint32_t>(std::stoul(w[1], nullptr, 16));
  const uint64_t base = std::stoull(w[m + 1], nullptr, 16);
  const int64_t stride = std::stoll(w[m + 2]);
  std::vector<std::string> o(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(m));
  o.push_back(mode0 ? "0" : "2");
  std::ostringstream b;
  b << "0x" << std::hex << base;
  if (!mode0) o.push_back(b.str());  // mode 2 always has its base, even with no active lane
  uint64_t a = base;
  bool first = true;
  for (uint32_t l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    std::ostringstream s;
    if (mode0)
      s << "0x" << std::hex << a;
    else if (!first)
      s << stride;
    if (!s.str().empty()) o.push_back(s.str());
    a += static_cast<uint64_t>(stride);
    first = false;
  }
  o.insert(o.end(), w.begin() + static_cast<std::ptrdiff_t>(m + 3), w.end());
  return join(o);
}

// A version-6 line: the instruction, its immediate (0 when the input has none), a second one on
// every third line, then `NoVal` or `Val` with values for its registers (one value for the warp
// or 32, alternating).
inline std::string v6_line(const std::vector<std::string>& w, uint64_t n) {
  const size_t tail = tail_index(w);
  std::vector<std::string> o(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(tail));
  o.push_back(tail < w.size() ? w[tail] : "0");
  if (n % 3 == 0) o.push_back("7");
  if (n % 2 == 0) {
    o.push_back("NoVal");
  } else {
    o.push_back("Val");
    const size_t regs = std::stoul(w[2]) + std::stoul(w[4 + std::stoul(w[2])]);
    for (size_t r = 0; r < regs; ++r) {
      const uint32_t values = (n + r) % 2 ? 1 : 32;
      o.push_back(std::to_string(values));
      for (uint32_t v = 0; v < values; ++v) {
        std::ostringstream s;
        s << std::hex << (n * 977 + r * 31 + v) % 0x100000000;
        o.push_back(s.str());
      }
    }
  }
  return join(o);
}

// Applies `f` line by line. kV5 also numbers the lines and appends an immediate to every
// instruction line that has none (the tracer writes one only where the SASS has one).
inline std::string rewrite(const std::string& text, Format f) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string tb = "0 0 0", warp = "0";
  const bool old = f == Format::kOld || f == Format::kOld12;
  uint64_t lineno = 0;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> w = words(line);
    if (line.rfind("-accelsim tracer version", 0) == 0) {
      if (f == Format::kOld) continue;
      if (f == Format::kOld12) line = "-accelsim tracer version = 1.2";
      // Version 5 gets line numbers; version-3 files may have no lineinfo line to change.
      if (f == Format::kV5) line = "-accelsim tracer version = 5\n-enable lineinfo = 1";
      if (f == Format::kV6) line = "-accelsim tracer version = 6";
    } else if (line.rfind("-enable lineinfo", 0) == 0) {
      if (old || f == Format::kV5) continue;
    } else if (w.size() == 4 && w[0] == "thread" && w[1] == "block") {
      tb = w[3];
      for (char& c : tb)
        if (c == ',') c = ' ';
      if (f == Format::kV6) line += "\ncluster id = 0,0,0\ncluster cta = " + w[3] + "\ncluster rank = 0";
    } else if (w.size() == 3 && w[0] == "warp") {
      warp = w[2];
    } else if (is_instruction(w)) {
      ++lineno;
      const size_t m = mode_index(w);
      const bool has_imm = tail_index(w) < w.size();
      if (f == Format::kV5) {
        line = std::to_string(lineno) + " " + join(w) + (has_imm ? "" : " -" + std::to_string(lineno % 7));
      } else if (old) {
        line = tb + " " + warp + " " + join(w);
      } else if (f == Format::kV6) {
        line = v6_line(w, lineno);
      } else if ((f == Format::kMode0 || f == Format::kMode2) && m != 0 && w[m] == "1") {
        line = reencode(w, m, f == Format::kMode0);
      }
    }
    out << line << "\n";
  }
  return out.str();
}

}  // namespace l1d::sim::trace::variants
