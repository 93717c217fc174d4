// Accel-Sim / NVBit trace reader (trace_parser.h).
#include "sim_cpp/trace/trace_parser.h"

#include <algorithm>
#include <cstdint>
#include <bit>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string_view>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "sim_cpp/trace/line_head_cache.h"
#include "sim_cpp/trace/trace_error.h"

namespace l1d::sim::trace {
namespace {

namespace fs = std::filesystem;
using std::string_view;

// The addresses of an instruction's active lanes, lowest lane first.
using ActiveAddrs = std::array<Addr, kWarpSize>;
constexpr uint32_t kMaxRegOperands = 8;    // the tracer writes at most 1 destination and 5 sources
constexpr uint32_t kMaxTracerVersion = 6;  // Accel-Sim 2.0's tracer
constexpr uint32_t kMaxMemWidth = 1024;     // bytes per lane; only 1..16 reach the L1
constexpr uint32_t kMaxGridX = 0x7FFFFFFFu; // CUDA grid and block limits
constexpr uint32_t kMaxGridYZ = 65535;
constexpr uint32_t kMaxBlockThreads = 1024;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

string_view trim(string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// A token as it may appear in a message: printable, at most 40 characters.
std::string show(string_view t) {
  std::string s;
  for (char c : t.substr(0, 40)) s += (c >= 0x20 && c < 0x7F) ? c : '?';
  if (t.size() > 40) s += "...";
  return "'" + s + "'";
}

// The digits' values, 0xFF for other characters (one table look-up per character instead of
// std::from_chars's general base handling: the parser reads about 30 numbers per trace line).
constexpr std::array<uint8_t, 256> kDigit = [] {
  std::array<uint8_t, 256> t{};
  t.fill(0xFF);
  for (int c = 0; c < 10; ++c) t['0' + c] = static_cast<uint8_t>(c);
  for (int c = 0; c < 6; ++c) t['a' + c] = t['A' + c] = static_cast<uint8_t>(10 + c);
  return t;
}();

// Hex digits only (no prefix), the value within 64 bits.
bool parse_hex_digits(string_view t, uint64_t& v) {
  if (t.empty()) return false;
  uint64_t n = 0;
  for (const char c : t) {
    const uint64_t d = kDigit[static_cast<uint8_t>(c)];
    if (d >= 16 || n >> 60 != 0) return false;  // not a digit, or the shift would lose bits
    n = n << 4 | d;
  }
  v = n;
  return true;
}

// Decimal digits only (no sign), the value within 64 bits.
bool parse_dec_digits(string_view t, uint64_t& v) {
  constexpr uint64_t kTenth = UINT64_MAX / 10;  // 1844674407370955161; UINT64_MAX ends in 5
  if (t.empty()) return false;
  uint64_t n = 0;
  for (const char c : t) {
    const uint64_t d = kDigit[static_cast<uint8_t>(c)];
    if (d >= 10 || n > kTenth || (n == kTenth && d > UINT64_MAX % 10)) return false;
    n = n * 10 + d;
  }
  v = n;
  return true;
}

// A hex number may carry a 0x / 0X prefix.
bool parse_u64(string_view t, int base, uint64_t& v) {
  if (base != 16) return parse_dec_digits(t, v);
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
  return parse_hex_digits(t, v);
}

bool parse_i64(string_view t, int64_t& v) {
  const bool neg = !t.empty() && t[0] == '-';
  uint64_t m = 0;
  if (!parse_dec_digits(neg ? t.substr(1) : t, m)) return false;
  if (m > (neg ? uint64_t{1} << 63 : uint64_t{INT64_MAX})) return false;
  v = neg ? static_cast<int64_t>(0 - m) : static_cast<int64_t>(m);
  return true;
}

// R5, UR4 and (version 6, which lists predicate operands too) P0, UP1.
bool is_register(string_view t) {
  if (!t.empty() && t[0] == 'U') t.remove_prefix(1);
  if (t.size() < 2 || (t[0] != 'R' && t[0] != 'P')) return false;
  return std::all_of(t.begin() + 1, t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The scoreboard number of a register is_register() accepted (WarpInst::regs: R 0-255, UR 256-319,
// P 320-327, UP 328-335); -1 for the zero / true registers RZ, URZ, PT and UPT (the last of each
// file), which nothing waits for; -2 when out of range.
int32_t register_number(string_view t) {
  const bool uniform = t[0] == 'U';
  if (uniform) t.remove_prefix(1);
  const bool pred = t[0] == 'P';
  uint64_t n = 0;
  if (!parse_dec_digits(t.substr(1), n)) return -2;
  const uint64_t count = pred ? 8 : uniform ? 64 : 256;
  if (n >= count) return -2;
  if (n == count - 1) return -1;
  const uint64_t base = pred ? (uniform ? 328 : 320) : (uniform ? 256 : 0);
  return static_cast<int32_t>(base + n);
}

// An upper-case mnemonic and '.'-separated modifiers, which may hold lower case letters (the
// shapes of warpgroup MMAs: HGMMA.64x128x16.F32).
bool is_opcode(string_view t) {
  if (t.empty() || t[0] < 'A' || t[0] > 'Z') return false;
  return std::all_of(t.begin(), t.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
}

// A decimal field's first character (the immediates of version 6 come before the value marker).
bool is_numeric(string_view t) { return !t.empty() && ((t[0] >= '0' && t[0] <= '9') || t[0] == '-'); }

// Reads the blank-separated tokens of one line left to right, each when it is asked for (no
// token list); every problem names the field.
class Cursor {
 public:
  Cursor(string_view line, const LineReader& in) : rest_(line), in_(in) { skip_blanks(); }
  bool done() const { return rest_.empty(); }
  string_view peek() const {
    size_t n = 0;
    while (n < rest_.size() && !is_blank(rest_[n])) ++n;
    return rest_.substr(0, n);
  }
  string_view take(const char* what) {
    if (done()) in_.fail(std::string("truncated line: ") + what + " missing");
    const string_view t = peek();
    rest_.remove_prefix(t.size());
    skip_blanks();
    return t;
  }
  // hex() and dec() read the digits as they find the token's end (one pass over the characters
  // instead of take()'s and the number's); anything but plain digits ending in a blank or the
  // line's end, and any value they would reject, goes the general way, which decides and names
  // the error.
  uint64_t hex(const char* what) {
    const char* p = rest_.data();
    const char* const end = p + rest_.size();
    if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;  // as parse_u64
    const char* const digits = p;
    uint64_t n = 0;
    for (; p != end && n >> 60 == 0; ++p) {
      const uint64_t d = kDigit[static_cast<uint8_t>(*p)];
      if (d >= 16) break;
      n = n << 4 | d;
    }
    if (p == digits || (p != end && !is_blank(*p))) return hex_token(what);
    advance(p);
    return n;
  }
  uint64_t dec(const char* what, uint64_t max) {
    constexpr size_t kSafeDigits = 19;  // any 19 decimal digits fit in 64 bits
    const char* p = rest_.data();
    const char* const end = p + std::min(rest_.size(), kSafeDigits);
    uint64_t n = 0;
    for (; p != end; ++p) {
      const uint64_t d = kDigit[static_cast<uint8_t>(*p)];
      if (d >= 10) break;
      n = n * 10 + d;
    }
    const char* const stop = rest_.data() + rest_.size();
    if (p == rest_.data() || (p != stop && !is_blank(*p)) || n > max) return dec_token(what, max);
    advance(p);
    return n;
  }
  int64_t sdec(const char* what) {
    const string_view t = take(what);
    int64_t v = 0;
    if (!parse_i64(t, v)) in_.fail(fmt::format("bad {}: {} is not a signed 64-bit decimal", what, show(t)));
    return v;
  }
  // An immediate: tracers print it signed (%d) or unsigned (%lu), so both 64-bit ranges.
  void imm(const char* what) {
    const string_view t = take(what);
    int64_t s = 0;
    uint64_t u = 0;
    if (!parse_i64(t, s) && !parse_u64(t, 10, u))
      in_.fail(fmt::format("bad {}: {} is not a 64-bit decimal", what, show(t)));
  }

 private:
  void skip_blanks() {
    size_t n = 0;
    while (n < rest_.size() && is_blank(rest_[n])) ++n;
    rest_.remove_prefix(n);
  }
  // Past the token that ends before p, and the blanks after it.
  void advance(const char* p) {
    rest_.remove_prefix(static_cast<size_t>(p - rest_.data()));
    skip_blanks();
  }
  uint64_t hex_token(const char* what) {
    const string_view t = take(what);
    uint64_t v = 0;
    if (!parse_u64(t, 16, v)) in_.fail(fmt::format("bad {}: {} is not a 64-bit hex number", what, show(t)));
    return v;
  }
  uint64_t dec_token(const char* what, uint64_t max) {
    const string_view t = take(what);
    uint64_t v = 0;
    if (!parse_u64(t, 10, v)) in_.fail(fmt::format("bad {}: {} is not a decimal number", what, show(t)));
    if (v > max) in_.fail(fmt::format("bad {}: {} is over {}", what, v, max));
    return v;
  }

  string_view rest_;
  const LineReader& in_;
};

// The fast reading of an instruction line (KernelParser::fast_instruction): each field in one
// pass over its characters, with no error messages. A field it is not sure of makes it give up
// (false), and the line is read again by Cursor, which decides and names any error; so every
// field accepted here is one Cursor accepts, with the same value.
// Character classes of FastScan (one look-up instead of a chain of compares).
constexpr uint8_t kBlankChar = 1, kOpcodeChar = 2;
constexpr std::array<uint8_t, 256> kCharClass = [] {
  std::array<uint8_t, 256> t{};
  t[' '] = t['\t'] = kBlankChar;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = t[c + 'a' - 'A'] = kOpcodeChar;
  for (int c = '0'; c <= '9'; ++c) t[c] = kOpcodeChar;
  t['_'] = t['.'] = kOpcodeChar;
  return t;
}();

// Its members are always inlined, so that the position lives in a register.
#define L1D_FAST [[gnu::always_inline]] inline
struct FastScan {
  const char* p;
  const char* e;

  static bool blank(char c) { return kCharClass[static_cast<uint8_t>(c)] & kBlankChar; }

  L1D_FAST bool at_end() const { return p == e; }
  // After a field: its end must be a blank or the line's end; then past the blanks.
  L1D_FAST bool end_field() {
    if (p == e) return true;
    if (!blank(*p)) return false;
    do ++p;
    while (p != e && blank(*p));
    return true;
  }
  // Cursor::hex's numbers: an optional 0x / 0X prefix and 1 to 16 hex digits (a 17th digit or
  // anything else gives up: Cursor takes longer numbers with leading zeros, or fails).
  L1D_FAST bool hex(uint64_t& v) {
    // The common active mask, eight 'f's, in one compare.
    static constexpr char kFull[8] = {'f', 'f', 'f', 'f', 'f', 'f', 'f', 'f'};
    if (e - p >= 8 && std::memcmp(p, kFull, 8) == 0 && (e - p == 8 || blank(p[8]))) {
      p += 8;
      v = 0xFFFFFFFFu;
      return end_field();
    }
    if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;  // as Cursor::hex
    const char* const first = p;
    const char* const stop = e - p > 16 ? p + 16 : e;
    uint64_t n = 0;
    for (; p != stop; ++p) {
      const uint64_t d = kDigit[static_cast<uint8_t>(*p)];
      if (d >= 16) break;
      n = n << 4 | d;
    }
    v = n;
    return p != first && end_field();
  }
  // Cursor::dec's numbers, 1 to `digits` (at most 19) decimal digits, up to `max`.
  L1D_FAST bool dec(uint32_t digits, uint64_t max, uint64_t& v) {
    const char* const first = p;
    const char* const stop = static_cast<size_t>(e - p) > digits ? p + digits : e;
    uint64_t n = 0;
    for (; p != stop; ++p) {
      const uint64_t d = kDigit[static_cast<uint8_t>(*p)];
      if (d >= 10) break;
      n = n * 10 + d;
    }
    v = n;
    return p != first && n <= max && end_field();
  }
  // One digit 0..max (the operand counts, the address mode).
  L1D_FAST bool digit(uint32_t max, uint32_t& v) {
    if (p == e || static_cast<uint32_t>(*p - '0') > max) return false;
    v = static_cast<uint32_t>(*p++ - '0');
    return end_field();
  }
  // Cursor::sdec's and Cursor::imm's signed decimals: an optional '-' and 1 to 18 digits (no
  // overflow is possible; longer ones give up).
  L1D_FAST bool sdec(int64_t& v) {
    const bool neg = p != e && *p == '-';
    if (neg) ++p;
    uint64_t m = 0;
    if (!dec(18, UINT64_MAX, m)) return false;
    v = neg ? -static_cast<int64_t>(m) : static_cast<int64_t>(m);
    return true;
  }
  // A register operand as is_register() and register_number() read it, with 1 to 3 digits:
  // n = its scoreboard number, -1 for RZ / URZ / PT / UPT; gives up when out of range.
  L1D_FAST bool reg(int32_t& n) {
    const bool uniform = p != e && *p == 'U';
    if (uniform) ++p;
    if (p == e || (*p != 'R' && *p != 'P')) return false;
    const bool pred = *p++ == 'P';
    uint64_t v = 0;
    if (!dec(3, pred ? 7 : uniform ? 63 : 255, v)) return false;
    const uint64_t count = pred ? 8 : uniform ? 64 : 256;
    const uint64_t base = pred ? (uniform ? 328 : 320) : (uniform ? 256 : 0);
    n = v == count - 1 ? -1 : static_cast<int32_t>(base + v);
    return true;
  }
  // An opcode as is_opcode() accepts it.
  L1D_FAST bool opcode(string_view& op) {
    const char* const first = p;
    if (p == e || *p < 'A' || *p > 'Z') return false;
    while (p != e && kCharClass[static_cast<uint8_t>(*p)] == kOpcodeChar) ++p;
    op = string_view(first, static_cast<size_t>(p - first));
    return end_field();  // a character of another class gives up
  }
};

#undef L1D_FAST

// "(x,y,z)" or "x,y,z" (spaces allowed).
bool parse_dim3(string_view v, Dim3& d) {
  std::string s;
  for (char c : v)
    if (c != ' ' && c != '\t') s += c;
  string_view t = s;
  if (!t.empty() && t.front() == '(') {
    if (t.size() < 2 || t.back() != ')') return false;
    t = t.substr(1, t.size() - 2);
  }
  uint32_t* out[3] = {&d.x, &d.y, &d.z};
  for (int i = 0; i < 3; ++i) {
    const size_t comma = t.find(',');
    if ((comma == string_view::npos) != (i == 2)) return false;
    uint64_t n = 0;
    if (!parse_u64(t.substr(0, comma), 10, n) || n > 0xFFFFFFFFu) return false;
    *out[i] = static_cast<uint32_t>(n);
    if (comma != string_view::npos) t.remove_prefix(comma + 1);
  }
  return true;
}

std::string dim_str(const Dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

// The opcode without its modifiers ("LDG.E.64" -> "LDG"): the key of the opcode table.
string_view opcode_base(string_view opcode) { return opcode.substr(0, opcode.find('.')); }

// Bytes per lane: the tracer derives mem_width from the opcode, writing 4 for the signed
// sub-word types (it knows only U8/U16 and bit counts); S8 / S16 are fixed here.
uint32_t lane_width(string_view opcode, uint32_t mem_width) {
  size_t pos = opcode.find('.');
  while (pos != string_view::npos) {
    const size_t next = opcode.find('.', pos + 1);
    const string_view tok = opcode.substr(pos + 1, next == string_view::npos ? string_view::npos : next - pos - 1);
    if (tok == "S8") return 1;
    if (tok == "S16") return 2;
    pos = next;
  }
  return mem_width;
}

class KernelParser {
 public:
  KernelParser(LineReader& in, const ParseOptions& opt) : in_(in), opt_(opt) {}

  ParsedKernel run() {
    string_view line;
    read_header(line);
    stream_line(trim(line));
    while (in_.next(line)) stream_line(trim(line));
    finish_stream();
    return std::move(k_);
  }

  // run() with the instruction stream cut into parts at '#BEGIN_TB' lines, each part read from
  // its own source on its own thread (this one reads the first part on in_), and joined in file
  // order. A part starts outside any thread block, where every piece of the parser's state but
  // the thread blocks seen is reset before it is read; so when no part fails, no part ends
  // inside a thread block, no thread block is in two parts and the joined address count is
  // within bounds, the sequential reading would have read each part alike, and the join is its
  // result. Otherwise the sequential reading decides: an error in the first part is already its
  // error; any other problem re-reads the file on one reader, which gives its first error (or
  // its result). Errors are rare, so their double reading costs nothing in the normal case.
  ParsedKernel run_parts(const std::function<std::unique_ptr<ByteSource>()>& reopen) {
    string_view line;
    read_header(line);
    const std::vector<uint64_t> cuts = prefixed_ ? std::vector<uint64_t>{} : part_cuts(*reopen(), in_.offset());
    if (cuts.empty()) {
      stream_line(trim(line));
      while (in_.next(line)) stream_line(trim(line));
      finish_stream();
      return std::move(k_);
    }
    struct Part {
      std::unique_ptr<LineReader> in;
      std::unique_ptr<KernelParser> p;
      bool ok = false;
    };
    std::vector<Part> parts(cuts.size());
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < cuts.size(); ++i) {
      const uint64_t end = i + 1 < cuts.size() ? cuts[i + 1] : UINT64_MAX;
      Part& part = parts[i];
      part.in = std::make_unique<LineReader>(in_.name(), range_source(reopen(), cuts[i], end));
      part.p = std::make_unique<KernelParser>(*part.in, opt_);
      part.p->start_part(*this);
      threads.emplace_back([&part](std::stop_token stop) {
        try {
          string_view l;
          while (!stop.stop_requested() && part.in->next(l)) part.p->stream_line(trim(l));
          part.ok = !stop.stop_requested();
        } catch (...) {  // the sequential reading below finds the first error
        }
      });
    }
    // The first part: an error here is the sequential reading's (the threads stop and join).
    stream_line(trim(line));
    while (in_.offset() < cuts[0] && in_.next(line)) stream_line(trim(line));
    bool joined = true;
    for (size_t i = 0; i < parts.size(); ++i) {
      threads[i].join();
      joined = joined && parts[i].ok && join_part(*parts[i].p);
    }
    if (joined) {
      try {
        finish_stream();
        k_.parts = static_cast<uint32_t>(parts.size() + 1);
        return std::move(k_);
      } catch (const TraceError&) {  // its line is the first part's: the sequential reading tells
      }
    }
    LineReader again(in_.name(), reopen());
    return KernelParser(again, opt_).run();
  }

 private:
  void read_header(string_view& line) {
    k_.file = in_.name();
    bool started = false;
    while (in_.next(line)) {
      const string_view l = trim(line);
      if (l.empty()) continue;
      if (l[0] == '#') {
        started = true;
        break;
      }
      header_line(l);
    }
    if (!started) in_.fail(in_.line_number() == 0 ? "empty trace file" : "the file ends in the header (no '#' line)");
    finish_header();
  }

  // Byte offsets of '#BEGIN_TB' lines after `from` that cut the rest of `src` into up to
  // opt_.threads parts of at least opt_.min_part_bytes (each the first such line after an equal
  // share of the bytes).
  std::vector<uint64_t> part_cuts(ByteSource& src, uint64_t from) const {
    std::vector<uint64_t> cuts;
    const uint64_t size = src.size();
    if (size <= from || opt_.threads < 2) return cuts;
    const uint64_t parts = std::min<uint64_t>(opt_.threads, (size - from) / std::max<uint64_t>(1, opt_.min_part_bytes));
    static constexpr string_view kBegin = "\n#BEGIN_TB";
    std::string buf;
    for (uint64_t i = 1; i < parts; ++i) {
      uint64_t at = std::max(from + (size - from) / parts * i, cuts.empty() ? from : cuts.back() + 1) - 1;
      bool found = false;
      // Blocks overlap by the pattern's length, so a line start on a block edge is seen.
      for (; at < size && !found; at += (1 << 16) - kBegin.size() - 1) {
        const uint64_t n = std::min<uint64_t>(1 << 16, size - at);
        buf.resize(n);
        src.read_at(at, buf.data(), n);
        for (size_t p = buf.find(kBegin); p != std::string::npos; p = buf.find(kBegin, p + 1)) {
          const size_t e = p + kBegin.size();  // the line must be "#BEGIN_TB" alone
          if (e < buf.size() && (buf[e] == '\n' || (buf[e] == '\r' && e + 1 < buf.size() && buf[e + 1] == '\n'))) {
            cuts.push_back(at + p + 1);
            found = true;
            break;
          }
        }
        if (n < (1 << 16)) break;
      }
      if (!found) break;
    }
    return cuts;
  }

  // A part's parser starts as this one after its header, outside any thread block.
  void start_part(const KernelParser& first) {
    k_.file = first.k_.file;
    k_.header = first.k_.header;
    k_.isa = first.k_.isa;
    k_.ctas = first.k_.ctas;
    k_.warps_per_cta = first.k_.warps_per_cta;
    prefixed_ = first.prefixed_;
    fast_lines_ = first.fast_lines_;
    total_threads_ = first.total_threads_;
    reserve_for_grid_ = false;  // a part reads a share of the grid's blocks: join_part reserves
  }

  // Appends the next part's instructions; false when the sequential reading could differ (run_parts).
  bool join_part(KernelParser& part) {
    const ParsedKernel& p = part.k_;
    if (in_tb_) return false;
    if (k_.addrs.size() + p.addrs.size() > 0xFFFFFFFFu - kWarpSize) return false;
    for (const auto& [cta, warps] : part.tbs_)
      if (!tbs_.emplace(cta, warps).second) return false;
    if (k_.regs.size() + p.regs.size() > 0xFFFFFFFFu) return false;
    const auto base = static_cast<uint32_t>(k_.addrs.size());
    const auto reg_base = static_cast<uint32_t>(k_.regs.size());
    k_.insts.reserve(k_.insts.size() + p.insts.size());
    for (TraceInst t : p.insts) {
      if (t.kind == OpKind::kLoad || t.kind == OpKind::kStore) t.addr += base;
      t.regs += reg_base;
      k_.insts.push_back(t);
    }
    k_.addrs.insert(k_.addrs.end(), p.addrs.begin(), p.addrs.end());
    k_.regs.insert(k_.regs.end(), p.regs.begin(), p.regs.end());
    keys_.insert(keys_.end(), part.keys_.begin(), part.keys_.end());
    k_.trace_instructions += p.trace_instructions;
    k_.memory_instructions += p.memory_instructions;
    for (uint32_t c = 0; c < kTraceClasses; ++c) k_.by_class[c] += p.by_class[c];
    for (const auto& [op, n] : p.unknown_opcodes) k_.unknown_opcodes[op] += n;
    k_.wide_accesses += p.wide_accesses;
    in_tb_ = part.in_tb_;
    return true;
  }

  // --- header ---
  void header_line(string_view l) {
    if (l[0] != '-') in_.fail("expected a header line '-key = value' or the start of the instructions ('#')");
    const size_t eq = l.find('=');
    if (eq == string_view::npos) in_.fail("header line without '=': " + show(l));
    const std::string key(trim(l.substr(1, eq - 1)));
    const string_view v = trim(l.substr(eq + 1));
    if (!seen_keys_.emplace(key, in_.line_number()).second) in_.fail("header key '" + key + "' given twice");
    KernelHeader& h = k_.header;
    auto number = [&](uint64_t max) {
      uint64_t n = 0;
      if (!parse_u64(v, 10, n) || n > max) in_.fail(fmt::format("bad value of '{}': {} (a decimal number up to {})", key, show(v), max));
      return n;
    };
    auto address = [&] {
      uint64_t n = 0;
      if (!parse_u64(v, 16, n)) in_.fail(fmt::format("bad value of '{}': {} (a hex address)", key, show(v)));
      return n;
    };
    if (key == "kernel name") {
      if (v.empty()) in_.fail("empty kernel name");
      h.name = v;
    } else if (key == "kernel id") {
      int64_t id = 0;
      if (!parse_i64(v, id)) in_.fail("bad value of 'kernel id': " + show(v));
      h.kernel_id = id;
    } else if (key == "grid dim" || key == "block dim") {
      Dim3& d = key == "grid dim" ? h.grid : h.block;
      if (!parse_dim3(v, d)) in_.fail(fmt::format("bad value of '{}': {} (expected (x,y,z))", key, show(v)));
      if (d.x == 0 || d.y == 0 || d.z == 0) in_.fail(fmt::format("bad {} {}: every dimension must be at least 1", key, dim_str(d)));
      if (key == "grid dim") {
        if (d.x > kMaxGridX || d.y > kMaxGridYZ || d.z > kMaxGridYZ || d.count() > 0xFFFFFFFFu)
          in_.fail(fmt::format("bad grid dim {}: over the CUDA limits ({}, {}, {}) or 2^32 thread blocks", dim_str(d),
                               kMaxGridX, kMaxGridYZ, kMaxGridYZ));
      } else if (d.count() > kMaxBlockThreads) {
        in_.fail(fmt::format("bad block dim {}: {} threads, over {}", dim_str(d), d.count(), kMaxBlockThreads));
      }
    } else if (key == "shmem") {
      h.shmem = number(UINT64_MAX);
    } else if (key == "nregs") {
      h.nregs = number(UINT64_MAX);
    } else if (key == "cuda stream id") {
      h.stream_id = number(UINT64_MAX);
    } else if (key == "binary version") {
      h.binary_version = static_cast<uint32_t>(number(0xFFFFFFFFu));
    } else if (key == "shmem base_addr") {
      h.shmem_base = address();
    } else if (key == "local mem base_addr") {
      h.local_base = address();
    } else if (key == "nvbit version") {
      h.nvbit_version = v;
    } else if (key == "accelsim tracer version") {
      h.tracer_version = tracer_version(v);
      h.tracer_version_text = v;
    } else if (key == "enable lineinfo") {
      h.lineinfo = number(1) == 1;
    } else {
      h.ignored_keys.push_back(key);
    }
  }

  // "5", or "1.2" as NVBit-1.x-era tracers wrote it: Accel-Sim reads the integer part (its
  // sscanf("%d")), and the integer decides the format (below 3: the prefixed lines).
  uint32_t tracer_version(string_view v) const {
    bool ok = !v.empty();
    for (size_t b = 0; ok && b <= v.size();) {  // every '.'-separated part is digits
      const size_t e = std::min(v.find('.', b), v.size());
      const string_view part = v.substr(b, e - b);
      ok = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
      b = e + 1;
    }
    uint64_t n = 0;
    if (!ok || !parse_u64(v.substr(0, v.find('.')), 10, n))
      in_.fail(fmt::format("bad value of 'accelsim tracer version': {} (a version number such as 5 or 1.2)", show(v)));
    if (n > kMaxTracerVersion)
      in_.fail(fmt::format("unsupported accelsim tracer version {} (0 to {} are read; 0 to 2 are the prefixed format)", show(v),
                           kMaxTracerVersion));
    return static_cast<uint32_t>(n);
  }

  uint64_t key_line(const char* key) const {
    const auto it = seen_keys_.find(key);
    return it == seen_keys_.end() ? 0 : it->second;
  }

  void finish_header() {
    const KernelHeader& h = k_.header;
    const uint64_t at = in_.line_number();
    for (const char* key : {"kernel name", "grid dim", "block dim"})
      if (!key_line(key)) throw TraceError(k_.file, at, std::string("the header has no '-") + key + "' line");
    if (opt_.isa_override) {
      k_.isa = latencies_for(*opt_.isa_override);
      if (!k_.isa)
        throw TraceError(k_.file, 0, fmt::format("binary version {} (the override) is not in the SASS latency table (known: {})",
                                                 *opt_.isa_override, known_binary_versions()));
    } else {
      if (!key_line("binary version")) throw TraceError(k_.file, at, "the header has no '-binary version' line");
      k_.isa = latencies_for(h.binary_version);
      if (!k_.isa)
        throw TraceError(k_.file, key_line("binary version"),
                         fmt::format("binary version {} is not in the SASS latency table (known: {}); "
                                     "gpusim --trace-isa N times the trace as version N",
                                     h.binary_version, known_binary_versions()));
    }
    prefixed_ = opt_.prefixed || h.tracer_version < 3;
    fast_lines_ = opt_.fast_lines && !prefixed_ && h.tracer_version < 6;
    k_.ctas = static_cast<uint32_t>(h.grid.count());
    k_.warps_per_cta = static_cast<uint32_t>((h.block.count() + kWarpSize - 1) / kWarpSize);
    // Warps are numbered with 32 bits (ParsedKernel::warp_begin, the simulator's grid).
    if (uint64_t{k_.ctas} * k_.warps_per_cta > 0xFFFFFFFFu)
      throw TraceError(k_.file, key_line("grid dim"),
                       fmt::format("grid {} x block {} has over 2^32 warps", dim_str(h.grid), dim_str(h.block)));
    total_threads_ = uint64_t{k_.ctas} * k_.warps_per_cta * kWarpSize;
  }

  // --- instruction stream ---
  uint32_t cta_index(uint64_t x, uint64_t y, uint64_t z) {
    const Dim3& g = k_.header.grid;
    if (x >= g.x || y >= g.y || z >= g.z)
      in_.fail(fmt::format("thread block ({},{},{}) outside the grid {}", x, y, z, dim_str(g)));
    return static_cast<uint32_t>(x + g.x * (y + uint64_t{g.y} * z));
  }

  std::string tb_str(uint32_t cta) const {
    const Dim3& g = k_.header.grid;
    return fmt::format("({},{},{})", cta % g.x, cta / g.x % g.y, cta / g.x / g.y);
  }

  void close_warp() {
    if (warp_ < 0) return;
    if (!has_insts_) in_.fail(fmt::format("warp {} of thread block {} has no 'insts =' line", warp_, tb_str(cta_)));
    if (remaining_ != 0)
      in_.fail(fmt::format("warp {} of thread block {} declares {} instructions but has {}", warp_, tb_str(cta_),
                           declared_, declared_ - remaining_));
    warp_ = -1;
  }

  void stream_line(string_view l) {
    if (l.empty()) return;
    // An instruction line of a grouped trace (its first field a number: no other line starts
    // with a hex digit but 'cluster', which is not a number) goes the fast way when it can.
    if (fast_lines_ && kDigit[static_cast<uint8_t>(l[0])] < 16 && fast_instruction(l)) return;
    Cursor c(l, in_);
    const string_view first = c.take("");
    if (first == "#BEGIN_TB") {
      if (!c.done()) in_.fail("unexpected text after #BEGIN_TB");
      if (in_tb_) in_.fail("#BEGIN_TB inside a thread block (no #END_TB before it)");
      in_tb_ = true;
      tb_named_ = false;
      cluster_lines_ = 0;
      warp_ = -1;
      return;
    }
    if (first == "#END_TB") {
      if (!c.done()) in_.fail("unexpected text after #END_TB");
      if (!in_tb_) in_.fail("#END_TB outside a thread block");
      close_warp();
      if (!tb_named_) in_.fail("thread block without a 'thread block = x,y,z' line");
      in_tb_ = false;
      return;
    }
    if (first[0] == '#') return;  // comments, e.g. "#traces format = ..."
    if (first[0] == '-') in_.fail("header line after the start of the instructions");
    if (first == "thread" && c.peek() == "block") return thread_block_line(l);
    if (first == "cluster") return cluster_line(l);
    if (first == "warp" && !c.done() && c.peek()[0] == '=') return warp_line(l);
    if (first == "insts" && !c.done() && c.peek()[0] == '=') return insts_line(l);
    instruction_line(l);
  }

  uint64_t value_after_eq(string_view l, const char* what, uint64_t max) {
    const string_view v = trim(l.substr(l.find('=') + 1));
    uint64_t n = 0;
    if (!parse_u64(v, 10, n) || n > max) in_.fail(fmt::format("bad {} line: {}", what, show(l)));
    return n;
  }

  void thread_block_line(string_view l) {
    const size_t eq = l.find('=');
    if (eq == string_view::npos) in_.fail("bad thread block line: " + show(l));
    if (!in_tb_) in_.fail("'thread block' line outside #BEGIN_TB / #END_TB");
    if (tb_named_) in_.fail("second 'thread block' line in one thread block");
    Dim3 d;
    if (!parse_dim3(trim(l.substr(eq + 1)), d)) in_.fail("bad thread block line: " + show(l));
    cta_ = cta_index(d.x, d.y, d.z);
    if (!tbs_.emplace(cta_, 0).second) in_.fail("thread block " + tb_str(cta_) + " appears twice");
    tb_named_ = true;
    if (reserve_for_grid_) reserve_for_grid();
  }

  // Capacity only, no value: the kernel's arrays grow by doubling, and a trace's are large (the
  // 352-CTA elementwise benchmark's addresses are 17 MB), so each doubling copied the whole array
  // read so far, through the host caches (memcpy from classify: a sixth of the run's simulated
  // L2 misses; docs/performance.md, seventeenth round). At each thread block after the first, an
  // array whose capacity is short of what the blocks read so far predict for the whole grid is
  // reserved for that prediction and 1/8 more, and at least doubled (so never more copying than
  // doubling): a trace whose blocks are alike grows once, after its first block. The prediction
  // is capped at kReserveAheadBytes beyond what is read: the header's grid (up to 2^32 warps) may
  // promise far more blocks than the file holds, which only finish_stream finds, and a reservation
  // for them would fail as an allocation instead of as that error.
  void reserve_for_grid() {
    static constexpr uint64_t kReserveAheadBytes = uint64_t{1} << 28;
    const uint64_t done = tbs_.size() - 1;  // thread blocks read before this one
    if (done == 0 || done >= k_.ctas) return;
    const auto grow = [&](auto& v) {
      const uint64_t size = v.size();
      if (size > UINT64_MAX / k_.ctas) return;
      const uint64_t want = std::min(size * k_.ctas / done, size + kReserveAheadBytes / sizeof(v[0]));
      if (v.capacity() < want) v.reserve(std::max<uint64_t>(want + want / 8, 2 * uint64_t{v.capacity()}));
    };
    grow(k_.insts);
    grow(k_.addrs);
    grow(k_.regs);
    grow(keys_);
  }

  // Version-6 thread blocks name their Hopper thread block cluster after the 'thread block'
  // line: "cluster id = x,y,z", "cluster cta = x,y,z" (the block in its cluster), "cluster
  // rank = r". Checked and not used: the simulator models no clusters (no distributed shared
  // memory, no cluster scheduling).
  void cluster_line(string_view l) {
    static constexpr const char* kKeys[] = {"cluster id", "cluster cta", "cluster rank"};
    if (!in_tb_ || !tb_named_) in_.fail("'cluster' line outside a named thread block");
    if (warp_ >= 0) in_.fail("'cluster' line after the thread block's first warp");
    const size_t eq = l.find('=');
    const string_view key = trim(l.substr(0, eq)), value = eq == string_view::npos ? string_view{} : trim(l.substr(eq + 1));
    const auto* it = std::find(std::begin(kKeys), std::end(kKeys), key);
    const auto which = static_cast<uint32_t>(it - std::begin(kKeys));
    if (eq == string_view::npos || it == std::end(kKeys))
      in_.fail("bad cluster line " + show(l) + " (cluster id = x,y,z, cluster cta = x,y,z or cluster rank = r)");
    if (cluster_lines_ >> which & 1u) in_.fail(fmt::format("second '{}' line in one thread block", key));
    cluster_lines_ |= 1u << which;
    Dim3 d;
    uint64_t rank = 0;
    const bool ok = key == "cluster rank" ? parse_u64(value, 10, rank) && rank <= 0xFFFFFFFFu : parse_dim3(value, d);
    if (!ok) in_.fail(fmt::format("bad {} line: {} ({})", key, show(l), key == "cluster rank" ? "a decimal number" : "x,y,z"));
  }

  void warp_line(string_view l) {
    if (!in_tb_ || !tb_named_) in_.fail("'warp' line outside a named thread block");
    close_warp();
    const uint64_t w = value_after_eq(l, "warp", 0xFFFFFFFFu);
    if (w >= k_.warps_per_cta)
      in_.fail(fmt::format("warp {} outside a block of {} threads ({} warps)", w, k_.header.block.count(), k_.warps_per_cta));
    uint32_t& seen = tbs_[cta_];
    if (seen >> w & 1u) in_.fail(fmt::format("warp {} of thread block {} appears twice", w, tb_str(cta_)));
    seen |= 1u << w;
    warp_ = static_cast<int32_t>(w);
    has_insts_ = false;
    remaining_ = declared_ = 0;
  }

  void insts_line(string_view l) {
    if (warp_ < 0) in_.fail("'insts' line without a 'warp' line before it");
    if (has_insts_) in_.fail("second 'insts' line for one warp");
    declared_ = remaining_ = value_after_eq(l, "insts", UINT64_MAX);
    has_insts_ = true;
  }

  void instruction_line(string_view l) {
    Cursor c(l, in_);
    uint32_t cta = 0, warp = 0;
    if (prefixed_) {
      const uint64_t x = c.dec("thread block x", 0xFFFFFFFFu);
      const uint64_t y = c.dec("thread block y", 0xFFFFFFFFu);
      const uint64_t z = c.dec("thread block z", 0xFFFFFFFFu);
      const uint64_t w = c.dec("warp", 0xFFFFFFFFu);
      // Raw version-6 lines go on with the cluster: id x,y,z, cta x,y,z, rank (not used).
      if (k_.header.tracer_version >= 6)
        for (const char* what : {"cluster id x", "cluster id y", "cluster id z", "cluster cta x", "cluster cta y",
                                 "cluster cta z", "cluster rank"})
          c.dec(what, 0xFFFFFFFFu);
      cta = cta_index(x, y, z);
      if (w >= k_.warps_per_cta) in_.fail(fmt::format("warp {} outside a block of {} warps", w, k_.warps_per_cta));
      warp = static_cast<uint32_t>(w);
      if (in_tb_) {
        if (!tb_named_) in_.fail("instruction line before the 'thread block' line");
        if (cta != cta_) in_.fail("the line's thread block " + tb_str(cta) + " is not the current one " + tb_str(cta_));
        if (warp_ >= 0 && warp != static_cast<uint32_t>(warp_))
          in_.fail(fmt::format("the line's warp {} is not the current warp {}", warp, warp_));
      }
      if (warp_ >= 0) {
        if (!has_insts_) in_.fail("instruction line before the warp's 'insts =' line");
        if (remaining_ == 0) in_.fail(fmt::format("more instruction lines than 'insts = {}'", declared_));
        --remaining_;
      } else {
        tbs_[cta] |= 1u << warp;
      }
    } else {
      if (warp_ < 0 || !has_insts_) in_.fail("instruction line outside a warp (no 'warp =' / 'insts =' before it)");
      if (remaining_ == 0) in_.fail(fmt::format("more instruction lines than 'insts = {}'", declared_));
      --remaining_;
      cta = cta_;
      warp = static_cast<uint32_t>(warp_);
    }
    if (k_.header.lineinfo) c.dec("line number", 0xFFFFFFFFu);
    instruction_body(c, cta, warp);
  }

  // The local-memory address of `lane`: CUDA interleaves local memory so that the same offset of
  // consecutive threads is contiguous (CUDA C Programming Guide, "Local Memory"). The trace gives
  // each thread's address in its private local window; it becomes a unique address, in units of
  // max(4, width) bytes: unit (off / u) of thread g at region_u + (off / u) * T * u + g * u.
  Addr local_address(Addr a, uint32_t width, uint32_t cta, uint32_t warp, uint32_t lane) {
    const Addr base = k_.header.local_base;
    uint64_t off = 0;
    if (base != 0 && a >= base && a - base < kWindowBytes)
      off = a - base;
    else if (a < kWindowBytes)
      off = a;  // a window offset
    else
      in_.fail(fmt::format("local address {:#x} outside the local window ({:#x} + 16 MiB)", a, base));
    const uint64_t u = std::max<uint32_t>(4, width);
    const uint64_t region = u == 4 ? 1 : u == 8 ? 2 : 3;
    const uint64_t g = (uint64_t{cta} * k_.warps_per_cta + warp) * kWarpSize + lane;
    // total_threads_ <= 2^37 (finish_header) and u <= 16: the row size fits; the product is checked.
    const uint64_t row = total_threads_ * u;
    constexpr uint64_t kRegion = uint64_t{1} << 62;
    if (off / u >= kRegion / row) in_.fail("local memory footprint over the simulator's local region (2^62 B)");
    const uint64_t rel = off / u * row + g * u + off % u;  // < (off / u + 1) * row <= 2^62
    return (region << 62) + rel;
  }

  void instruction_body(Cursor& c, uint32_t cta, uint32_t warp) {
    TraceInst t;
    t.pc = c.hex("PC");
    const uint64_t mask = c.hex("active mask");
    if (mask > 0xFFFFFFFFu) in_.fail(fmt::format("active mask {:#x} wider than 32 lanes", mask));
    t.mask = static_cast<uint32_t>(mask);
    const uint64_t ndst = c.dec("destination count", kMaxRegOperands);
    const size_t first_reg = k_.regs.size();
    for (uint64_t i = 0; i < ndst; ++i) t.dsts += operand(c, "destination register");
    const string_view opcode = c.take("opcode");
    if (!is_opcode(opcode)) in_.fail("bad opcode " + show(opcode));
    const uint64_t nsrc = c.dec("source count", kMaxRegOperands);
    for (uint64_t i = 0; i < nsrc; ++i) t.srcs += operand(c, "source register");
    t.regs = static_cast<uint32_t>(first_reg);
    // Version 6 writes a commit-group flag after the sources of warpgroup MMAs (HGMMA, ...).
    if (k_.header.tracer_version >= 6 && opcode.find("GMMA") != string_view::npos) c.dec("GMMA commit-group flag", 1);
    const uint32_t mem_width = static_cast<uint32_t>(c.dec("memory width", kMaxMemWidth));

    // Addresses, of the active lanes in lane order.
    ActiveAddrs lanes{};
    uint32_t n = 0;
    if (mem_width > 0) {
      const uint64_t mode = c.dec("address mode", UINT64_MAX);
      if (mode == 0) {
        for (uint32_t l = 0; l < kWarpSize; ++l)
          if (t.mask >> l & 1u) lanes[n++] = c.hex("lane address");
      } else if (mode == 1) {
        const Addr base = c.hex("base address");
        const auto stride = static_cast<uint64_t>(c.sdec("stride"));
        if (t.mask != 0 && !std::has_single_bit((t.mask >> std::countr_zero(t.mask)) + uint64_t{1}))
          in_.fail(fmt::format("address mode 1 (base, stride) needs contiguous active lanes, mask {:#010x}", t.mask));
        Addr a = base;
        for (uint32_t l = 0; l < kWarpSize; ++l)
          if (t.mask >> l & 1u) lanes[n++] = a, a += stride;  // wraps like the hardware's 64-bit adder
      } else if (mode == 2) {
        Addr a = c.hex("base address");
        bool first = true;
        for (uint32_t l = 0; l < kWarpSize; ++l) {
          if (!(t.mask >> l & 1u)) continue;
          if (!first) a += static_cast<uint64_t>(c.sdec("address delta"));
          lanes[n++] = a;
          first = false;
        }
      } else {
        in_.fail(fmt::format("unknown address mode {} (0, 1 or 2)", mode));
      }
    }
    instruction_tail(c, ndst + nsrc);
    add_instruction(t, opcode, mem_width, lanes, cta, warp);
  }

  // What classify() needs of an opcode: its table entry (nullptr: unknown) and, for a memory
  // instruction, lane_width().
  struct OpcodeOf {
    const OpcodeInfo* info = nullptr;
    uint32_t lane_width = 0;
  };

  // The end of an instruction line's reading (instruction_body, fast_instruction): its class, and
  // the instruction and its counts kept. `stepped`: the lanes step by one stride (an
  // address-mode-1 line), which classify() then need not check, and only the first two lanes are
  // in `lanes` (classify() writes the others, from those two, if it needs them).
  // `op`: the opcode's table entry and lane width when the caller has them (the fast reader's
  // heads), else looked up here.
  void add_instruction(TraceInst& t, string_view opcode, uint32_t mem_width, ActiveAddrs& lanes,
                       uint32_t cta, uint32_t warp, bool stepped = false, std::optional<OpcodeOf> op = {}) {
    if (!op) op = OpcodeOf{find_opcode(opcode_base(opcode)), mem_width > 0 ? lane_width(opcode, mem_width) : 0};
    classify(t, opcode, *op, mem_width, lanes, cta, warp, stepped);
    ++k_.trace_instructions;
    k_.memory_instructions += mem_width > 0;
    ++k_.by_class[static_cast<uint32_t>(t.cls)];
    k_.insts.push_back(t);
    keys_.push_back(cta * k_.warps_per_cta + warp);
  }

  // instruction_line() for the common line (a grouped trace, tracer version below 6, inside a
  // warp that has instructions left), read by FastScan without Cursor. Nothing changes unless
  // every field was read: false leaves the line to the general reading, which then reads it
  // alike or names its error. Only add_instruction() may fail here, as it would there.
  bool fast_instruction(string_view l) {
    if (warp_ < 0 || !has_insts_ || remaining_ == 0) return false;
    FastScan s{l.data(), l.data() + l.size()};
    // The head (through the memory width): as read before when the line starts with a head kept
    // in heads_ (line_head_cache.h), else read here and kept.
    uint32_t head_bytes = 0;
    const LineHeadFields* h = heads_.find(l, head_bytes);
    if (h != nullptr) {
      s.p += head_bytes;
      while (s.p != s.e && FastScan::blank(*s.p)) ++s.p;  // as end_field() after the width
    } else {
      if (!fast_head(s, read_head_)) return false;
      h = &read_head_;
      heads_.put(l, static_cast<uint32_t>(s.p - l.data()), read_head_);
    }
    TraceInst t;
    t.pc = h->pc;
    t.mask = h->mask;
    t.dsts = h->dsts;
    t.srcs = h->srcs;
    const string_view opcode = l.substr(h->opcode_at, h->opcode_len);
    const uint32_t mem_width = h->mem_width;
    ActiveAddrs lanes;  // (only the first popcount(mask) are read; of a mode-1 line the first two)
    uint32_t n = 0;
    bool stepped = false;
    if (mem_width > 0) {
      uint32_t mode = 0;
      if (!s.digit(2, mode)) return false;
      if (mode == 0) {
        for (uint32_t m = t.mask; m != 0; m &= m - 1)
          if (!s.hex(lanes[n++])) return false;
      } else {
        Addr a = 0;
        int64_t step = 0;
        if (!s.hex(a)) return false;
        if (mode == 1) {
          if (!s.sdec(step)) return false;
          if (t.mask != 0 && !std::has_single_bit((t.mask >> std::countr_zero(t.mask)) + uint64_t{1})) return false;
          // contiguous lanes: the k-th at base + k * stride (wrapping); classify() writes the
          // lanes after the first two only if it keeps the line's lanes listed
          lanes[0] = a;
          lanes[1] = a + static_cast<uint64_t>(step);
          stepped = true;
        } else {
          for (uint32_t m = t.mask; m != 0; m &= m - 1) {  // as instruction_body: the lowest lane first
            if (m != t.mask) {
              if (!s.sdec(step)) return false;
              a += static_cast<uint64_t>(step);
            }
            lanes[n++] = a;
          }
        }
      }
    }
    int64_t imm = 0;
    const uint32_t nregs = uint32_t{h->dsts} + h->srcs;
    if (!s.at_end() && !s.sdec(imm)) return false;  // one immediate, as instruction_tail reads it
    if (!s.at_end() || k_.regs.size() + nregs > 0xFFFFFFFFu) return false;
    --remaining_;
    t.regs = static_cast<uint32_t>(k_.regs.size());
    k_.regs.resize(k_.regs.size() + nregs);  // one growth check instead of one per operand
    std::copy_n(h->regs.data(), nregs, k_.regs.data() + t.regs);
    add_instruction(t, opcode, mem_width, lanes, cta_, static_cast<uint32_t>(warp_), stepped,
                    OpcodeOf{h->info, h->lane_width});
    return true;
  }

  // The head of a fast line (fast_instruction): the optional line number, PC, mask, destinations,
  // opcode, sources and memory width, and the blanks after it; false where the general reading
  // must decide.
  bool fast_head(FastScan& s, LineHeadFields& f) {
    const char* const line = s.p;
    uint64_t v = 0;
    if (k_.header.lineinfo && !s.dec(10, 0xFFFFFFFFu, v)) return false;
    if (!s.hex(f.pc) || !s.hex(v) || v > 0xFFFFFFFFu) return false;
    f.mask = static_cast<uint32_t>(v);
    uint32_t nregs = 0, ndst = 0, nsrc = 0;
    f.dsts = f.srcs = 0;
    int32_t r = 0;
    if (!s.digit(kMaxRegOperands, ndst)) return false;
    for (uint32_t i = 0; i < ndst; ++i) {
      if (!s.reg(r)) return false;
      if (r >= 0) f.regs[nregs++] = static_cast<uint16_t>(r), ++f.dsts;
    }
    string_view opcode;
    if (!s.opcode(opcode) || !s.digit(kMaxRegOperands, nsrc)) return false;
    if (opcode.data() - line > 0xFFFF || opcode.size() > 0xFFFF) return false;
    f.opcode_at = static_cast<uint16_t>(opcode.data() - line);
    f.opcode_len = static_cast<uint16_t>(opcode.size());
    for (uint32_t i = 0; i < nsrc; ++i) {
      if (!s.reg(r)) return false;
      if (r >= 0) f.regs[nregs++] = static_cast<uint16_t>(r), ++f.srcs;
    }
    if (!s.dec(4, kMaxMemWidth, v)) return false;
    f.mem_width = static_cast<uint32_t>(v);
    f.info = find_opcode(opcode_base(opcode));
    f.lane_width = f.mem_width > 0 ? lane_width(opcode, f.mem_width) : 0;
    return true;
  }

  // One register operand, kept in k_.regs unless it is RZ, URZ, PT or UPT; returns whether it was kept.
  bool operand(Cursor& c, const char* what) {
    const string_view r = c.take(what);
    if (!is_register(r)) in_.fail(fmt::format("bad {} {}", what, show(r)));
    const int32_t n = register_number(r);
    if (n == -2) in_.fail(fmt::format("{} {} out of range (R0-R255, UR0-UR63, P0-P7, UP0-UP7)", what, show(r)));
    if (n < 0) return false;
    if (k_.regs.size() >= 0xFFFFFFFFu) in_.fail("over 2^32 register operands in one kernel");
    k_.regs.push_back(static_cast<uint16_t>(n));
    return true;
  }

  // After the addresses: the immediate (newer version-4/5 tracers write one, older ones none);
  // version 6 may add a second one, then `NoVal`, or `Val` and the values of the instruction's
  // `regs` registers (destinations, then sources). Values are checked and not used: the
  // simulator needs no data (docs/simulator.md, "Addresses and data").
  void instruction_tail(Cursor& c, uint64_t regs) {
    const bool v6 = k_.header.tracer_version >= 6;
    const uint32_t immediates = v6 ? 2 : 1;
    for (uint32_t i = 0; i < immediates && !c.done() && (!v6 || is_numeric(c.peek())); ++i) c.imm("immediate");
    if (v6 && !c.done()) register_values(c, regs);
    if (!c.done()) in_.fail("unexpected text after the instruction: " + show(c.peek()));
  }

  static bool is_value_marker(string_view t) { return t == "Val" || t == "NoVal"; }

  // `Val`, then per register the number of distinct values (1: the whole warp's, 32: one per
  // lane) and that many hex values (32 bits: registers are 32 bits wide).
  void register_values(Cursor& c, uint64_t regs) {
    const string_view marker = c.take("register value marker");
    if (!is_value_marker(marker)) in_.fail(fmt::format("bad register value marker {} (Val or NoVal)", show(marker)));
    if (marker == "NoVal") return;
    for (uint64_t r = 0; r < regs; ++r) {
      const uint64_t n = c.dec("register value count", UINT64_MAX);
      if (n != 1 && n != kWarpSize)
        in_.fail(fmt::format("bad register value count {} for register {} of {} (1 for the warp or 32, one per lane)", n, r + 1,
                             regs));
      for (uint64_t i = 0; i < n; ++i)
        if (const uint64_t v = c.hex("register value"); v > 0xFFFFFFFFu)
          in_.fail(fmt::format("register value {:#x} over 32 bits", v));
    }
  }

  // `stepped`: as add_instruction's.
  void classify(TraceInst& t, string_view opcode, const OpcodeOf& op, uint32_t mem_width, ActiveAddrs& lanes,
                uint32_t cta, uint32_t warp, bool stepped) {
    const OpcodeInfo* info = op.info;
    if (info == nullptr) {
      ++k_.unknown_opcodes[std::string(opcode_base(opcode))];
      t.cls = TraceClass::kUnknown;
      t.latency = static_cast<uint16_t>(k_.isa->of(LatencyClass::kInt));
      return;
    }
    t.latency = static_cast<uint16_t>(k_.isa->of(info->lat));
    SassClass cls = info->cls;
    if (cls == SassClass::kGenericLoad || cls == SassClass::kGenericStore) {
      const bool load = cls == SassClass::kGenericLoad;
      cls = load ? SassClass::kGlobalLoad : SassClass::kGlobalStore;
      if (t.mask != 0 && mem_width > 0) {
        const Addr a = lanes[0];  // the first active lane's
        const KernelHeader& h = k_.header;
        if (h.shmem_base != 0 && a >= h.shmem_base && a - h.shmem_base < kWindowBytes) {
          cls = SassClass::kShared;
          t.latency = static_cast<uint16_t>(k_.isa->of(LatencyClass::kShared));
        } else if (h.local_base != 0 && a >= h.local_base && a - h.local_base < kWindowBytes) {
          cls = load ? SassClass::kLocalLoad : SassClass::kLocalStore;
        }
      }
    }
    switch (cls) {
      case SassClass::kGlobalLoad: t.cls = TraceClass::kGlobalLoad; break;
      case SassClass::kGlobalStore: t.cls = TraceClass::kGlobalStore; break;
      case SassClass::kLocalLoad: t.cls = TraceClass::kLocalLoad; break;
      case SassClass::kLocalStore: t.cls = TraceClass::kLocalStore; break;
      case SassClass::kShared: t.cls = TraceClass::kShared; return;
      case SassClass::kConstant: t.cls = TraceClass::kConstant; return;
      case SassClass::kTexture: t.cls = TraceClass::kTexture; return;
      case SassClass::kAtomic: t.cls = TraceClass::kAtomic; return;
      case SassClass::kBarrier:
        t.cls = TraceClass::kBarrier;
        // BAR.ARV arrives without waiting; a barrier no lane executes is predicated off.
        if (t.mask != 0 && opcode.find(".ARV") == string_view::npos) t.kind = OpKind::kBarrier;
        return;
      case SassClass::kExit: t.cls = TraceClass::kExit; return;  // the warp's last one becomes kExit later
      case SassClass::kUnsupported:
        in_.fail("unsupported instruction " + std::string(opcode_base(opcode)) + " (TMA bulk copy)");
      default: t.cls = TraceClass::kAlu; return;
    }
    // A load or store through the L1.
    const bool local = t.cls == TraceClass::kLocalLoad || t.cls == TraceClass::kLocalStore;
    const bool load = t.cls == TraceClass::kGlobalLoad || t.cls == TraceClass::kLocalLoad;
    if (mem_width == 0) in_.fail(std::string(opcode) + " without memory addresses (memory width 0)");
    const uint32_t width = op.lane_width;
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
      in_.fail(fmt::format("memory width {} of {} is not 1, 2, 4, 8 or 16 bytes", width, opcode));
    t.width = static_cast<uint8_t>(width);
    k_.wide_accesses += width == 16;
    if (t.mask == 0) return;  // predicated off in every lane: no access, runs as an ALU instruction
    t.kind = load ? OpKind::kLoad : OpKind::kStore;
    if (k_.addrs.size() > 0xFFFFFFFFu - kWarpSize) in_.fail("over 2^32 memory addresses in one kernel");
    t.addr = static_cast<uint32_t>(k_.addrs.size());
    const uint32_t n = lane_count(t.mask);
    if (!local) {  // all aligned (the common case): kept as they are, strided or in one copy
      // One pass over the lanes without an early exit, so that it vectorises: their OR (the
      // alignment) and the OR of every step's difference from the first step (0: one stride).
      // Lanes known to step (lane k = lane 0 + k * step, modulo 2^64) are all aligned when the
      // first two are: the step is then a multiple of the power-of-two width.
      // A mode-1 line's lanes after the second are written only when they are kept listed.
      const Addr second = n >= 2 ? lanes[1] : lanes[0];
      const uint64_t step = second - lanes[0];
      Addr low = lanes[0];
      uint64_t uneven = 0;
      if (stepped) {
        low |= second;
      } else {
        for (uint32_t i = 1; i < n; ++i) {
          low |= lanes[i];
          uneven |= (lanes[i] - lanes[i - 1]) ^ step;
        }
      }
      if ((low & (width - 1)) == 0) {
        const Addr last = stepped ? lanes[0] + step * (n - 1) : lanes[n - 1];  // wraps as the lanes' adds
        if (uneven == 0 && strided_form(t, lanes[0], second, last, n)) {
          k_.addrs.push_back(lanes[0]);
        } else {
          if (stepped) step_lanes(lanes, n);
          k_.addrs.insert(k_.addrs.end(), lanes.begin(), lanes.begin() + n);
        }
        return;
      }
    }
    if (stepped) step_lanes(lanes, n);
    k_.addrs.resize(k_.addrs.size() + n);
    Addr* out = k_.addrs.data() + t.addr;
    uint32_t i = 0;
    for (uint32_t m = t.mask; m != 0; m &= m - 1) {  // the active lanes, lowest first
      const auto l = static_cast<uint32_t>(std::countr_zero(m));
      const Addr a = lanes[i++];
      if ((a & (width - 1)) != 0)  // width is a power of two
        in_.fail(fmt::format("lane {} address {:#x} is not aligned to the access width {}", l, a, width));
      *out++ = local ? local_address(a, width, cta, warp, l) : a;
    }
  }

  // Whether the n >= 2 active lanes' addresses (first, second, ..., last), which the caller found
  // to step by one stride, step by less than a page, all in one 2 MiB page (TraceInst's strided
  // form); if so, sets t.stride. The span is then under 2^26 bytes, so an address sequence that
  // wrapped past 2^64 would end on another page.
  static bool strided_form(TraceInst& t, Addr first, Addr second, Addr last, uint32_t n) {
    if (n < 2) return false;
    const auto stride = static_cast<int64_t>(second - first);
    if (stride <= -(int64_t{1} << kPageBits) || stride >= int64_t{1} << kPageBits) return false;
    if (first >> kPageBits != last >> kPageBits) return false;
    t.stride = static_cast<int32_t>(stride);
    return true;
  }

  // The lanes of a mode-1 line after its first two (fast_instruction writes those): the k-th at
  // the first + k * step, one add each (wrapping like the hardware's 64-bit adder); the step is
  // the difference of the first two.
  static void step_lanes(ActiveAddrs& lanes, uint32_t n) {
    const uint64_t step = lanes[1] - lanes[0];
    for (uint32_t k = 2; k < n; ++k) lanes[k] = lanes[k - 1] + step;
  }

  void finish_stream() {
    if (in_tb_) in_.fail("the file ends inside a thread block (no #END_TB)");
    const uint64_t at = in_.line_number();
    const uint32_t full = k_.warps_per_cta == 32 ? 0xFFFFFFFFu : (1u << k_.warps_per_cta) - 1;
    if (tbs_.size() < k_.ctas) {
      uint32_t missing = 0;
      while (tbs_.count(missing)) ++missing;
      throw TraceError(k_.file, at, fmt::format("the trace has {} of the grid's {} thread blocks (first missing: {})",
                                                tbs_.size(), k_.ctas, tb_str(missing)));
    }
    for (uint32_t cta = 0; cta < k_.ctas; ++cta) {
      const uint32_t seen = tbs_.at(cta);
      if (seen != full)
        throw TraceError(k_.file, at, fmt::format("thread block {} has no trace of warp {}", tb_str(cta),
                                                  std::countr_zero(~seen & full)));
    }
    group_by_warp();
  }

  // Orders the instructions warp by warp (stable: each warp keeps its program order) and marks
  // each warp's end: a final EXIT / RET ends the warp, other EXIT / RET run as ALU instructions
  // (a partial-mask exit); a warp whose trace ends otherwise gets an exit appended.
  void group_by_warp() {
    const uint32_t warps = k_.warps();
    if (!std::is_sorted(keys_.begin(), keys_.end())) {
      std::vector<uint32_t> order(keys_.size());
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
      std::vector<TraceInst> sorted;
      sorted.reserve(order.size());
      for (uint32_t i : order) sorted.push_back(k_.insts[i]);
      k_.insts = std::move(sorted);
      std::sort(keys_.begin(), keys_.end());
    }
    k_.warp_begin.assign(size_t{warps} + 1, 0);
    for (uint32_t key : keys_) ++k_.warp_begin[size_t{key} + 1];
    for (uint32_t w = 0; w < warps; ++w) k_.warp_begin[w + 1] += k_.warp_begin[w];
    k_.synthetic_exit.assign(warps, 0);
    for (uint32_t w = 0; w < warps; ++w) {
      const uint64_t b = k_.warp_begin[w], e = k_.warp_begin[w + 1];
      if (e > b && k_.insts[e - 1].cls == TraceClass::kExit) {
        k_.insts[e - 1].kind = OpKind::kExit;
      } else {
        k_.synthetic_exit[w] = 1;
        ++k_.synthetic_exits;
      }
    }
  }

  // lookup_opcode through a small direct-mapped cache (a trace uses a few dozen mnemonics; the
  // table's hash costs more than the rest of an ALU line's reading).
  const OpcodeInfo* find_opcode(string_view base) {
    const size_t h = (base.size() * 7 + static_cast<uint8_t>(base.front()) * 3 + static_cast<uint8_t>(base.back())) %
                     opcode_cache_.size();
    OpcodeCacheEntry& e = opcode_cache_[h];
    if (!e.valid || e.name != base) e = {true, std::string(base), lookup_opcode(base)};
    return e.info;
  }

  struct OpcodeCacheEntry {
    bool valid = false;
    std::string name;
    const OpcodeInfo* info = nullptr;
  };
  std::array<OpcodeCacheEntry, 64> opcode_cache_;
  LineHeadCache heads_;        // fast_instruction's heads read before
  LineHeadFields read_head_;   // a head fast_instruction read this time
  static_assert(LineHeadFields::kMaxRegs >= 2 * kMaxRegOperands, "a head's registers fit");

  LineReader& in_;
  const ParseOptions& opt_;
  ParsedKernel k_;
  std::unordered_map<std::string, uint64_t> seen_keys_;  // header key -> line
  bool prefixed_ = false;
  bool fast_lines_ = false;  // instruction lines may go the fast way (fast_instruction)
  bool reserve_for_grid_ = true;  // reserve_for_grid() at each thread block
  uint64_t total_threads_ = 0;

  std::vector<uint32_t> keys_;                  // per instruction: cta * warps_per_cta + warp
  std::unordered_map<uint32_t, uint32_t> tbs_;  // thread blocks seen -> warps seen (bit mask)
  bool in_tb_ = false, tb_named_ = false;
  uint32_t cluster_lines_ = 0;  // cluster id / cta / rank lines seen in this thread block (bits)
  uint32_t cta_ = 0;
  int32_t warp_ = -1;  // current warp of a 'warp =' line, -1 when none
  bool has_insts_ = false;
  uint64_t declared_ = 0, remaining_ = 0;
};

bool ends_with(const std::string& s, string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Kernel trace names of a command list: the grouped `.traceg` (plain, xz or zstd), Accel-Sim
// 2.0's `.tracez` container, and the tracer's raw `.trace` (plain, xz or zstd; every line prefixed).
constexpr string_view kRawSuffixes[] = {".trace", ".trace.xz", ".trace.zst"};
constexpr string_view kKernelSuffixes[] = {".traceg", ".traceg.xz", ".traceg.zst", ".tracez",
                                           ".trace",  ".trace.xz",  ".trace.zst"};

bool is_kernel_file(const std::string& name) {
  return std::any_of(std::begin(kKernelSuffixes), std::end(kKernelSuffixes), [&](string_view s) { return ends_with(name, s); });
}

bool is_raw_trace(const std::string& name) {
  return std::any_of(std::begin(kRawSuffixes), std::end(kRawSuffixes), [&](string_view s) { return ends_with(name, s); });
}

std::string kernel_file_kinds() {
  std::string s;
  for (string_view k : kKernelSuffixes) s += (s.empty() ? "" : ", ") + std::string(k);
  return s;
}

}  // namespace

const char* to_string(TraceClass c) {
  switch (c) {
    case TraceClass::kGlobalLoad: return "global_load";
    case TraceClass::kGlobalStore: return "global_store";
    case TraceClass::kLocalLoad: return "local_load";
    case TraceClass::kLocalStore: return "local_store";
    case TraceClass::kShared: return "shared";
    case TraceClass::kConstant: return "constant";
    case TraceClass::kTexture: return "texture";
    case TraceClass::kAtomic: return "atomic";
    case TraceClass::kBarrier: return "barrier";
    case TraceClass::kExit: return "exit";
    case TraceClass::kAlu: return "alu";
    case TraceClass::kUnknown: return "unknown";
  }
  return "?";
}

ParsedKernel parse_kernel(LineReader& in, const ParseOptions& opt) { return KernelParser(in, opt).run(); }

ParsedKernel parse_kernel_parts(LineReader& in, const std::function<std::unique_ptr<ByteSource>()>& reopen,
                                const ParseOptions& opt) {
  return KernelParser(in, opt).run_parts(reopen);
}

std::string kernelslist_path(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return (fs::path(path) / "kernelslist.g").string();
  return path;
}

std::vector<CommandLine> parse_kernelslist(LineReader& in, const std::string& dir, uint64_t* ignored) {
  std::vector<CommandLine> out;
  std::string line;
  uint32_t kernels = 0;
  while (in.next(line)) {
    const string_view l = trim(line);
    if (l.empty()) continue;
    CommandLine c;
    c.cmd.line = in.line_number();
    if (l.starts_with("MemcpyHtoD")) {
      // MemcpyHtoD,0xADDR,BYTES
      std::vector<string_view> f;
      size_t start = 0;
      for (size_t comma; (comma = l.find(',', start)) != string_view::npos; start = comma + 1)
        f.push_back(trim(l.substr(start, comma - start)));
      f.push_back(trim(l.substr(start)));
      if (f.size() != 3 || f[0] != "MemcpyHtoD") in.fail("bad copy command " + show(l) + " (expected MemcpyHtoD,0xADDR,BYTES)");
      c.cmd.kind = TraceCommand::Kind::kMemcpy;
      if (!f[1].starts_with("0x") || !parse_u64(f[1], 16, c.cmd.addr)) in.fail("bad copy address " + show(f[1]));
      if (!parse_u64(f[2], 10, c.cmd.bytes)) in.fail("bad copy size " + show(f[2]));
      if (c.cmd.bytes > UINT64_MAX - c.cmd.addr) in.fail("the copy wraps around the address space");
    } else if (l.starts_with("MemcpyDtoH")) {
      if (ignored) ++*ignored;  // device-to-host: nothing changes on the device
      continue;
    } else {
      const std::string name(l);
      if (!is_kernel_file(name))
        in.fail("neither a MemcpyHtoD command nor a kernel trace file (" + kernel_file_kinds() + "): " + show(l));
      c.cmd.kind = TraceCommand::Kind::kKernel;
      c.cmd.kernel = kernels++;
      const fs::path p(name);
      c.kernel_path = p.is_absolute() ? name : (fs::path(dir) / p).string();
    }
    out.push_back(std::move(c));
  }
  if (kernels == 0) throw TraceError(in.name(), in.line_number(), "the command list names no kernel trace");
  return out;
}

TraceSet parse_trace_dir(const std::string& path, const ParseOptions& opt) {
  TraceSet s;
  s.list_file = kernelslist_path(path);
  const std::unique_ptr<LineReader> list = LineReader::open_file(s.list_file);
  const std::string dir = fs::path(s.list_file).parent_path().string();
  for (CommandLine& c : parse_kernelslist(*list, dir.empty() ? "." : dir, &s.ignored_commands)) {
    if (c.cmd.kind == TraceCommand::Kind::kKernel) {
      std::unique_ptr<LineReader> in;
      try {
        in = LineReader::open_file(c.kernel_path);
      } catch (const TraceError& e) {
        throw TraceError(s.list_file, c.cmd.line, e.what());
      }
      ParseOptions o = opt;
      o.prefixed = opt.prefixed || is_raw_trace(c.kernel_path);
      if (opt.threads > 1 && codec_for(c.kernel_path) == Codec::kPlain)
        s.kernels.push_back(parse_kernel_parts(*in, [&c] { return file_source(c.kernel_path); }, o));
      else
        s.kernels.push_back(parse_kernel(*in, o));
    }
    s.commands.push_back(c.cmd);
  }
  return s;
}

BinaryVersion peek_binary_version(const std::string& path) {
  const std::string list_file = kernelslist_path(path);
  const std::unique_ptr<LineReader> list = LineReader::open_file(list_file);
  const std::string dir = fs::path(list_file).parent_path().string();
  for (const CommandLine& c : parse_kernelslist(*list, dir.empty() ? "." : dir)) {
    if (c.cmd.kind != TraceCommand::Kind::kKernel) continue;
    std::unique_ptr<LineReader> in;
    try {
      in = LineReader::open_file(c.kernel_path);
    } catch (const TraceError& e) {
      throw TraceError(list_file, c.cmd.line, e.what());
    }
    // The header only: `-key = value` lines up to the first '#' (the parser checks the rest).
    std::string line;
    while (in->next(line)) {
      const string_view l = trim(line);
      if (l.empty()) continue;
      if (l[0] == '#') break;
      const size_t eq = l.find('=');
      if (l[0] != '-' || eq == string_view::npos || trim(l.substr(1, eq - 1)) != "binary version") continue;
      const string_view v = trim(l.substr(eq + 1));
      uint64_t n = 0;
      if (!parse_u64(v, 10, n) || n > 0xFFFFFFFFu)
        in->fail(fmt::format("bad value of 'binary version': {} (a decimal number)", show(v)));
      return {static_cast<uint32_t>(n), in->name(), in->line_number()};
    }
    throw TraceError(in->name(), in->line_number(), "the header has no '-binary version' line");
  }
  throw TraceError(list_file, 0, "the command list names no kernel trace");  // parse_kernelslist refuses it first
}

}  // namespace l1d::sim::trace
