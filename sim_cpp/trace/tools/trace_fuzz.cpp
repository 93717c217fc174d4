// trace_fuzz: randomized mutation test of the trace reader (docs/simulator.md, "Real traces").
//
// Seeds: the first kernel trace and the copies of each shared trace (--traces DIR, one folder per
// trace: tracer versions 3 to 5, Pascal to Hopper), each also rewritten into the other formats
// the reader takes (version 5 with line numbers and immediates, the old prefixed format and the
// same with the NVBit-1.x version "1.2", version 6 with cluster lines, second immediates and
// register values, address modes 0 and 2 with their single-lane and zero-mask lines:
// sim_cpp/trace/test/trace_variants.h). Every input is a seed with 0 to 8 random mutations (line
// deletion, duplication, swap, truncation, token replacement by boundary values and keywords,
// number tweaks, inserted bytes and lines, a cut file); some are also read compressed (xz, zstd,
// or as a .tracez container: sim_cpp/trace/test/trace_pack.h), half of those corrupted. Each
// input goes through the whole reader: command list, kernel trace, the workload (page table,
// copies) and every warp's instruction stream.
//
// An input passes when the reader either accepts it, and then its streams keep the simulator's
// contract (memory instructions have an active lane, widths 1/2/4/8, aligned addresses inside
// the physical address space, every warp ends with an exit), or rejects it with a TraceError
// naming the input and a line inside it. Anything else fails the run: another exception type,
// a broken stream, an unmutated seed that is rejected, a format variant that reads differently
// from its original, a compressed copy that reads differently from the plain text, a reading in
// parts (parse_kernel_parts, cut at up to two '#BEGIN_TB' lines) that gives another kernel or
// another error than one reader, a reading without the fast instruction lines
// (ParseOptions::fast_lines) that gives another kernel or error than with them. Crashes and
// sanitizer reports (build with -fsanitize=address,undefined) end the process.
// Exit status: 0 all passed, 1 a failure (the input is written to --fail-out), 2 bad usage.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim_cpp/trace/line_reader.h"
#include "sim_cpp/trace/test/trace_pack.h"
#include "sim_cpp/trace/test/trace_variants.h"
#include "sim_cpp/trace/trace_error.h"
#include "sim_cpp/trace/trace_parser.h"
#include "sim_cpp/trace/trace_workload.h"

using namespace l1d;
using namespace l1d::sim;
using namespace l1d::sim::trace;

namespace {

namespace fs = std::filesystem;

constexpr uint32_t kAddressBits = 32;

// Words a mutation puts in place of a token: number boundaries, other keywords of the format.
const std::vector<std::string> kTokens = {
    "", "0", "1", "-1", "2", "3", "4", "5", "8", "16", "32", "33", "64", "128", "1024", "1025", "65535", "65536",
    "4294967295", "4294967296", "18446744073709551615", "18446744073709551616", "-9223372036854775808",
    "99999999999999999999", "0x", "0x0", "0xffffffffffffffff", "0x10000000000000000", "ffffffff", "fffffffff",
    "00000000", "0000000f", "f0f0f0f0", "R", "R1", "R255", "UR4", "U", "X", "LDG.E", "STG.E", "LD.E", "ST.E",
    "LDL", "STL.64", "LDG.E.128", "LDG.E.S8", "STG.E.U16", "LDGSTS", "BAR.SYNC", "BAR.ARV", "EXIT", "RET",
    "UTMALDG", "ATOM.ADD", "LDS", "NOPE", "lowercase", "#BEGIN_TB", "#END_TB", "=", "(1,1,1)", "(0,1,1)",
    "(2,1,1)", "(1025,1,1)", "(64,1,1)", "1,1", ",,", "thread", "block", "warp", "insts", "-", "#", "\t", "\x01",
    "\xff", "0x7f2b2d500000", "0x7f2b58000000", "0x7f2b5a000000", "Val", "NoVal", "P0", "UP1", "1.2", "6", "7",
    "3.0", "1.", "HGMMA.64x8x16.F32", "VIADD", "S2UR", "ULDC", "cluster", "id", "cta", "rank",
};

// Whole lines a mutation inserts.
const std::vector<std::string> kLines = {
    "#BEGIN_TB", "#END_TB", "thread block = 0,0,0", "thread block = 1,0,0", "warp = 0", "warp = 31", "warp = 32",
    "insts = 0", "insts = 1", "insts = 4294967296", "-binary version = 99", "-binary version = 70",
    "-accelsim tracer version = 2", "-accelsim tracer version = 5", "-accelsim tracer version = 6",
    "-enable lineinfo = 1", "-grid dim = (2,1,1)", "-block dim = (64,1,1)", "-block dim = (1,1,1)",
    "-local mem base_addr = 0x00007f2b58000000", "-shmem base_addr = 0x00007f2b5a000000", "-kernel name = k",
    "0008 ffffffff 0 EXIT 0 0", "0010 ffffffff 0 BAR.SYNC 0 0", "0018 ffffffff 1 R4 LDG.E 1 R4 4 0",
    "0018 0000ffff 1 R4 LD.E.64 1 R4 8 1 0x7f2b58000000 8", "0020 ffffffff 0 ST.E 2 R6 R0 4 2 0x7f2b5a000000 4 -4",
    "0028 00000001 0 STL.128 2 R6 R0 16 0 0x10", "0 0 0 0 0008 ffffffff 0 EXIT 0 0",
    "MemcpyHtoD,0x00007f2b2d500000,400", "MemcpyHtoD,0x0,0", "MemcpyHtoD,0xffffffffffffff00,4096",
    "MemcpyHtoD,0x00007f2b2d500000,4294967296", "MemcpyDtoH,0x00007f2b2d500000,400", "kernel-1.traceg",
    "kernel-2.traceg.xz", "kernel-1.txt", "",
    // version 6 and the other newer forms
    "-accelsim tracer version = 1.2", "-accelsim tracer version = 3", "cluster id = 0,0,0", "cluster cta = 1,0,0",
    "cluster rank = 0", "cluster rank = x", "0030 ffffffff 1 R2 IADD3 1 R2 0 0 Val 1 5 1 7",
    "0030 ffffffff 1 R2 IADD3 1 R2 0 0 3 NoVal", "0030 ffffffff 1 R8 HGMMA.64x8x16.F32 2 UR4 UR6 1 0 0 NoVal",
    "0018 00000100 1 R4 LDG.E 1 R2 4 2 0x7f2b2d500020", "0018 00000000 1 R4 LDG.E 1 R2 4 1 0x0 0",
    "0018 00000000 0 STG.E 2 R2 R4 4 0", "0 0 0 0 0 0 0 0 0 0 0 0008 ffffffff 0 EXIT 0 0 0 NoVal", "kernel-1.tracez",
    "kernel-1.traceg.zst",
};

struct Seed {
  std::string name;  // "DIR/kernel-1.traceg (mode0)"
  std::string kernel;
  std::string list;
  bool variant_of_base = false;
  size_t base = 0;        // index of the original in the seed list
  bool prefixed = false;  // structure lines optional: no .tracez container of it
};

std::vector<std::string> split_lines(const std::string& t) {
  std::vector<std::string> v;
  std::string cur;
  for (char c : t) {
    if (c == '\n') {
      v.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) v.push_back(cur);
  return v;
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& l : v) s += l + "\n";
  return s;
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}
  uint64_t below(uint64_t n) { return n == 0 ? 0 : std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }
  bool chance(uint32_t percent) { return below(100) < percent; }
  std::mt19937_64& rng() { return rng_; }

  std::string mutate(const std::string& text, uint32_t n) {
    if (n == 0) return text;
    std::vector<std::string> lines = split_lines(text);
    for (uint32_t i = 0; i < n; ++i) one(lines);
    std::string out = join_lines(lines);
    if (chance(5) && !out.empty()) out.resize(below(out.size()));  // a cut file
    if (chance(3) && !out.empty()) out.pop_back();                   // no final newline
    return out;
  }

 private:
  void one(std::vector<std::string>& lines) {
    if (lines.empty()) {
      lines.push_back(pick(kLines));
      return;
    }
    const size_t i = below(lines.size());
    std::string& l = lines[i];
    switch (below(11)) {
      case 0: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i)); break;
      case 1: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), l); break;
      case 2: std::swap(l, lines[below(lines.size())]); break;
      case 3: l.resize(below(l.size() + 1)); break;
      case 4:
      case 5: replace_token(l, pick(kTokens)); break;
      case 6: tweak_number(l); break;
      case 7: l.insert(below(l.size() + 1), random_bytes()); break;
      case 8:
        if (!l.empty()) l[below(l.size())] = static_cast<char>(below(256));
        break;
      case 9: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), pick(kLines)); break;
      default:
        replace_token(l, below(2) ? fmt::format("{:x}", rng_()) : fmt::format("{}", static_cast<int64_t>(rng_())));
        break;
    }
  }

  const std::string& pick(const std::vector<std::string>& v) { return v[below(v.size())]; }

  std::string random_bytes() {
    std::string s;
    const uint64_t n = 1 + below(4);
    for (uint64_t i = 0; i < n; ++i) s += static_cast<char>(below(2) ? " \t\r,=#()x-0"[below(11)] : below(256));
    return s;
  }

  // Token boundaries are spaces and the header's '=' / ',' / parentheses.
  static bool sep(char c) { return c == ' ' || c == '\t' || c == ',' || c == '=' || c == '(' || c == ')'; }

  std::vector<std::pair<size_t, size_t>> tokens(const std::string& l) {
    std::vector<std::pair<size_t, size_t>> t;
    size_t i = 0;
    while (i < l.size()) {
      while (i < l.size() && sep(l[i])) ++i;
      const size_t b = i;
      while (i < l.size() && !sep(l[i])) ++i;
      if (i > b) t.emplace_back(b, i - b);
    }
    return t;
  }

  void replace_token(std::string& l, const std::string& with) {
    const auto t = tokens(l);
    if (t.empty()) {
      l += with;
      return;
    }
    const auto [b, n] = t[below(t.size())];
    l.replace(b, n, with);
  }

  void tweak_number(std::string& l) {
    std::vector<std::pair<size_t, size_t>> nums;
    for (const auto& [b, n] : tokens(l)) {
      bool digits = true;
      for (size_t k = b; k < b + n; ++k) digits = digits && ((l[k] >= '0' && l[k] <= '9') || l[k] == '-');
      if (digits) nums.emplace_back(b, n);
    }
    if (nums.empty()) return;
    const auto [b, n] = nums[below(nums.size())];
    int64_t v = 0;
    try {
      v = std::stoll(l.substr(b, n));
    } catch (const std::exception&) {
      return;
    }
    const int64_t deltas[] = {1, -1, 2, -2, 31, 32, 1000};
    const int64_t w = below(5) == 0 ? -v : below(5) == 0 ? v * 2 : v + deltas[below(7)];
    l.replace(b, n, std::to_string(w));
  }

  std::mt19937_64 rng_;
};

// What reading one input gave: "" accepted (with `counts`), or the error message.
struct ReadResult {
  bool accepted = false;
  std::string error;
  std::string counts;  // instructions, memory instructions, warps, addresses of every kernel
  uint64_t digest = 0;  // of every parsed field of every kernel
  bool parsed = false;  // the command list and kernels were read (digest set), whatever the workload did
};

uint64_t fnv(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; ++i) h = (h ^ (v >> (8 * i) & 0xFF)) * 0x100000001B3ull;
  return h;
}

uint64_t digest(const TraceSet& s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (const ParsedKernel& k : s.kernels) {
    for (const TraceInst& t : k.insts)
      for (uint64_t v : {t.pc, uint64_t{t.mask}, uint64_t{t.addr}, uint64_t{t.latency}, uint64_t(t.kind), uint64_t{t.width},
                         uint64_t(t.cls), uint64_t{t.dsts}, uint64_t{t.srcs}, uint64_t{t.regs},
                         static_cast<uint64_t>(t.stride)})
        h = fnv(h, v);
    for (uint16_t v : k.regs) h = fnv(h, v);
    for (uint64_t v : k.warp_begin) h = fnv(h, v);
    for (uint8_t v : k.synthetic_exit) h = fnv(h, v);
    for (Addr v : k.addrs) h = fnv(h, v);
    for (uint64_t v : k.by_class) h = fnv(h, v);
    for (const auto& [op, n] : k.unknown_opcodes) h = fnv(fnv(h, std::hash<std::string>{}(op)), n);
    h = fnv(fnv(fnv(h, k.trace_instructions), k.memory_instructions), k.wide_accesses);
  }
  return h;
}

class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

uint64_t line_count(const std::string& text) {
  uint64_t n = 0;
  for (char c : text) n += c == '\n';
  return n + 1;
}

// Every warp's stream keeps the simulator's contract (sim_cpp/workload/workload.h).
void check_streams(const TraceWorkload& w) {
  for (uint32_t k = 0; k < w.kernels(); ++k) {
    const ParsedKernel& pk = w.trace().kernels.at(k);
    const KernelGrid g = w.kernel(k).grid();
    if (g.ctas != pk.ctas || g.warps_per_cta != pk.warps_per_cta) throw Failure("kernel grid differs from the trace's");
    for (uint32_t cta = 0; cta < g.ctas; ++cta) {
      for (uint32_t wi = 0; wi < g.warps_per_cta; ++wi) {
        const auto p = w.kernel(k).warp(cta, wi);
        const uint32_t id = cta * g.warps_per_cta + wi;
        const uint64_t limit = 2 * (pk.warp_begin[id + 1] - pk.warp_begin[id]) + 1;
        bool exited = false;
        for (uint64_t n = 0; n <= limit && !exited; ++n) {
          const WarpInst in = p->next();
          if (in.kind == OpKind::kExit) exited = true;
          if (in.kind == OpKind::kAlu && in.latency == 0) throw Failure("ALU instruction with latency 0");
          if (in.kind != OpKind::kLoad && in.kind != OpKind::kStore) continue;
          if (in.active_mask == 0) throw Failure("memory instruction without an active lane");
          const uint32_t b = in.access_bytes;
          if (b != 1 && b != 2 && b != 4 && b != 8) throw Failure(fmt::format("access width {}", b));
          for (uint32_t l = 0; l < kWarpSize; ++l) {
            if (!(in.active_mask >> l & 1u)) continue;
            if (in.addr[l] % b != 0) throw Failure(fmt::format("unaligned address {:#x}", in.addr[l]));
            if (in.addr[l] + b - 1 >= (uint64_t{1} << kAddressBits))
              throw Failure(fmt::format("address {:#x} outside the physical space", in.addr[l]));
          }
        }
        if (!exited) throw Failure(fmt::format("warp {} of CTA {} does not exit", wi, cta));
      }
    }
  }
}

// `parts` > 1: a plain kernel trace is read with parse_kernel_parts, cut wherever it allows.
// `fast_lines` false: every line is read the general way (ParseOptions::fast_lines), and only read
// (no workload is built).
ReadResult read_input(const std::string& list, const std::string& kernel, Codec codec, const std::string& kname,
                      uint32_t parts = 1, bool fast_lines = true) {
  ReadResult o;
  const std::string lname = "kernelslist.g";
  const std::string& text_for_lines = kernel;
  try {
    TraceSet s;
    s.list_file = lname;
    auto lr = LineReader::from_string(lname, list);
    for (CommandLine& c : parse_kernelslist(*lr, ".", &s.ignored_commands)) {
      if (c.cmd.kind == TraceCommand::Kind::kKernel) {
        auto kr = LineReader::from_string(kname, kernel, codec);
        ParseOptions po;
        po.threads = parts;
        po.min_part_bytes = 1;
        po.fast_lines = fast_lines;
        if (parts > 1 && codec == Codec::kPlain)
          s.kernels.push_back(parse_kernel_parts(*kr, [&kernel] { return string_source(kernel); }, po));
        else
          s.kernels.push_back(parse_kernel(*kr, po));
      }
      s.commands.push_back(c.cmd);
    }
    o.digest = digest(s);
    o.parsed = true;
    if (!fast_lines) return o;
    TraceWorkload w(std::move(s), TraceOptions{std::nullopt, kAddressBits});
    check_streams(w);
    o.accepted = true;
    for (const ParsedKernel& k : w.trace().kernels)
      o.counts += fmt::format("{}/{}/{}/{} ", k.trace_instructions, k.memory_instructions, k.warps(), k.addrs.size());
  } catch (const TraceError& e) {
    o.error = e.what();
    const bool in_list = e.file() == lname;
    if (!in_list && e.file() != kname) throw Failure("error names another file: " + o.error);
    // A compressed input's line numbers count decoded lines; only plain text bounds them.
    if (codec == Codec::kPlain || in_list) {
      const uint64_t lines = line_count(in_list ? list : text_for_lines);
      if (e.line() > lines) throw Failure(fmt::format("error line {} after the input's {} lines: {}", e.line(), lines, o.error));
    }
    if (std::string(e.what()).size() <= e.file().size() + 4) throw Failure("error without a message");
  }
  return o;
}

uint64_t packed_inputs = 0;

// The same input compressed as xz, zstd or (when the plain text was accepted and has the
// grouped structure) a .tracez container, corrupted half of the time (a changed byte, or cut
// short). Intact, it must read as the plain text does; corrupt, it may only fail cleanly.
void check_packed(Mutator& m, const std::string& list, const std::string& kernel, const ReadResult& plain, bool prefixed) {
  ++packed_inputs;
  const bool container = plain.accepted && !prefixed && m.chance(34);
  const Codec codec = container ? Codec::kTracez : m.chance(50) ? Codec::kXz : Codec::kZstd;
  std::string z = codec == Codec::kTracez ? pack::tracez(kernel, static_cast<uint32_t>(1 + m.below(64)), m.chance(50))
                  : codec == Codec::kXz   ? pack::xz(kernel, 0)
                                          : pack::zstd(kernel, 1 + m.below(3));
  const bool corrupt = m.chance(50);
  if (corrupt) {
    if (m.chance(50))
      z[m.below(z.size())] = static_cast<char>(m.below(256));
    else
      z.resize(m.below(z.size()));
  }
  const ReadResult o = read_input(list, z, codec, "kernel-1.traceg");
  const char* what = codec == Codec::kTracez ? ".tracez" : codec == Codec::kXz ? "xz" : "zstd";
  if (!corrupt && (o.accepted != plain.accepted || o.counts != plain.counts))
    throw Failure(fmt::format("{} copy reads differently: plain '{}{}', {} '{}{}'", what, plain.counts, plain.error, what,
                              o.counts, o.error));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Randomized mutation test of the Accel-Sim trace reader"};
  uint64_t inputs = 100000, seed = 1;
  std::string traces = "../shared/traces", fail_out = "trace_fuzz_failure.txt";
  uint32_t packed_percent = 3;
  app.add_option("--inputs", inputs, "number of inputs")->capture_default_str();
  app.add_option("--seed", seed, "random seed")->capture_default_str();
  app.add_option("--traces", traces, "directory with one folder per trace (kernelslist.g and the kernels it names)")
      ->capture_default_str();
  app.add_option("--packed-percent", packed_percent, "share of inputs also read compressed (xz, zstd or .tracez)")
      ->capture_default_str();
  app.add_option("--fail-out", fail_out, "where a failing input is written")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  // Seeds: each trace folder's first kernel trace and its copies, in seven formats.
  std::vector<Seed> seeds;
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(traces, ec))
    if (e.is_directory() && fs::exists(e.path() / "kernelslist.g")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty()) {
    fmt::print(stderr, "trace_fuzz: no trace folders under {}\n", traces);
    return 2;
  }
  auto slurp = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  };
  using variants::Format;
  const std::pair<Format, const char*> formats[] = {
      {Format::kV4, "original"}, {Format::kV5, "v5"},       {Format::kOld, "old"},    {Format::kOld12, "1.2"},
      {Format::kV6, "v6"},       {Format::kMode0, "mode0"}, {Format::kMode2, "mode2"}};
  for (const fs::path& d : dirs) {
    // The command list's copies and its first kernel, named kernel-1.traceg (later kernels
    // would only repeat the reading of one text).
    std::string list, first;
    std::istringstream full(slurp(d / "kernelslist.g"));
    for (std::string l; std::getline(full, l);) {
      if (l.rfind("kernel", 0) == 0) {
        if (!first.empty()) continue;
        first = l;
        l = "kernel-1.traceg";
      }
      list += l + "\n";
    }
    const size_t base = seeds.size();
    const std::string kernel = slurp(d / first);
    for (const auto& [f, tag] : formats)
      seeds.push_back({fmt::format("{}/{} ({})", d.filename().string(), first, tag), variants::rewrite(kernel, f), list,
                       f != Format::kV4, base, f == Format::kOld || f == Format::kOld12});
  }

  // Every seed as it is: accepted, and a format variant reads as its original does.
  for (const Seed& sd : seeds) {
    try {
      const ReadResult o = read_input(sd.list, sd.kernel, Codec::kPlain, "kernel-1.traceg");
      if (!o.accepted) throw Failure(sd.name + " (unmutated) rejected: " + o.error);
      const Seed& b = seeds[sd.base];
      const ReadResult ob = sd.variant_of_base ? read_input(b.list, b.kernel, Codec::kPlain, "kernel-1.traceg") : o;
      if (ob.counts != o.counts) throw Failure(fmt::format("{} reads as {}, its original as {}", sd.name, o.counts, ob.counts));
    } catch (const std::exception& e) {
      fmt::print(stderr, "trace_fuzz: seed {}: {}\n", sd.name, e.what());
      return 1;
    }
  }

  Mutator m(seed);
  std::map<std::string, uint64_t> errors;  // by the message's first words
  uint64_t accepted = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < inputs; ++i) {
    // A seed, and 0 mutations for 5 % of the inputs (they must read as the seed does), else 1 to 8.
    const size_t si = m.below(seeds.size());
    const Seed& s = seeds[si];
    uint32_t n = 0;
    if (!m.chance(5)) {
      n = 1;
      while (n < 8 && m.chance(40)) ++n;
    }
    const bool mutate_list = n > 0 && m.chance(15);
    const std::string kernel = mutate_list ? s.kernel : m.mutate(s.kernel, n);
    const std::string list = mutate_list ? m.mutate(s.list, n) : s.list;
    const std::string kname = "kernel-1.traceg";
    try {
      const ReadResult o = read_input(list, kernel, Codec::kPlain, kname);
      if (n == 0) {
        if (!o.accepted) throw Failure(s.name + " (unmutated) rejected: " + o.error);
        if (s.variant_of_base) {
          const ReadResult b = read_input(seeds[s.base].list, seeds[s.base].kernel, Codec::kPlain, kname);
          if (b.counts != o.counts) throw Failure(fmt::format("{} reads as {}, its original as {}", s.name, o.counts, b.counts));
        }
      }
      if (o.accepted) {
        ++accepted;
      } else {
        const size_t colon = o.error.find(": ", o.error.find(':') + 1);
        std::string what = colon == std::string::npos ? o.error : o.error.substr(colon + 2);
        size_t cut = 0;
        for (int w = 0; w < 3 && cut != std::string::npos; ++w) cut = what.find(' ', cut + 1);
        ++errors[what.substr(0, cut)];
      }
      if (m.chance(packed_percent)) check_packed(m, list, kernel, o, s.prefixed);
      // Read in up to 3 parts (gpusim --threads), it must give the same kernel or the same error.
      const ReadResult p = read_input(list, kernel, Codec::kPlain, kname, 3);
      if (p.accepted != o.accepted || p.error != o.error || p.digest != o.digest || p.counts != o.counts)
        throw Failure(fmt::format("read in parts: '{}{}' ({:x}), on one reader: '{}{}' ({:x})", p.counts, p.error, p.digest,
                                  o.counts, o.error, o.digest));
      // Every line the general way (no fast instruction lines): the same kernels or the same error.
      const ReadResult g = read_input(list, kernel, Codec::kPlain, kname, 1, false);
      if (g.parsed != o.parsed || g.digest != o.digest || (!g.parsed && g.error != o.error))
        throw Failure(fmt::format("read the general way: '{}' ({:x}), the fast way: '{}' ({:x})", g.error, g.digest, o.error,
                                  o.digest));
    } catch (const std::exception& e) {
      const bool ours = dynamic_cast<const Failure*>(&e) != nullptr;
      fmt::print(stderr, "trace_fuzz: input {} (seed {}, from {}, {} mutations): {}{}\n", i, seed, s.name, n,
                 ours ? "" : "unexpected exception: ", e.what());
      std::ofstream f(fail_out, std::ios::binary);
      f << "=== kernelslist.g\n" << list << "=== kernel-1.traceg\n" << kernel;
      fmt::print(stderr, "trace_fuzz: input written to {}\n", fail_out);
      return 1;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("trace_fuzz: {} inputs ({} seeds from {} traces, {} also compressed), {} accepted, {} rejected with a "
             "file:line error, 0 failures, {:.1f} s\n",
             inputs, seeds.size(), dirs.size(), packed_inputs, accepted, inputs - accepted, secs);
  fmt::print("most frequent errors:\n");
  std::vector<std::pair<uint64_t, std::string>> top;
  for (const auto& [what, count] : errors) top.emplace_back(count, what);
  std::sort(top.rbegin(), top.rend());
  for (size_t i = 0; i < top.size() && i < 12; ++i) fmt::print("  {:>7}  {}\n", top[i].first, top[i].second);
  return 0;
}
