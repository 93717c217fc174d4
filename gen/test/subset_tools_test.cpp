// Proves the profile against the real tools: probe designs that use every allowed construct
// group (SV-SUBSET.md "Accepted by both") are built with the IR, emitted, and must pass
// `verilator --lint-only -Wall` silently and Yosys `synth` with exit status 0.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "gen/emit.h"
#include "gen/ir.h"
#include "gen/sv_file.h"

namespace gen {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int status = -1;
  std::string output;
};

// Runs `cmd` through the shell with stderr folded into stdout.
RunResult run(const std::string& cmd) {
  RunResult r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

bool have_tool(const std::string& name) { return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0; }

// The package: localparams ($clog2, {W{1'b1}}), an enum with an explicit value, nested packed
// structs with an enum field, an alias, and two automatic functions (a for loop with a local,
// and a unique0 case lookup), each assigning its result to its name.
struct PkgHandles {
  Package pkg;
  Expr ways, way_bits, mask;
  Type state, entry, line, byte;
  Function popcount4, encode4, tag_of, next_state;
};

PkgHandles probe_pkg() {
  Package p("probe_pkg");
  Expr ways = p.localparam("Ways", 4);
  Expr way_bits = p.localparam("WayBits", clog2(ways));
  Expr mask = p.localparam("Mask", Type::logic(8), all_ones(8));
  Type state = p.enum_("state_e", 2, {"StIdle", "StFill", {"StEvict", 3}});
  Type entry = p.struct_("entry_t", {{"tag", Type::logic(4)}, {"state", state}});
  Type line = p.struct_("line_t", {{"entry", entry}, {"valid", Type::logic()}, {"lru", Type::logic(ways)}});
  Type byte = p.alias("byte_t", Type::logic(8));
  Function popcount4 = p.function("popcount4", Type::logic(3), {{"v", Type::logic(ways)}}, [&](FunctionBody& f) {
    Expr acc = f.local("acc", Type::logic(3));
    f.assign(acc, zeros());
    f.for_("i", 0, ways, [&](Block& b, const Expr& i) { b.assign(acc, acc + cast(3, f.arg("v")[i])); });
    f.assign(f.result(), acc);
  });
  Function encode4 = p.function("encode4", Type::logic(2), {{"onehot", Type::logic(4)}}, [&](FunctionBody& f) {
    f.assign(f.result(), zeros());
    f.unique0_case(f.arg("onehot"), [&](CaseBuilder& c) {
      c.item(bin(4, 0b0010), [&](Block& b) { b.assign(f.result(), lit(2, 1)); });
      c.item(bin(4, 0b0100), [&](Block& b) { b.assign(f.result(), lit(2, 2)); });
      c.item(bin(4, 0b1000), [&](Block& b) { b.assign(f.result(), lit(2, 3)); });
      c.default_([](Block&) {});
    });
  });
  // An enum argument and result; own-package items and a call print qualified in the body.
  Function next_state = p.function("next_state", state, {{"s", state}}, [&](FunctionBody& f) {
    f.unique_case(f.arg("s"), [&](CaseBuilder& c) {
      c.item(state.item("StIdle"), [&](Block& b) { b.assign(f.result(), state.item("StFill")); });
      c.item(state.item("StFill"), [&](Block& b) {
        b.if_(popcount4(repl(4, f.arg("s").eq(state.item("StFill")))).eq(lit(3, 4)), [&](Block& t) {
          t.assign(f.result(), state.item("StIdle"));
        }).else_([&](Block& e) { e.assign(f.result(), state.item("StEvict")); });
      });
      c.default_([&](Block& b) { b.assign(f.result(), state.item("StIdle")); });
    });
  });
  // Field values of a struct, passed as logic arguments.
  Function tag_of = p.function("tag_of", Type::logic(4), {{"tag", Type::logic(4)}, {"st", Type::logic(2)}},
                               [&](FunctionBody& f) { f.assign(f.result(), f.arg("tag") ^ concat({f.arg("st"), f.arg("st")})); });
  return {std::move(p), ways, way_bits, mask, state, entry, line, byte, popcount4, encode4, tag_of, next_state};
}

// A parameterized leaf with an asynchronous-reset flop, instanced from a generate loop.
Module probe_leaf() {
  Module m("probe_leaf");
  Expr width = m.param("Width", 4);
  m.clk();
  m.rst_n();
  Expr d = m.input("d_i", width);
  Expr q = m.output("q_o", width);
  Expr d_q = m.logic("d_q", width);
  m.always_ff({{d_q, zeros()}}, [&](Block& b) { b.assign(d_q, d); });
  m.assign(q, d_q);
  return m;
}

// A synchronous-reset flop with a reset loop (<= 64 entries) in a reset block.
// Assertions: a verification region (`ifndef SYNTHESIS) with a clocked and a comb assertion item,
// an assertion statement in an always_comb and a signal only the region reads and drives.
Module probe_checks() {
  Module m("probe_checks");
  m.clk();
  m.rst_n();
  Expr en = m.input("en_i");
  Expr d = m.input("d_i", 4);
  Expr q_o = m.output("q_o", 4);
  Expr q_q = m.logic("q_q", 4);
  m.always_ff({{q_q, zeros()}}, [&](Block& b) { b.if_(en, [&](Block& t) { t.assign(q_q, d); }); });
  m.assign(q_o, q_q);
  m.verification("Assertions of the probe; not synthesized.", [&](Scope& v) {
    v.assert_clocked("ProbeEnableKnown_A", en.eq(bit(true)).lor(en.eq(bit(false))));
    v.assert_comb("ProbeQBelowTwelve_A", q_q.le(lit(4, 12)));
    Expr seen = v.logic("seen", 4);
    v.always_comb({{seen, zeros()}}, [&](Block& b) {
      b.for_("i", 0, 4, [&](Block& body, const Expr& i) { body.assign(seen[i], q_q[i]); });
      b.assert_("ProbeSeenIsQ_A", seen.eq(q_q));
    });
  });
  return m;
}

Module probe_sync() {
  Module m("probe_sync");
  m.clk();
  m.rst_n();
  Expr d = m.input("d_i", 4);
  Expr q = m.output("q_o", 4);
  Expr bits_q = m.logic("bits_q", 4);
  m.always_ff_reset_block(
      FfReset::kSync,
      [&](Block& r) { r.for_("i", 0, 4, [&](Block& b, const Expr& i) { b.assign(bits_q[i], bit(false)); }); },
      [&](Block& b) { b.assign(bits_q, d); });
  m.assign(q, bits_q);
  return m;
}

Module probe_top(const Module& leaf, const PkgHandles& h) {
  const Type& state = h.state;
  Module m("probe_top");
  Expr width = m.param("Width", 8);
  Expr depth = m.param("Depth", Type::int_unsigned(), 4);
  Expr reset_state = m.param("ResetState", state, state.item("StIdle"));
  Expr clk = m.clk();
  Expr rst = m.rst_n();
  Expr req = m.input("req_i", h.line);
  Expr data = m.input("data_i", width);
  Expr addr = m.input("addr_i", clog2(depth));
  Expr sel = m.input("sel_i", 4);
  Expr entry_o = m.output("entry_o", h.entry);
  Expr data_o = m.output("data_o", width);
  Expr flags_o = m.output("flags_o", h.byte);
  Expr state_o = m.output("state_o", state);
  Expr arith_o = m.output("arith_o", width);
  Expr cmp_o = m.output("cmp_o");
  Expr cast_o = m.output("cast_o", h.entry);

  Expr half = m.localparam("Half", width / 2);
  Expr all = m.localparam("AllOnes", Type::logic(width), all_ones(width));

  m.comment("Memories: one and two unpacked dimensions, written without reset.");
  Expr mem_q = m.logic("mem_q", width, {depth});
  Expr grid_q = m.logic("grid_q", 4, {2, 2});
  Expr state_d = m.var("state_d", state);
  Expr state_q = m.var("state_q", state);
  Expr entry_q = m.var("entry_q", h.entry);
  Expr count_d = m.logic("count_d", width);
  Expr count_q = m.logic("count_q", width);
  Expr valid_q = m.logic("valid_q", depth);
  Expr hit = m.logic("hit", depth);
  Expr mask_d = m.logic("mask_d", width);
  Expr prio = m.logic("prio", 2);
  Expr leaf_q = m.logic("leaf_q", width);
  Expr side = m.logic("side", 4);

  m.always_ff_noreset([&](Block& b) {
    b.assign(mem_q[addr], data);
    b.assign(grid_q[sel[0]][sel[1]], sel);
  });

  m.always_comb({{state_d, state_q}, {count_d, count_q}, {mask_d, ones()}}, [&](Block& b) {
    b.unique_case(state_q, [&](CaseBuilder& c) {
      c.item(state.item("StIdle"), [&](Block& s) {
        s.if_(req.field("valid"), [&](Block& t) { t.assign(state_d, state.item("StFill")); });
      });
      c.item({state.item("StFill")}, [&](Block& s) {
        s.assign(state_d, state.item("StEvict"));
        s.assign(count_d, count_q + cast(width, countones(data)));
      });
      c.default_([&](Block& s) { s.assign(state_d, h.next_state(state_q)); });
    });
    b.if_(sel.eq(0), [&](Block& t) { t.assign(mask_d, zeros()); })
        .else_if(sel[3], [&](Block& t) { t.assign(mask_d, all >> 1); })
        .else_([&](Block& e) { e.assign(mask_d[0], bit(false)); });
  });

  m.always_comb({{hit, zeros()}}, [&](Block& b) {
    b.for_("i", 0, depth, [&](Block& l, const Expr& i) {
      l.if_(valid_q[i].land(mem_q[i].eq(data)), [&](Block& t) { t.assign(hit[i], bit(true)); });
    });
  });

  m.always_comb({{prio, zeros()}}, [&](Block& b) {
    b.priority_case(bit(true), [&](CaseBuilder& c) {
      c.item(sel[3], [&](Block& s) { s.assign(prio, lit(2, 3)); });
      c.item(sel[2], [&](Block& s) { s.assign(prio, cast(2, h.popcount4(sel))); });
      c.default_([&](Block& s) { s.assign(prio, h.encode4(sel)); });
    });
  });

  m.always_ff({{state_q, reset_state}, {entry_q, zeros()}, {count_q, zeros()}}, [&](Block& b) {
    b.assign(state_q, state_d);
    b.assign(count_q, count_d);
    b.if_(req.field("valid"), [&](Block& t) { t.assign(entry_q, req.field("entry")); });
  });

  m.always_ff_reset_block(
      FfReset::kAsync,
      [&](Block& r) { r.for_("i", 0, depth, [&](Block& b, const Expr& i) { b.assign(valid_q[i], bit(false)); }); },
      [&](Block& b) { b.assign(valid_q[addr], bit(true)); });

  m.gen_for("g_leaf", "g", 0, 2, [&](Scope& s, const Expr& g) {
    s.instance("u_leaf", leaf, {{"Width", half}},
               {{"clk_i", clk}, {"rst_ni", rst}, {"d_i", data.part(g * half, half)},
                {"q_o", leaf_q.part(g * half, half)}});
  });

  m.gen_if(width.gt(4), "g_wide", [&](Scope& s) {
    Expr tmp = s.logic("tmp", 4);
    s.assign(tmp, data.slice(3, 0) ^ data.slice(7, 4));
    s.assign(side, tmp);
  }).else_("g_narrow", [&](Scope& s) { s.assign(side, data.slice(3, 0)); });

  m.comment("Operators: signed arithmetic, division, comparisons; a vector assigned to a struct.");
  Expr sdata = m.var("sdata", Type::logic_signed(8));
  m.assign(sdata, to_signed(data));
  m.assign(arith_o, to_unsigned(sdata.ashr(1) - sdata) ^ (data * lit(8, 3)) ^ (data / lit(8, 5)) ^
                        (data % lit(8, 7)) ^ -data ^ ~(data << 1) ^ cast(width, req.field("lru")));
  m.assign(cmp_o, (data.le(lit(8, 3)).lor(data.ge(lit(8, 200)))).land(!data.gt(cast(width, sel))));
  m.assign(cast_o, data.slice(5, 0));
  m.assign(entry_o, entry_q);
  m.assign(state_o, state_q);
  Expr wsel = to_signed(concat({bit(false), sel})).lt(signed_cast(lit(5, 3)));
  m.assign(data_o, mux(hit.ne(0), mem_q[addr] ^ leaf_q, mux(wsel, count_q & mask_d, cast(width, grid_q[1][0]) << h.way_bits)) |
                       cast(width, repl(2, prio)) | (h.mask & concat({valid_q, sel})));
  m.assign(flags_o, concat({onehot(sel), onehot0(sel), red_xor(h.tag_of(entry_q.field("tag"), entry_q.field("state"))),
                           entry_q.field("state").eq(state.item("StEvict")), red_and(side),
                           (h.ways + h.way_bits).eq(6), sel.part(1, 2)}));
  return m;
}

class SubsetToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_tool("verilator") || !have_tool("yosys")) GTEST_SKIP() << "verilator or yosys is not installed";
    char tmpl[] = "/tmp/gen_subset_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    const PkgHandles h = probe_pkg();
    const Module leaf = probe_leaf();
    const Module sync = probe_sync();
    const Module checks = probe_checks();
    const Module top = probe_top(leaf, h);
    SvFileSet files(FileHeader{"gen_tests (subset_tools_test)", "probe design, no configuration"});
    files.add(top);
    files.add(leaf);
    files.add(sync);
    files.add(checks);
    files.add(h.pkg);
    for (const fs::path& p : files.write(dir_)) file_list_ += " " + p.string();
  }

  // The probe files stay for inspection when a test failed or GEN_KEEP_PROBES is set.
  void TearDown() override {
    if (dir_.empty()) return;
    if (HasFailure() || std::getenv("GEN_KEEP_PROBES") != nullptr) {
      std::cout << "probe files kept in " << dir_.string() << "\n";
    } else {
      fs::remove_all(dir_);
    }
  }

  fs::path dir_;
  std::string file_list_;
};

TEST_F(SubsetToolsTest, VerilatorLintAllIsSilent) {
  const RunResult r = run("cd " + dir_.string() + " && verilator --version && verilator --lint-only -Wall " +
                          "--top-module probe_top" + file_list_);
  EXPECT_EQ(r.status, 0) << r.output;
  // The only output allowed is the version line we asked for.
  EXPECT_EQ(r.output.rfind("Verilator 5.", 0), 0U) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "lint printed:\n" << r.output << "\nfiles in " << dir_;
}

TEST_F(SubsetToolsTest, YosysSynthesizesTheProbes) {
  const RunResult r = run("cd " + dir_.string() + " && yosys -V && yosys -q -p \"read_verilog -sv -noautowire" +
                          file_list_ + "; hierarchy -check -top probe_top; synth -top probe_top\"");
  EXPECT_EQ(r.status, 0) << r.output << "\nfiles in " << dir_;
  EXPECT_NE(r.output.find("Yosys 0."), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("ERROR"), std::string::npos) << r.output;
}

TEST_F(SubsetToolsTest, SyncResetModuleLintsAndSynthesizesAsItsOwnTop) {
  // probe_sync is its own top: Verilator warns SYNCASYNCNET when one rst_ni net feeds both
  // synchronous and asynchronous resets, so a design picks one style (docs/sv-subset.md).
  const std::string file = (dir_ / "probe_sync.sv").string();
  const RunResult lint = run("verilator --lint-only -Wall --top-module probe_sync " + file);
  EXPECT_EQ(lint.status, 0) << lint.output;
  EXPECT_TRUE(lint.output.empty()) << lint.output;
  const RunResult synth = run("yosys -q -p \"read_verilog -sv -noautowire " + file +
                              "; hierarchy -check -top probe_sync; synth -top probe_sync\"");
  EXPECT_EQ(synth.status, 0) << synth.output;
}

TEST_F(SubsetToolsTest, AssertionsLintSynthesizeAwayAndReadFormally) {
  const std::string file = (dir_ / "probe_checks.sv").string();
  const RunResult lint = run("verilator --lint-only -Wall --top-module probe_checks " + file);
  EXPECT_EQ(lint.status, 0) << lint.output;
  EXPECT_TRUE(lint.output.empty()) << lint.output;
  // Synthesis (SYNTHESIS defined): no assertion cell survives; -formal (FORMAL instead): all three.
  const RunResult synth = run("yosys -p \"read_verilog -sv -noautowire " + file +
                              "; hierarchy -check -top probe_checks; synth -top probe_checks; select -count t:\\$assert\"");
  EXPECT_EQ(synth.status, 0) << synth.output;
  EXPECT_NE(synth.output.find("0 objects"), std::string::npos) << synth.output;
  const RunResult formal = run("yosys -p \"read_verilog -sv -formal " + file +
                               "; prep -top probe_checks; select -count t:\\$assert\"");
  EXPECT_EQ(formal.status, 0) << formal.output;
  EXPECT_NE(formal.output.find("3 objects"), std::string::npos) << formal.output;
}

}  // namespace
}  // namespace gen
