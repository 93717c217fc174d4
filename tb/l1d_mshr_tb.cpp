// Testbench of l1d_mshr (gen/blocks/l1d_mshr.cpp) against golden::Mshr, used as golden/l1.cpp
// uses it: S1 probes (probe_load / store_conflicts) and allocates the lowest free entry or
// merges a request, the memory response fills an entry (data and L2 bypass bit), the fill unit
// reads an entry and its requests in arrival order and releases it. Cases (on the
// configurations CMakeLists.txt gives this block: the MSHR file is large, see there):
// - reset: every entry free, entry 0 the free one;
// - golden L1Mshr.MergeLimitThenMergeFullUntilTheFill at the MSHR: one allocation, merges up to
//   MaxMerge, then merge_full until the fill, the fill unit's reads of every request, release;
// - golden L1Mshr.AllEntriesBusyGivesMshrFull: every entry allocated, free_o low, an alloc is
//   ignored, a release frees exactly that entry;
// - golden L1Data.StoreWaitsForPendingFillOfTheSameLine: stores and loads of a pending line
//   conflict only where the sectors overlap; the lowest covering entry decides (merge_full even
//   when a higher entry of the line has room);
// - the same-cycle combinations the golden L1 produces (alloc or add with a response, release
//   with a response for another entry) and those the header defines;
// - >= 10^5 random cycles of legal traffic on a few hot lines, and the netlist co-simulation
//   on both configurations (the netlist keeps the buffers as l1d_ram_1r1w instances, which the
//   co-simulation links as their RTL).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <ostream>
#include <random>
#include <vector>

#include "golden/mshr.h"
#include "l1d_mshr_models.h"
#include "tb/bitvec.h"
#include "tb/testbench.h"

namespace {

using l1d::golden::BypassReason;
using l1d::golden::Mshr;
using l1d::golden::MshrEntry;
using l1d::golden::MshrProbe;
using tb::BitVec;

constexpr uint64_t kRandomCycles = 100'000;
constexpr uint64_t kCosimCycles = 10'000;
constexpr unsigned kMaskBits = l1d::kLineBytes;
constexpr unsigned kDataBits = 8 * l1d::kLineBytes;

BitVec mask_bits(const l1d::ByteMask& m) {
  BitVec v(kMaskBits);
  for (unsigned b = 0; b < kMaskBits; ++b) v.set(b, 1, m[b]);
  return v;
}
l1d::ByteMask to_mask(const BitVec& v) {
  l1d::ByteMask m;
  for (unsigned b = 0; b < kMaskBits; ++b) m.set(b, v.get(b, 1) != 0);
  return m;
}
BitVec data_bits(const l1d::LineData& d) {
  BitVec v(kDataBits);
  for (unsigned b = 0; b < l1d::kLineBytes; ++b) v.set(8 * b, 8, d[b]);
  return v;
}
BitVec random_bits(unsigned width, std::mt19937_64& rng) {
  BitVec v(width);
  for (unsigned b = 0; b < width; b += 64) v.set(b, std::min(64U, width - b), rng());
  return v;
}

// The port binding (tb/testbench.h). golden() returns this cycle's probe and read-port outputs
// from the golden MSHR file, then applies the cycle's updates in the order the header defines:
// alloc (the lowest free entry before this cycle's release), add (dropped with an alloc, or when
// the entry is full), response, release.
struct MshrIo {
  struct In {
    uint64_t probe_line = 0;
    unsigned probe_needed = 0, probe_fetch = 0;
    bool probe_store = false, block = false;  // block_i: l1.mshr_merge block (contract 13.3)
    bool alloc = false;
    uint64_t alloc_line = 0;
    unsigned alloc_sectors = 0, alloc_bypass = 0;
    uint64_t alloc_hpc = 0;
    unsigned alloc_awid = 0;
    bool alloc_token = false;
    uint32_t alloc_id = 0;
    unsigned alloc_warp = 0;
    BitVec alloc_mask{kMaskBits};
    unsigned alloc_reserve = 0;  // {reserved, way, first slot} (l1.allocation on_miss)
    bool add = false, widen = false;
    unsigned widen_sectors = 0;
    bool widen_place = false;  // l1.mshr_merge sector (contract 14): rd_sectors_o is the entry's sectors
    unsigned add_entry = 0;
    uint32_t add_id = 0;
    unsigned add_warp = 0;
    BitVec add_mask{kMaskBits};
    bool resp = false;
    unsigned resp_entry = 0;
    bool resp_l2_bit = false;
    BitVec resp_data{kDataBits};
    unsigned resp_sectors = 0;  // 0: every sector
    unsigned rd_entry = 0, rd_req = 0, cnt_entry = 0;
    bool release = false;
    unsigned release_entry = 0;
    unsigned alloc_buffer = 0, add_buffer = 0;  // l1.sector: sectors copied from the array (contract 14)
    BitVec buffer_data{kDataBits};
    bool operator==(const In&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const In& in) {
      os << fmt::format(
          "probe line {:#x} needed {:#x} fetch {:#x} store {}; alloc {} line {:#x} sectors {:#x} bypass {} hpc {} "
          "awid {} token {} id {} warp {}; add {} entry {} id {} warp {}; resp {} entry {} l2 {}; rd entry {} req {}; "
          "cnt entry {}; release {} entry {}; block {} reserve {:#x} widen {} sectors {:#x} place {} resp sectors {:#x}",
          in.probe_line, in.probe_needed, in.probe_fetch, in.probe_store, in.alloc, in.alloc_line, in.alloc_sectors,
          in.alloc_bypass, in.alloc_hpc, in.alloc_awid, in.alloc_token, in.alloc_id, in.alloc_warp, in.add,
          in.add_entry, in.add_id, in.add_warp, in.resp, in.resp_entry, in.resp_l2_bit, in.rd_entry, in.rd_req,
          in.cnt_entry, in.release, in.release_entry, in.block, in.alloc_reserve, in.widen, in.widen_sectors,
          in.widen_place, in.resp_sectors);
      os << fmt::format(" buffer alloc {:#x} add {:#x}", in.alloc_buffer, in.add_buffer);
      return os << " alloc_mask " << in.alloc_mask << " add_mask " << in.add_mask;
    }
  };
  struct Out {
    bool merge = false, merge_full = false;
    unsigned merge_entry = 0;
    bool conflict = false, free = false;
    unsigned free_entry = 0, in_use = 0;
    bool rd_valid = false, rd_filled = false;
    uint64_t rd_line = 0;
    unsigned rd_sectors = 0, rd_bypass = 0;
    uint64_t rd_hpc = 0;
    unsigned rd_awid = 0;
    bool rd_token = false, rd_l2_bit = false;
    unsigned rd_count = 0, cnt_count = 0;
    uint64_t cnt_line = 0;
    BitVec rd_data{kDataBits};
    uint32_t rd_id = 0;
    unsigned rd_warp = 0;
    BitVec rd_mask{kMaskBits};
    bool merge_reserved = false, merge_filled = false, resp_fills = false, merge_bypass = false;
    unsigned merge_missing = 0, rd_reserve = 0;
    bool operator==(const Out&) const = default;
    friend std::ostream& operator<<(std::ostream& os, const Out& o) {
      os << fmt::format(
          "merge {} merge_full {} merge_entry {} conflict {} free {} free_entry {} in_use {}; rd valid {} filled {} "
          "line {:#x} sectors {:#x} bypass {} hpc {} awid {} token {} l2 {} count {} id {} warp {}; cnt count {} line {:#x}",
          o.merge, o.merge_full, o.merge_entry, o.conflict, o.free, o.free_entry, o.in_use, o.rd_valid, o.rd_filled,
          o.rd_line, o.rd_sectors, o.rd_bypass, o.rd_hpc, o.rd_awid, o.rd_token, o.rd_l2_bit, o.rd_count, o.rd_id,
          o.rd_warp, o.cnt_count, o.cnt_line);
      os << fmt::format("; merge reserved {} missing {:#x} filled {} bypass {}; resp fills {}; rd reserve {:#x}",
                        o.merge_reserved, o.merge_missing, o.merge_filled, o.merge_bypass, o.resp_fills, o.rd_reserve);
      return os << " mask " << o.rd_mask << " data " << o.rd_data;
    }
  };

  explicit MshrIo(const l1d::Config& c)
      : entries(c.l1.mshr_entries),
        max_merge(c.l1.mshr_max_merge),
        line_bits(c.l1.address_bits - 7),
        hpc_bits(static_cast<unsigned>(std::countr_zero(c.policy.agcb.entries))),
        reserve_bits(3 + (c.l1.ways <= 2 ? 1U : static_cast<unsigned>(std::bit_width(c.l1.ways - 1U)))),
        model(entries, max_merge),
        reads(entries, 0),
        reserve(entries, 0),
        data_mem(entries),
        buffer_mem(entries) {}

  template <class M>
  void drive(M& m, const In& in) const {
    tb::put(m.probe_line_i, in.probe_line);
    m.probe_needed_i = static_cast<uint8_t>(in.probe_needed);
    m.probe_fetch_i = static_cast<uint8_t>(in.probe_fetch);
    m.probe_store_i = in.probe_store;
    m.block_i = in.block;
    m.alloc_i = in.alloc;
    tb::put(m.alloc_line_i, in.alloc_line);
    m.alloc_sectors_i = static_cast<uint8_t>(in.alloc_sectors);
    m.alloc_bypass_i = static_cast<uint8_t>(in.alloc_bypass);
    tb::put(m.alloc_hpc_i, in.alloc_hpc);
    m.alloc_awid_i = static_cast<uint8_t>(in.alloc_awid);
    m.alloc_token_i = in.alloc_token;
    m.alloc_id_i = in.alloc_id;
    m.alloc_warp_i = static_cast<uint8_t>(in.alloc_warp);
    in.alloc_mask.store(m.alloc_mask_i);
    tb::put(m.alloc_reserve_i, in.alloc_reserve);
    m.add_i = in.add;
    m.widen_i = in.widen;
    m.widen_sectors_i = static_cast<uint8_t>(in.widen_sectors);
    m.widen_place_i = in.widen_place;
    tb::put(m.add_entry_i, in.add_entry);
    m.add_id_i = in.add_id;
    m.add_warp_i = static_cast<uint8_t>(in.add_warp);
    in.add_mask.store(m.add_mask_i);
    m.resp_i = in.resp;
    tb::put(m.resp_entry_i, in.resp_entry);
    m.resp_l2_bit_i = in.resp_l2_bit;
    in.resp_data.store(m.resp_data_i);
    m.resp_sectors_i = static_cast<uint8_t>(in.resp_sectors);
    tb::put(m.rd_entry_i, in.rd_entry);
    tb::put(m.rd_req_i, in.rd_req);
    tb::put(m.cnt_entry_i, in.cnt_entry);
    m.release_i = in.release;
    tb::put(m.release_entry_i, in.release_entry);
    m.alloc_buffer_i = static_cast<uint8_t>(in.alloc_buffer);
    m.add_buffer_i = static_cast<uint8_t>(in.add_buffer);
    in.buffer_data.store(m.buffer_data_i);
  }
  template <class M>
  Out sample(const M& m) const {
    Out o;
    o.merge = m.merge_o != 0;
    o.merge_full = m.merge_full_o != 0;
    o.merge_entry = static_cast<unsigned>(tb::get(m.merge_entry_o));
    o.conflict = m.conflict_o != 0;
    o.free = m.free_o != 0;
    o.free_entry = static_cast<unsigned>(tb::get(m.free_entry_o));
    o.in_use = static_cast<unsigned>(tb::get(m.in_use_o));
    o.rd_valid = m.rd_valid_o != 0;
    o.rd_filled = m.rd_filled_o != 0;
    o.rd_line = tb::get(m.rd_line_o);
    o.rd_sectors = m.rd_sectors_o;
    o.rd_bypass = m.rd_bypass_o;
    o.rd_hpc = tb::get(m.rd_hpc_o);
    o.rd_awid = m.rd_awid_o;
    o.rd_token = m.rd_token_o != 0;
    o.rd_l2_bit = m.rd_l2_bit_o != 0;
    o.rd_count = static_cast<unsigned>(tb::get(m.rd_count_o));
    o.cnt_count = static_cast<unsigned>(tb::get(m.cnt_count_o));
    o.cnt_line = tb::get(m.cnt_line_o);
    o.rd_data.load(m.rd_data_o);
    o.rd_id = m.rd_id_o;
    o.rd_warp = m.rd_warp_o;
    o.rd_mask.load(m.rd_mask_o);
    o.merge_reserved = m.merge_reserved_o != 0;
    o.merge_missing = m.merge_missing_o;
    o.merge_filled = m.merge_filled_o != 0;
    o.merge_bypass = m.merge_bypass_o != 0;
    o.resp_fills = m.resp_fills_o != 0;
    o.rd_reserve = static_cast<unsigned>(tb::get(m.rd_reserve_o));
    return o;
  }

  Out golden(const In& in) {
    Out o;
    const l1d::Addr probe_addr = in.probe_line << 7;
    if (in.probe_store) {
      o.conflict = model.store_conflicts(probe_addr, static_cast<l1d::SectorMask>(in.probe_fetch));
    } else if (in.block) {  // contract 13.3: the line's (lowest) entry takes the load
      if (const std::optional<uint32_t> i = model.find_line(probe_addr)) {
        o.merge = model.entry(*i).requests.size() < max_merge;
        o.merge_full = !o.merge;
        o.merge_entry = *i;
      }
    } else {
      const auto p = model.probe_load(probe_addr, static_cast<l1d::SectorMask>(in.probe_needed),
                                      static_cast<l1d::SectorMask>(in.probe_fetch));
      o.merge = p.kind == MshrProbe::kMerge;
      o.merge_full = p.kind == MshrProbe::kMergeFull;
      o.merge_entry = o.merge || o.merge_full ? p.entry : 0;
      o.conflict = p.kind == MshrProbe::kConflict;
    }
    if (o.merge || o.merge_full) {
      const MshrEntry& c = model.entry(o.merge_entry);
      o.merge_reserved = c.reserved;
      o.merge_missing = in.probe_needed & ~static_cast<unsigned>(c.sectors | c.buffered);  // golden `widen`
      o.merge_filled = c.filled;
      o.merge_bypass = c.bypass != BypassReason::kNone;
    }
    const std::optional<uint32_t> free = model.free_entry();
    o.free = free.has_value();
    o.free_entry = free.value_or(0);
    o.in_use = model.in_use();
    // The read port: a free entry reads zero, data and L2 bit zero until filled, requests
    // beyond the count zero.
    if (const MshrEntry& c = model.entry(in.cnt_entry); c.valid) {
      o.cnt_count = static_cast<unsigned>(c.requests.size());
      o.cnt_line = c.line_addr >> 7;
    }
    const MshrEntry& e = model.entry(in.rd_entry);
    if (e.valid) {
      o.rd_valid = true;
      o.rd_filled = e.filled;
      o.rd_line = e.line_addr >> 7;
      // The first read's sectors (mshr_merge block may widen `sectors`); under widen_place_i the
      // entry's sectors (mshr_merge sector: the golden L1 widens `place` with them).
      o.rd_sectors = in.widen_place ? e.sectors : e.place;
      o.rd_reserve = reserve[in.rd_entry];
      o.rd_bypass = static_cast<unsigned>(e.bypass);
      o.rd_hpc = e.hpc;
      o.rd_awid = e.awid;
      o.rd_token = e.token;
      o.rd_count = static_cast<unsigned>(e.requests.size());
      if (e.filled) {
        o.rd_l2_bit = e.l2_bypass_bit;
        l1d::LineData d = data_mem[in.rd_entry];  // buffered sectors from the second memory (l1.sector)
        for (unsigned b = 0; b < l1d::kLineBytes; ++b)
          if ((e.buffered >> (b / 32)) & 1) d[b] = buffer_mem[in.rd_entry][b];
        o.rd_data = data_bits(d);
      }
      if (in.rd_req < e.requests.size()) {
        const auto& r = e.requests[in.rd_req];
        o.rd_id = r.id;
        o.rd_warp = r.warp;
        o.rd_mask = mask_bits(r.byte_mask);
      }
    }

    if (in.alloc && free) {  // golden/l1.cpp miss(): the entry as S1 writes it
      MshrEntry& n = model.allocate(*free, in.alloc_line << 7);
      n.sectors = n.place = static_cast<l1d::SectorMask>(in.alloc_sectors);
      n.reserved = (in.alloc_reserve >> (reserve_bits - 1)) != 0;
      reserve[*free] = in.alloc_reserve;
      reads[*free] = 1;
      n.bypass = static_cast<BypassReason>(in.alloc_bypass);
      n.hpc = static_cast<uint32_t>(in.alloc_hpc);
      n.awid = static_cast<uint8_t>(in.alloc_awid);
      n.token = in.alloc_token;
      n.requests.push_back({in.alloc_id, static_cast<uint8_t>(in.alloc_warp), to_mask(in.alloc_mask)});
      n.buffered = static_cast<l1d::SectorMask>(in.alloc_buffer);
      write_buffer(*free, in.alloc_buffer, in.buffer_data);
    }
    const unsigned resp_reads = reads[in.resp_entry];  // before this cycle's updates
    bool widened = false;
    if (in.add && !in.alloc && model.entry(in.add_entry).requests.size() < max_merge) {  // a merge
      MshrEntry& a = model.entry(in.add_entry);
      a.requests.push_back({in.add_id, static_cast<uint8_t>(in.add_warp), to_mask(in.add_mask)});
      a.buffered = static_cast<l1d::SectorMask>(a.buffered | in.add_buffer);
      write_buffer(in.add_entry, in.add_buffer, in.buffer_data);
      if (in.widen) {  // contract 13.3: the sectors it lacked and one more read in flight
        a.sectors = static_cast<l1d::SectorMask>(a.sectors | in.widen_sectors);
        widened = true;
      }
    }
    // The reads in flight, 3 bits as in the RTL (a response to an entry that awaits none wraps it;
    // the L1 never sends one, MshrRespPending_A).
    if (widened) reads[in.add_entry] = (reads[in.add_entry] + 1) & 7;
    if (in.resp) {
      // The response's last-read flag and its data (the sectors it names, every one when it names
      // none) do not depend on an allocation in the same cycle; its other effects do.
      o.resp_fills = resp_reads == 1 && !(widened && in.add_entry == in.resp_entry);
      for (unsigned b = 0; b < l1d::kLineBytes; ++b)
        if (in.resp_sectors == 0 || ((in.resp_sectors >> (b / 32)) & 1))
          data_mem[in.resp_entry][b] = static_cast<uint8_t>(in.resp_data.get(8 * b, 8));
    }
    if (in.resp && !(in.alloc && free == in.resp_entry)) {  // golden/l1.cpp step(): the response
      MshrEntry& f = model.entry(in.resp_entry);
      f.filled = f.filled || o.resp_fills;
      f.l2_bypass_bit = f.l2_bypass_bit || in.resp_l2_bit;
      reads[in.resp_entry] = (reads[in.resp_entry] + 7) & 7;
    }
    if (in.release && !(in.alloc && free == in.release_entry)) model.release(in.release_entry);
    model.check_index();  // the golden MSHR's line index in step with its entries
    return o;
  }

  // A request's fields, random.
  void random_request(std::mt19937_64& rng, uint32_t& id, unsigned& warp, BitVec& mask) const {
    id = static_cast<uint32_t>(rng());
    warp = static_cast<unsigned>(rng() & 0xFF);
    mask = random_bits(kMaskBits, rng);
  }
  void random_alloc_record(std::mt19937_64& rng, In& in) const {
    const uint64_t r = rng();
    in.alloc_sectors = static_cast<unsigned>(r & 0xF);
    in.alloc_bypass = static_cast<unsigned>((r >> 4) & 3);
    in.alloc_awid = static_cast<unsigned>((r >> 8) & 0xFF);
    in.alloc_token = ((r >> 16) & 1) != 0;
    in.alloc_hpc = rng() & tb::low_mask(hpc_bits);
    in.alloc_reserve = static_cast<unsigned>(rng() & tb::low_mask(reserve_bits));
    random_request(rng, in.alloc_id, in.alloc_warp, in.alloc_mask);
  }
  // A line among four hot ones (0, 1, the last, and one in the middle) or any.
  uint64_t random_line(std::mt19937_64& rng) const {
    const uint64_t all = tb::low_mask(line_bits);
    const uint64_t hot[4] = {0, 1, all, all / 3};
    return (rng() & 3) == 0 ? rng() & all : hot[rng() & 3];
  }

  // Co-simulation stimulus: every port random (in range), so also the combinations the golden L1
  // never produces; the memories are read only where the RTL has written them (its header).
  In random(std::mt19937_64& rng) const {
    In in;
    const uint64_t r = rng();
    in.probe_line = random_line(rng);
    in.probe_needed = static_cast<unsigned>(r & 0xF);
    in.probe_fetch = static_cast<unsigned>((r >> 4) & 0xF);
    in.probe_store = ((r >> 8) & 3) == 0;
    in.block = ((r >> 20) & 1) != 0;
    in.alloc = ((r >> 10) & 1) != 0;
    in.alloc_line = random_line(rng);
    random_alloc_record(rng, in);
    in.add = ((r >> 11) & 1) != 0;
    in.widen = ((r >> 21) & 3) == 0;
    in.widen_sectors = static_cast<unsigned>((r >> 23) & 0xF);
    in.widen_place = ((r >> 28) & 1) != 0;
    in.add_entry = static_cast<unsigned>(rng() % entries);
    random_request(rng, in.add_id, in.add_warp, in.add_mask);
    in.resp = ((r >> 12) & 3) == 0;
    in.resp_entry = static_cast<unsigned>(rng() % entries);
    in.resp_l2_bit = ((r >> 14) & 1) != 0;
    if (in.resp) in.resp_data = random_bits(kDataBits, rng);
    // Every sector, unnamed or named: a response naming only some would leave the others of a
    // reallocated entry as an earlier use wrote them, or as the memory came up (no reset), which
    // the netlist and the RTL start differently (the L1 reads only sectors its reads fetched).
    in.resp_sectors = ((r >> 27) & 1) != 0 ? 0xF : 0;
    in.rd_entry = static_cast<unsigned>(rng() % entries);
    in.rd_req = static_cast<unsigned>(rng() % max_merge);
    in.cnt_entry = static_cast<unsigned>(rng() % entries);
    in.release = ((r >> 15) & 3) == 0;
    in.release_entry = static_cast<unsigned>(rng() % entries);
    return in;
  }

  uint32_t entries, max_merge;
  unsigned line_bits, hpc_bits, reserve_bits;
  Mshr model;
  std::vector<unsigned> reads, reserve;  // per entry: reads in flight (3 bits), alloc_reserve_i
  std::vector<l1d::LineData> data_mem;    // per entry: the fill data memory (written by every response)
  std::vector<l1d::LineData> buffer_mem;  // per entry: the buffered sectors' memory (l1.sector)
  void write_buffer(unsigned entry, unsigned sectors, const BitVec& bytes) {
    for (unsigned b = 0; b < l1d::kLineBytes; ++b)
      if ((sectors >> (b / 32)) & 1) buffer_mem[entry][b] = static_cast<uint8_t>(bytes.get(8 * b, 8));
  }
};

using Board = tb::Scoreboard<MshrIo::In, MshrIo::Out>;
namespace models = tb::l1d_mshr;

template <class Config>
class MshrFile : public ::testing::Test {
 protected:
  MshrFile()
      : io(tb::load_config<Config>()),
        dut(tb::wave_name<Config>(models::kBlock, name() == kMainTest ? "" : name()), 1),
        board(fmt::format("{}/{} {}", models::kBlock, Config::kName, name()), "golden", "rtl   ") {
    dut.reset();
  }
  static constexpr const char* kMainTest = "RandomMatchesGolden";
  static std::string name() { return ::testing::UnitTest::GetInstance()->current_test_info()->name(); }

  void cycle(const MshrIo::In& in) { tb::check_cycle(dut, io, board, in); }
  // Inputs that change nothing: a load probe of `line`, a read of entry `rd` request `req`.
  MshrIo::In idle(uint64_t line = 0, unsigned needed = 0, unsigned fetch = 0, unsigned rd = 0, unsigned req = 0) {
    MshrIo::In in;
    in.probe_line = line;
    in.probe_needed = needed;
    in.probe_fetch = fetch;
    in.rd_entry = rd;
    in.rd_req = req;
    return in;
  }
  MshrIo::In alloc(uint64_t line, unsigned sectors) {
    MshrIo::In in = idle(line, sectors, sectors);
    io.random_alloc_record(rng, in);
    in.alloc = true;
    in.alloc_line = line;
    in.alloc_sectors = sectors;
    return in;
  }
  MshrIo::In add(unsigned entry) {
    MshrIo::In in = idle();
    in.add = true;
    in.add_entry = entry;
    io.random_request(rng, in.add_id, in.add_warp, in.add_mask);
    return in;
  }
  MshrIo::In resp(unsigned entry) {
    MshrIo::In in = idle(0, 0, 0, entry);
    in.resp = true;
    in.resp_entry = entry;
    in.resp_l2_bit = (rng() & 1) != 0;
    in.resp_data = random_bits(kDataBits, rng);
    return in;
  }
  // The RTL's probe result now, for a load (store = false) or a store of `sectors`.
  MshrIo::Out probe(uint64_t line, unsigned needed, unsigned fetch, bool store = false) {
    MshrIo::In in = idle(line, needed, fetch);
    in.probe_store = store;
    io.drive(*dut, in);
    dut.settle();
    return io.sample(*dut);
  }
  // The fill unit: reads every request of `entry`, then releases it with the last one.
  void fill_reads(unsigned entry) {
    const auto n = static_cast<unsigned>(io.model.entry(entry).requests.size());
    for (unsigned k = 0; k < n; ++k) {
      MshrIo::In in = idle(0, 0, 0, entry, k);
      in.release = k + 1 == n;
      in.release_entry = entry;
      cycle(in);
    }
  }

  MshrIo io;
  tb::Dut<typename Config::Rtl> dut;
  Board board;
  std::mt19937_64 rng{3};
};
TYPED_TEST_SUITE(MshrFile, models::Configs);

TYPED_TEST(MshrFile, ResetEveryEntryFree) {
  for (unsigned e = 0; e < this->io.entries; ++e) this->cycle(this->idle(e, 0xF, 0xF, e, 0));
  const MshrIo::Out o = this->probe(0, 0, 0xF);
  EXPECT_TRUE(o.free);
  EXPECT_EQ(o.free_entry, 0U);
  EXPECT_EQ(o.in_use, 0U);
  EXPECT_FALSE(o.merge || o.merge_full || o.conflict);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Golden L1Mshr.MergeLimitThenMergeFullUntilTheFill: 1 allocates, MaxMerge - 1 merge, then the
// probe says merge_full until the fill; the fill unit reads every request in order; released.
TYPED_TEST(MshrFile, MergeLimitThenMergeFullUntilTheFill) {
  const uint64_t line = 0x123 & tb::low_mask(this->io.line_bits);
  this->cycle(this->alloc(line, 0xF));
  for (unsigned i = 1; i < this->io.max_merge; ++i) {
    EXPECT_TRUE(this->probe(line, 1U << (i % 4), 1U << (i % 4)).merge);
    this->cycle(this->add(0));
  }
  const MshrIo::Out full = this->probe(line, 0x1, 0xF);
  EXPECT_TRUE(full.merge_full);
  EXPECT_FALSE(full.merge || full.conflict);
  {  // dropped: the entry is full (outside the contract: MshrMergeWithinLimit_A, so assertions off)
    auto off = this->dut.asserts_off();
    this->cycle(this->add(0));
  }
  this->cycle(this->idle(line, 0x2, 0xF));
  this->cycle(this->resp(0));
  EXPECT_TRUE(this->probe(line, 0x1, 0xF).merge_full);  // still, until released
  this->fill_reads(0);
  const MshrIo::Out after = this->probe(line, 0x1, 0xF);
  EXPECT_FALSE(after.merge || after.merge_full || after.conflict);
  EXPECT_EQ(after.in_use, 0U);
  EXPECT_EQ(this->io.model.in_use(), 0U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Golden L1Mshr.AllEntriesBusyGivesMshrFull: every entry allocated (lowest free first), then
// free_o is low and an alloc is ignored; a release frees exactly that entry, which is next.
TYPED_TEST(MshrFile, AllEntriesBusyGivesMshrFull) {
  const unsigned n = this->io.entries;
  for (unsigned e = 0; e < n; ++e) this->cycle(this->alloc(e + 7, 0xF));
  MshrIo::Out o = this->probe(0, 0xF, 0xF);
  EXPECT_FALSE(o.free);
  EXPECT_EQ(o.in_use, n);
  this->cycle(this->alloc(3, 0xF));  // ignored
  const unsigned victim = n / 2;
  MshrIo::In rel = this->idle();
  rel.release = true;
  rel.release_entry = victim;
  this->cycle(rel);
  o = this->probe(0, 0xF, 0xF);
  EXPECT_TRUE(o.free);
  EXPECT_EQ(o.free_entry, victim);
  this->cycle(this->alloc(victim + 7, 0x3));
  for (unsigned e = 0; e < n; ++e) this->cycle(this->idle(e + 7, 0x1, 0x1, e, 0));
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Golden L1Data.StoreWaitsForPendingFillOfTheSameLine and the probe's rules: a store conflicts
// with a pending entry of its line where the sectors overlap; a load merges into the lowest
// entry of the line that holds every needed sector, even when that one is full and a higher
// one has room (merge_full), and conflicts only when none covers it and its fetch overlaps.
TYPED_TEST(MshrFile, ConflictsAndTheLowestCoveringEntry) {
  const uint64_t line = tb::low_mask(this->io.line_bits);
  this->cycle(this->alloc(line, 0x1));  // entry 0: sector 0
  EXPECT_TRUE(this->probe(line, 0, 0x1, true).conflict);
  EXPECT_FALSE(this->probe(line, 0, 0x2, true).conflict);
  EXPECT_FALSE(this->probe(line - 1, 0, 0x1, true).conflict);
  EXPECT_TRUE(this->probe(line, 0x1, 0x1).merge);
  EXPECT_TRUE(this->probe(line, 0x2, 0x3).conflict);   // needs sector 1, fetch overlaps entry 0
  const MshrIo::Out none = this->probe(line, 0x2, 0x2);  // needs and fetches sector 1 only
  EXPECT_FALSE(none.merge || none.merge_full || none.conflict);
  if (this->io.entries >= 2) {
    this->cycle(this->alloc(line, 0x3));  // entry 1: sectors 0-1
    for (unsigned i = 1; i < this->io.max_merge; ++i) this->cycle(this->add(0));
    const MshrIo::Out o = this->probe(line, 0x1, 0x1);
    EXPECT_TRUE(o.merge_full);
    EXPECT_EQ(o.merge_entry, 0U);
    const MshrIo::Out o2 = this->probe(line, 0x2, 0x2);
    EXPECT_EQ(o2.merge, this->io.max_merge > 1);
    EXPECT_EQ(o2.merge_entry, 1U);
    EXPECT_TRUE(this->probe(line, 0x2, 0x2, true).conflict);  // a store of sector 1: entry 1
  }
  for (unsigned needed = 0; needed < 16; ++needed)
    for (unsigned fetch = 0; fetch < 16; ++fetch)
      for (bool store : {false, true}) {
        MshrIo::In in = this->idle(line, needed, fetch);
        in.probe_store = store;
        this->cycle(in);
      }
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Same cycle: alloc with a response for another entry, add with the response of its own
// entry, release with a response for another entry (what the golden L1 produces); alloc with
// add (the add is dropped), release with add and response of the same entry (all lost).
TYPED_TEST(MshrFile, SameCycleCombinations) {
  if (this->io.entries < 3) GTEST_SKIP() << "needs three entries";
  this->cycle(this->alloc(10, 0xF));  // entry 0
  MshrIo::In in = this->alloc(11, 0x3);  // entry 1, with the response of entry 0
  in.resp = true;
  in.resp_entry = 0;
  in.resp_data = random_bits(kDataBits, this->rng);
  this->cycle(in);
  in = this->add(1);  // add to entry 1 with its own response
  in.resp = true;
  in.resp_entry = 1;
  in.resp_l2_bit = true;
  in.resp_data = random_bits(kDataBits, this->rng);
  in.rd_entry = 1;
  this->cycle(in);
  in = this->alloc(12, 0x1);  // alloc and add together: the add is dropped
  in.add = true;
  in.add_entry = 1;
  this->cycle(in);
  in = this->idle(0, 0, 0, 1, 1);  // release entry 0 with the response of entry 2
  in.release = true;
  in.release_entry = 0;
  in.resp = true;
  in.resp_entry = 2;
  in.resp_data = random_bits(kDataBits, this->rng);
  this->cycle(in);
  in = this->add(2);  // release, add and response of entry 2 in one cycle
  in.release = true;
  in.release_entry = 2;
  in.resp = true;
  in.resp_entry = 2;
  {  // entry 2 is filled already: a second response is outside the contract (MshrRespPending_A)
    auto off = this->dut.asserts_off();
    this->cycle(in);
  }
  for (unsigned e = 0; e < 3; ++e)
    for (unsigned k = 0; k < 2; ++k) this->cycle(this->idle(10 + e, 0x1, 0x1, e, k));
  EXPECT_EQ(this->io.model.in_use(), 1U);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Random legal traffic, as the golden L1 makes it: each cycle S1 probes a hot line and either
// allocates or merges what the probe allows (sometimes a blocked request retries), the memory
// answers a pending entry now and then, and the fill unit works through the filled entries in
// response order, reading one request per cycle and releasing the entry with the last one.
// l1.mshr_merge block (contract 13.3): a load probing a line with an entry merges into it whatever
// sectors it needs; merge_missing_o names those the entry lacks, and a merge that widens the entry
// adds them and one more read in flight. The entry fills (resp_fills_o, rd_filled_o) at its last
// read, each response writing only the sectors it names; then merge_filled_o says a load needing
// more must wait. A widening in the cycle of a response to the same entry keeps it unfilled. The
// record keeps the first read's sectors (rd_sectors_o) and the on_miss reservation.
TYPED_TEST(MshrFile, BlockMergeWidensAndFillsAtTheLastRead) {
  const uint64_t line = 0x123 & tb::low_mask(this->io.line_bits);
  MshrIo::In a = this->alloc(line, 0x1);
  a.alloc_reserve = (1U << (this->io.reserve_bits - 1)) | 0x5;  // reserved, way 1, slot 1
  this->cycle(a);
  MshrIo::In pr = this->idle(line, 0x6, 0x7);  // stall mode: a conflict (its fetch overlaps sector 0)
  pr.block = true;
  this->io.drive(*this->dut, pr);
  this->dut.settle();
  MshrIo::Out o = this->io.sample(*this->dut);
  EXPECT_TRUE(o.merge);
  EXPECT_FALSE(o.conflict);
  EXPECT_EQ(o.merge_missing, 0x6U);
  EXPECT_TRUE(o.merge_reserved);
  EXPECT_FALSE(o.merge_filled);
  this->cycle(pr);
  MshrIo::In w = this->add(0);
  w.widen = true;
  w.widen_sectors = 0x6;
  this->cycle(w);
  MshrIo::In r1 = this->resp(0);
  r1.resp_sectors = 0x1;
  this->cycle(r1);  // the first read: not the last
  EXPECT_FALSE(this->io.model.entry(0).filled);
  // A second widening in the cycle of the second read's response: still not filled.
  MshrIo::In w2 = this->resp(0);
  w2.resp_sectors = 0x6;
  w2.add = true;
  w2.add_entry = 0;
  this->io.random_request(this->rng, w2.add_id, w2.add_warp, w2.add_mask);
  w2.widen = true;
  w2.widen_sectors = 0x8;
  this->cycle(w2);
  EXPECT_FALSE(this->io.model.entry(0).filled);
  MshrIo::In r3 = this->resp(0);
  r3.resp_sectors = 0x8;
  this->cycle(r3);  // the last read
  EXPECT_TRUE(this->io.model.entry(0).filled);
  MshrIo::In later = this->idle(line, 0x8, 0x8, 0);
  later.block = true;
  this->io.drive(*this->dut, later);
  this->dut.settle();
  o = this->io.sample(*this->dut);
  EXPECT_TRUE(o.merge_filled);
  EXPECT_EQ(o.merge_missing, 0U);
  EXPECT_EQ(o.rd_sectors, 0x1U);  // the block the fill places
  EXPECT_EQ(o.rd_reserve, a.alloc_reserve);
  this->cycle(later);
  this->fill_reads(0);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// l1.sector (contract 14): sectors a load found valid are buffered with the array's bytes; a later
// load of them merges (they are covered), a store to them conflicts, and the fill data reads them
// from the buffer while the response writes the rest.
TYPED_TEST(MshrFile, SectorBufferedSectorsCoverConflictAndAreRead) {
  const uint64_t line = 0x2c5 & tb::low_mask(this->io.line_bits);
  MshrIo::In a = this->alloc(line, 0x1);  // fetches sector 0, sector 1 was valid: buffered
  a.alloc_buffer = 0x2;
  a.buffer_data = random_bits(kDataBits, this->rng);
  this->cycle(a);
  MshrIo::Out o = this->probe(line, 0x2, 0x2);  // a load missing sector 1 only: covered by the buffer
  EXPECT_TRUE(o.merge);
  EXPECT_FALSE(o.conflict);
  o = this->probe(line, 0x4, 0x4);  // sector 2: neither fetched nor buffered, no overlap
  EXPECT_FALSE(o.merge);
  EXPECT_FALSE(o.conflict);
  EXPECT_TRUE(this->probe(line, 0, 0x2, true).conflict);   // a store to the buffered sector waits
  EXPECT_FALSE(this->probe(line, 0, 0x4, true).conflict);  // one to sector 2 does not
  MshrIo::In m = this->add(0);  // a merge that buffers sector 2
  m.add_buffer = 0x4;
  m.buffer_data = random_bits(kDataBits, this->rng);
  this->cycle(m);
  EXPECT_TRUE(this->probe(line, 0, 0x4, true).conflict);
  MshrIo::In r = this->resp(0);  // a response naming every sector
  this->cycle(r);
  MshrIo::In rd = this->idle(0, 0, 0, 0);
  this->io.drive(*this->dut, rd);
  this->dut.settle();
  o = this->io.sample(*this->dut);
  EXPECT_TRUE(o.rd_filled);
  EXPECT_EQ(o.rd_data.get(0, 32), r.resp_data.get(0, 32));                // fetched sector 0
  EXPECT_EQ(o.rd_data.get(256 + 32, 32), a.buffer_data.get(256 + 32, 32));  // buffered at the alloc
  EXPECT_EQ(o.rd_data.get(512 + 64, 32), m.buffer_data.get(512 + 64, 32));  // buffered at the merge
  EXPECT_EQ(o.rd_data.get(768, 32), r.resp_data.get(768, 32));            // sector 3: the response's
  this->cycle(rd);
  this->fill_reads(0);
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// l1.mshr_merge sector in sector mode (contract 14): the line's entry takes the load; what it must
// widen by leaves out the sectors it buffers (answered from the buffer even when the array lost
// them), merge_bypass_o gives the widening read the entry's bypass, and with widen_place_i the read
// port's sectors (what the fill places) include the widening's; without it, the first read's.
TYPED_TEST(MshrFile, SectorMergeWidensThePlacedSectorsAndSkipsBuffered) {
  const uint64_t line = 0x1a7 & tb::low_mask(this->io.line_bits);
  MshrIo::In a = this->alloc(line, 0x1);  // fetches sector 0; sector 1 was valid: buffered
  a.alloc_bypass = 1;                      // an AGCB-predicted bypass
  a.alloc_buffer = 0x2;
  a.buffer_data = random_bits(kDataBits, this->rng);
  this->cycle(a);
  MshrIo::In pr = this->idle(line, 0x6, 0x6);  // missing sectors 1 and 2 (sector 1 evicted since)
  pr.block = true;
  pr.widen_place = true;
  this->io.drive(*this->dut, pr);
  this->dut.settle();
  MshrIo::Out o = this->io.sample(*this->dut);
  EXPECT_TRUE(o.merge);
  EXPECT_EQ(o.merge_missing, 0x4U);  // sector 1 is buffered: only sector 2 is read
  EXPECT_TRUE(o.merge_bypass);
  this->cycle(pr);
  MshrIo::In w = this->add(0);
  w.widen = true;
  w.widen_sectors = 0x4;
  w.widen_place = true;
  this->cycle(w);
  MshrIo::In rd = this->idle(0, 0, 0, 0);
  rd.widen_place = true;
  this->io.drive(*this->dut, rd);
  this->dut.settle();
  EXPECT_EQ(this->io.sample(*this->dut).rd_sectors, 0x5U);  // sector merging: both reads' sectors placed
  this->cycle(rd);
  rd.widen_place = false;
  this->io.drive(*this->dut, rd);
  this->dut.settle();
  EXPECT_EQ(this->io.sample(*this->dut).rd_sectors, 0x1U);  // block merging: the first read's
  this->cycle(rd);
  MshrIo::In b = this->alloc(line + 1, 0x8);  // an entry that does not bypass
  b.alloc_bypass = 0;
  this->cycle(b);
  MshrIo::In pb = this->idle(line + 1, 0x3, 0x3);
  pb.block = true;
  this->io.drive(*this->dut, pb);
  this->dut.settle();
  o = this->io.sample(*this->dut);
  EXPECT_TRUE(o.merge);
  EXPECT_EQ(o.merge_entry, 1U);
  EXPECT_EQ(o.merge_missing, 0x3U);
  EXPECT_FALSE(o.merge_bypass);
  this->cycle(pb);
  EXPECT_FALSE(this->probe(line + 2, 0x1, 0x1).merge_bypass);  // no entry of the line: 0
  EXPECT_EQ(this->board.mismatches(), 0U);
}

// Phases vary the response rate, so that the file runs full and empty.
TYPED_TEST(MshrFile, RandomMatchesGolden) {
  std::mt19937_64& r = this->rng;
  MshrIo& bind = this->io;
  std::vector<unsigned> fifo;  // filled entries in response order
  unsigned fill_index = 0;
  unsigned resp_rate = 4;
  std::array<uint64_t, 6> seen{};
  for (uint64_t c = 0; c < kRandomCycles; ++c) {
    if (c % 5000 == 0) resp_rate = std::array<unsigned, 3>{2, 8, 40}[r() % 3];
    MshrIo::In in;
    in.probe_line = bind.random_line(r);
    in.probe_fetch = static_cast<unsigned>(r() & 0xF);
    in.probe_needed = in.probe_fetch & static_cast<unsigned>(r() & 0xF);
    in.probe_store = (r() & 7) == 0;
    in.rd_entry = static_cast<unsigned>(r() % bind.entries);
    in.rd_req = static_cast<unsigned>(r() % bind.max_merge);
    in.cnt_entry = static_cast<unsigned>(r() % bind.entries);
    const bool filling = !fifo.empty();
    if (filling) {  // the fill unit owns the cycle; S1 waits
      in.rd_entry = fifo.front();
      in.rd_req = fill_index;
      if (++fill_index == bind.model.entry(fifo.front()).requests.size()) {
        in.release = true;
        in.release_entry = fifo.front();
        fifo.erase(fifo.begin());
        fill_index = 0;
      }
    } else if (!in.probe_store) {
      const auto p = bind.model.probe_load(in.probe_line << 7, static_cast<l1d::SectorMask>(in.probe_needed),
                                         static_cast<l1d::SectorMask>(in.probe_fetch));
      if (p.kind == MshrProbe::kMerge || (p.kind == MshrProbe::kMergeFull && (r() & 7) == 0)) {
        in.add = true;  // a merge (a full entry drops it)
        in.add_entry = p.entry;
        bind.random_request(r, in.add_id, in.add_warp, in.add_mask);
      } else if (p.kind == MshrProbe::kNone || (r() & 15) == 0) {  // allocate (ignored when full)
        in.alloc = true;
        in.alloc_line = in.probe_line;
        bind.random_alloc_record(r, in);
        in.alloc_sectors = in.probe_fetch;
      }
    }
    if (r() % resp_rate == 0) {  // the memory answers a pending, unfilled entry
      std::vector<unsigned> pending;
      for (unsigned e = 0; e < bind.entries; ++e)
        if (bind.model.entry(e).valid && !bind.model.entry(e).filled && !(in.release && in.release_entry == e))
          pending.push_back(e);
      if (!pending.empty()) {
        in.resp = true;
        in.resp_entry = pending[r() % pending.size()];
        in.resp_l2_bit = (r() & 1) != 0;
        in.resp_data = random_bits(kDataBits, r);
        fifo.push_back(in.resp_entry);
      }
    }
    // Coverage of what the golden file answers this cycle (before the cycle's updates).
    const auto p = bind.model.probe_load(in.probe_line << 7, static_cast<l1d::SectorMask>(in.probe_needed),
                                         static_cast<l1d::SectorMask>(in.probe_fetch));
    if (!in.probe_store) ++seen[static_cast<unsigned>(p.kind)];
    seen[4] += !bind.model.free_entry().has_value();
    const bool add_to_full = in.add && !in.alloc && bind.model.entry(in.add_entry).requests.size() == bind.max_merge;
    seen[5] += add_to_full;
    if (add_to_full) {  // outside the contract (MshrMergeWithinLimit_A): the RTL drops it, assertions off
      auto off = this->dut.asserts_off();
      this->cycle(in);
    } else {
      this->cycle(in);
    }
  }
  EXPECT_EQ(this->board.mismatches(), 0U);
  // Every probe answer, a full file and a dropped merge occurred (none, merge, merge_full,
  // conflict, file full, add to a full entry).
  for (unsigned k = 0; k < seen.size(); ++k) EXPECT_GT(seen[k], 0U) << "case " << k;
}

// Input-contract violations (docs/rtl-verification.md): each drives the block once outside its
// contract after legal traffic, so that the named assertion must stop the process (verilated with
// --assert). Disabled: ctest's tb.contract.* run each with --gtest_also_run_disabled_tests and
// scripts/expect_assert.sh, which requires the abort and the assertion's name.
TYPED_TEST(MshrFile, DISABLED_ContractRespForFreeEntry) {  // MshrRespPending_A
  this->cycle(this->alloc(5, 0xF));
  this->cycle(this->resp(1));
}
TYPED_TEST(MshrFile, DISABLED_ContractSecondResp) {  // MshrRespPending_A
  this->cycle(this->alloc(5, 0xF));
  this->cycle(this->resp(0));
  this->cycle(this->resp(0));
}
TYPED_TEST(MshrFile, DISABLED_ContractMergeBeyondLimit) {  // MshrMergeWithinLimit_A
  this->cycle(this->alloc(5, 0xF));
  for (unsigned i = 0; i < this->io.max_merge; ++i) this->cycle(this->add(0));
}
TYPED_TEST(MshrFile, DISABLED_ContractAddToFreeEntry) {  // MshrAddToValidEntry_A
  this->cycle(this->alloc(5, 0xF));
  this->cycle(this->add(1));
}
TYPED_TEST(MshrFile, DISABLED_ContractReleaseFreeEntry) {  // MshrReleaseValidEntry_A
  MshrIo::In in = this->idle();
  in.release = true;
  in.release_entry = 0;
  this->cycle(in);
}
TYPED_TEST(MshrFile, DISABLED_ContractRespEntryOutOfRange) {  // MshrRespEntryInRange_A (5 entries)
  if ((this->io.entries & (this->io.entries - 1)) == 0) GTEST_SKIP() << "every entry id exists";
  this->cycle(this->alloc(5, 0xF));
  MshrIo::In in = this->idle();
  in.resp = true;
  in.resp_entry = this->io.entries;  // no such entry (the golden model refuses it: the RTL alone)
  this->io.drive(*this->dut, in);
  this->dut.settle();
  this->dut.tick();
}

TYPED_TEST(MshrFile, DISABLED_ContractAddEntryOutOfRange) {  // MshrAddEntryInRange_A (5 entries)
  if ((this->io.entries & (this->io.entries - 1)) == 0) GTEST_SKIP() << "every entry id exists";
  this->cycle(this->alloc(5, 0xF));
  MshrIo::In in = this->add(0);
  in.add_entry = this->io.entries;  // no such entry
  this->io.drive(*this->dut, in);
  this->dut.settle();
  this->dut.tick();
}
TYPED_TEST(MshrFile, DISABLED_ContractReleaseEntryOutOfRange) {  // MshrReleaseEntryInRange_A (5 entries)
  if ((this->io.entries & (this->io.entries - 1)) == 0) GTEST_SKIP() << "every entry id exists";
  MshrIo::In in = this->idle();
  in.release = true;
  in.release_entry = this->io.entries;  // no such entry
  this->io.drive(*this->dut, in);
  this->dut.settle();
  this->dut.tick();
}

template <class Config>
class MshrFileNetlist : public ::testing::Test {};
TYPED_TEST_SUITE(MshrFileNetlist, models::Configs);

// Only the configurations with a netlist (NETLIST_CONFIGS in CMakeLists.txt: both).
TYPED_TEST(MshrFileNetlist, NetlistMatchesRtl) {
  const MshrIo io(tb::load_config<TypeParam>());
  tb::run_netlist_cosim<TypeParam>(io, models::kBlock, kCosimCycles, 7);
}

}  // namespace
