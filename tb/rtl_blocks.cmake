# RTL blocks: lint, synthesis, netlist co-simulation and testbenches (included from CMakeLists.txt).
#
#   add_rtl_block(<module> [USES <module>...] [CONFIGS <config>...] [EXTRA_CONFIGS <yaml>...]
#                 [NO_NETLIST | NETLIST_CONFIGS <config>...] [WAVES_TEST <test>])
#
# For rtl/<module>.sv (dcgen's output for the default configuration, committed) it registers
#   rtl.lint.<module>    verilator --lint-only -Wall: exit 0 and no output      (scripts/rtl.sh lint)
#   rtl.synth.<module>   Yosys read_verilog -sv -noautowire; hierarchy -check; synth; check -assert
#   rtl.waves.<module>   tb/waves/<module>.gtkw names real signals, every port and flop among them
# and builds tb_<module> from tb/<module>_tb.cpp with, for every configuration in RTL_TB_CONFIGS,
#   V<module>_<config>           the verilated RTL of that configuration (-Wall, --x-initial unique)
#   V<module>_<config>_netlist   the verilated Yosys netlist of that RTL (synth/yosys_check.sh), for
#                                the blocks of RTL_COSIM_BLOCKS (every block with RTL_NETLIST_ALL_CONFIGS);
#                                for the others the netlist alone (target Y<module>_<config>_netlist)
# listed in the generated header <module>_models.h (see tb/testbench.h). Its GoogleTest cases are
# registered as tb.<Suite>.<Test><tb::<module>::<config>> (typed tests) and tb.<Suite>.<Test>.
# USES names the blocks <module> instantiates, so that a change to them rebuilds it (Verilator
# finds them in the configuration's RTL directory, -y; Yosys reads the packages and the files the
# module reaches, scripts/rtl_digest.py --files). CONFIGS limits
# the testbench to some configurations (names, e.g. gtx480 qv100; default: all, always with the
# default one), for a block too large to synthesize and verilate at every size. EXTRA_CONFIGS adds
# configurations (YAML files, e.g. tb/block_configs/*.yaml) that only this block runs on, for a
# choice that matters to it alone (l1d_repl_state: one per replacement policy), so that the other
# blocks do not pay for them; dcgen emits them into the block's own directory
# (rtl_blocks/<config>/<module>/), so every block must emit for them. NO_NETLIST builds no Yosys
# netlist and no V<module>_<config>_netlist (the header's structs have no `Netlist`, so the
# testbench has no co-simulation), for a block Yosys needs minutes for (l1d_top). NETLIST_CONFIGS
# builds the netlist for those configurations only (names; the testbench's co-simulation skips the
# others), for a block whose netlist at the presets' sizes takes minutes to build (the SRAM black
# boxes l1d_data_sram and l1d_ram_1r1w at one small shape each; l1d_tag_array).
# WAVES_TEST names the test of the default configuration rtl.waves.<module> runs traced (default:
# the first; a short one will do, as every FST of the model has the whole header).
# SLOW_SYNTH labels rtl.synth.<module> `slow` (make test leaves it out; make test-slow runs it)
# and keeps the module out of rtl.configs' synthesis, for a block Yosys needs many minutes for
# (l1d_top).
#
# The default configuration's RTL is the committed rtl/; every other one is emitted by dcgen into
# the build tree at build time. Why not verilate() from verilator-config.cmake: it runs Verilator
# while CMake configures, so its sources must exist then; the netlists and the other
# configurations' RTL are build products (of Yosys and dcgen). One build-time rule
# (tb/verilate.sh) verilates every model instead; each compiles as one translation unit (~1 s),
# the Verilator runtime once. Every step rewrites its outputs only when their text changes, so
# editing one block's generator rebuilds that block's models only.

find_package(Threads REQUIRED)
find_package(ZLIB)  # FST waves need zlib; without it the testbenches still run, untraced

# The configurations every block's testbench runs on. The first is the default (rtl/), so its
# typed tests are <Suite>/0.<Test> (scripts/waves.sh relies on that).
set(RTL_DEFAULT_CONFIG gtx480)
set(RTL_TB_CONFIGS
    ${CMAKE_SOURCE_DIR}/configs/gtx480.yaml
    ${CMAKE_SOURCE_DIR}/configs/gtx1080.yaml
    ${CMAKE_SOURCE_DIR}/configs/qv100.yaml
    ${CMAKE_SOURCE_DIR}/tb/configs/odd_fermi16.yaml
    ${CMAKE_SOURCE_DIR}/tb/configs/odd_one_set64.yaml
    ${CMAKE_SOURCE_DIR}/tb/configs/odd_policy.yaml)
# Netlist co-simulation costs most of the build (Yosys, then a verilated gate-level model that takes
# up to a minute to compile): make test runs it on the default configuration (make test's 15-minute
# budget); make test-slow (-DRTL_NETLIST_ALL_CONFIGS=ON) on every configuration. A block's own
# NETLIST_CONFIGS and its EXTRA_CONFIGS are always co-simulated.
set(RTL_NETLIST_CONFIGS gtx480 CACHE STRING "configurations whose Yosys netlists are co-simulated")
option(RTL_NETLIST_ALL_CONFIGS "co-simulate the Yosys netlist of every configuration" OFF)
# Which blocks' netlists make test co-simulates: the Yosys netlists above are all built (each is the
# block's synthesis check, and the gtx480 ones feed the equivalence proofs rtl.equiv.*), but only
# these blocks' are split, verilated, compiled and run against their RTL (tb.*.NetlistMatchesRtl);
# the other blocks' co-simulation tests skip. The split, the Verilator runs and the compiles of the
# 38 other netlist models were 234 of make test's 1,505 build step-s (/tmp/cc6, 2026-11-29), and
# gate-level co-simulation moved to make test-slow (RTL_NETLIST_ALL_CONFIGS=ON co-simulates every
# block's, on every configuration). One block keeps the whole flow (Yosys, split, Verilator,
# compare) exercised in make test: l1d_gran_selector on gtx480, the cheapest netlist model with
# flops (2.6 step-s for its split, Verilator run and compile; reset, unreset flops and the clock
# go through the comparison, which a combinational block such as l1d_addr_decode does not test).
set(RTL_COSIM_BLOCKS l1d_gran_selector CACHE STRING "blocks whose Yosys netlists make test co-simulates (all with RTL_NETLIST_ALL_CONFIGS)")
# make test-slow's whole cross product (RTL_TB_ALL_PRESETS=ON): every block's testbench on every
# geometry its CONFIGS allow (all of RTL_TB_CONFIGS without CONFIGS), not only make test's covering
# set (RTL_TB_COVER_<geometry> below); and a block limited to some configurations (add_rtl_block
# CONFIGS: the large arrays) on the three presets too. l1d_top stays on its own list. The GoogleTest
# cases of the geometries make test leaves out carry the ctest label `slow` (make test-slow runs
# them with `ctest -L slow`).
option(RTL_TB_ALL_PRESETS "run every block's testbench on every geometry, and on gtx480, gtx1080 and qv100" OFF)
# make test's covering set of the block testbenches' geometries (the lead's decision for the
# eighth round, 2026-11-29, testbuild7; docs/performance.md, "make test's build, eighth round"):
# every block is verilated and tested on the default configuration (gtx480); each other geometry
# of RTL_TB_CONFIGS on the blocks that its distinguishing shape reaches, listed below
# (RTL_TB_COVER_<geometry>: a block whose generated RTL the shape changes); the rest of the
# (block x geometry) cross product, as each block's CONFIGS allows it, in make test-slow
# (RTL_TB_ALL_PRESETS, whose extra GoogleTest cases carry the ctest label `slow`). A block left out
# of a geometry's list either gets the same RTL there as on a geometry it keeps (tb/verilate.sh
# --same-as shared their models: a second run of the same RTL) or only a size its kept geometries
# already reach. _rtl_cover_check (below) fails the configure step when a block would have no
# geometry, a geometry no block, or a list names a block that cannot run on it.
# gtx1080: 48 ways in 4 sets (a way count that is not a power of two; the linear index on 2 set
# bits), 64 warps per SM in 4 schedulers (the two-level window's 64 warps, PCAL's 16 per
# scheduler), a 32-entry miss queue, 16 MSHRs (l1d_sram_1r1w's 16 words).
set(RTL_TB_COVER_gtx1080 l1d_addr_decode l1d_agelru_ages l1d_chunk_match l1d_pcal_decode l1d_pcal_tokens
    l1d_two_level l1d_miss_queue l1d_sram_1r1w)
# qv100: the adaptive carveout (a run-time set count in the address split), 256 MSHRs (8-bit entry
# ids: the MSHR buffers' RAM and the fill unit's queue), 16-byte instructions (AGCB's PC shift).
# Its 64 ways are odd_one_set64's, its 4 linear sets gtx1080's.
set(RTL_TB_COVER_qv100 l1d_addr_decode l1d_agcb_table l1d_ram_1r1w l1d_fill_issue)
# odd_fermi16: one way of 32 sets, the Fermi hash with bits above a 16-bit address, chunk-tags that
# are the whole line tag (no common-tag bits): the address split, the tag widths, the one-way
# match, ages and replacement, the arrays at one way.
set(RTL_TB_COVER_odd_fermi16 l1d_addr_decode l1d_tag_mask l1d_chunk_match l1d_agelru_ages l1d_repl_state
    l1d_tag_array l1d_line_state l1d_data_sram l1d_sram_demo)
# odd_one_set64: one set (a zero-width set index) of 64 ways, 64-bit addresses, 32-bit chunk-tags
# (128-bit tag vectors): every block that matches, places, ages, replaces or walks over the ways of
# a set, and the arrays and SRAM at one set.
set(RTL_TB_COVER_odd_one_set64 l1d_addr_decode l1d_tag_mask l1d_tag_compare l1d_match_combine l1d_chunk_match
    l1d_match_fix l1d_fill_place l1d_core_match l1d_flush_keep l1d_flush_walker l1d_agelru_ages l1d_repl_state
    l1d_tag_array l1d_sram_1rw l1d_tag_read)
# odd_policy: gtx480's geometry with odd policy tables (AGCB 512 3-bit counters, a 7-request
# granularity sample at 33 %, a two-level window longer than its counters): the three policy blocks.
set(RTL_TB_COVER_odd_policy l1d_agcb_table l1d_gran_selector l1d_two_level)
# Options of every model (one cycle is 10 ns in the waves). The RTL also gets -Wall: no warning is
# allowed. The Yosys netlists: Yosys writes aliased output bits as `assign o[31:18] = o[63:50]` and
# lets logic read output bits, which Verilator reports as a loop on the vector (UNOPTFLAT) and
# evaluates in one pass without iterating: a bit read before the assign that drives it keeps its
# old value, so the netlist settles a step behind (l1d_match_request's old pos_slots_o,
# 2026-11-27; -O0 and the -fno-* options do not change it; tb/selftest/alias_netlist.v). So the
# models verilate the netlists with every multi-bit wire marked split_var and each multi-bit output
# driven from such a wire (synth/netlist_split_vectors.py): no vector loop is left. SPLITVAR: a
# wire connected to a black box's port stays whole (it is not a loop of the netlist's own logic).
# The netlists also get -fno-const-bit-op-tree: Verilator 5.006's bit-op-tree rewrite (V3Const)
# mis-simulates some Yosys netlists of AND/OR/NOT assigns when the model is built with --trace-fst
# (verilator issues #4059, #4842; fixed upstream after 5.006). Seen on l1d_match_combine's netlist
# (2026-11-27): partial_o wrong in 283 of 10^4 random cycles, although Yosys' SAT proof
# (synth/equiv_check.sh) shows the netlist equal to the RTL and the same model built with -O0,
# -fno-gate, -fno-expand or -fno-const-bit-op-tree, or without --trace-fst, agrees with the RTL
# on every cycle. Reduced to 13 assigns: tb/selftest/verilator_bitoptree.v (docs/rtl-verification.md,
# "Netlist equivalence").
# (RTL_NETLIST_ARGS come after RTL_VERILATOR_ARGS on the command line: a later -O3 turns the
# optimization back on.)
set(RTL_VERILATOR_ARGS --x-initial unique -O3 --x-assign fast --timescale 1ns/1ns)
set(RTL_NETLIST_ARGS -Wno-UNOPTFLAT -Wno-SPLITVAR -fno-const-bit-op-tree)
# The blocks whose RTL models compile at -O0 instead of -O1: at -O0 the compile of their large
# models (48 and 64 ways) costs less CPU than their testbenches' runs gain, measured model by model
# (docs/performance.md, "make test's cost, second round"; CPU-s at load ~17, compile saved / test
# and rtl.waves run lost): l1d_chunk_match 14.8 / 1.3, l1d_core_match 6.7 / 1.4, l1d_match_combine
# 3.2 / 0.1, l1d_tag_compare 1.5 / 0.1, l1d_agcb_table 2.7 (its shared models not compiled) / 1.0,
# l1d_tag_array 2.1 / 0.8, l1d_mshr 1.6 / 0.4, l1d_match_fix 1.2 / 0.1. A small block's model
# compiles in the same 0.3 CPU-s at either level and runs up to four times slower at -O0
# (l1d_two_level: 0.2 saved, 2.9 lost; l1d_fill_place 0.7 / 0.3, within the noise, stays).
# The other blocks' models stay at -O1: at -Og the small ones compiled in the same CPU (ten
# models 15.2 -> 14.5 CPU-s with the precompiled header) and a new -Og header would cost about 6
# (docs/performance.md, tenth round).
set(RTL_BLOCKS_O0 l1d_chunk_match l1d_core_match l1d_match_combine l1d_tag_compare l1d_agcb_table
    l1d_tag_array l1d_mshr l1d_match_fix)
# The l1d_top models (l1d_top's own here: gtx480 LRU; the AgeLRU and staged ones of
# sim_cpp/verilated/verilated_l1.cmake), which gpusim --l1 verilated|lockstep and tb_l1d_top run:
# -O2. -O1 halves their compile, make test's largest single steps (the staged model 58.2 -> 32.0
# CPU-s, the LRU one 37.6 -> 19.2; load ~15, 2026-11-28), but their runs get 5-20 % slower (the
# staged lockstep 21.5 -> 25.9 CPU-s), a net make-test saving of about 20-30 CPU-s estimated at
# load (docs/performance.md, "make test's build"), paid by every --l1 verilated|lockstep user while
# issue 24 still asks the verilated L1 to be faster: so -O2 stays CMake's default. make build (the
# Makefile's L1D_TOP_OPT, so make test and CI) takes -O1 since the ninth round (testbuild8,
# 2026-11-29: make test's build had to shrink; docs/performance.md, ninth round); at -O1 too the
# *__Slow.cpp files compile apart at -O0 (_rtl_model).
set(L1D_TOP_MODEL_OPT -O2 CACHE STRING "compiler optimisation level of the verilated l1d_top models (-O0 to -O3)")
if(NOT L1D_TOP_MODEL_OPT MATCHES "^-O[0-3]$")
  message(FATAL_ERROR "L1D_TOP_MODEL_OPT: '${L1D_TOP_MODEL_OPT}' is not allowed; use -O0, -O1, -O2 or -O3")
endif()
# The RTL models (not the netlists, which have none) run with their assertions on: a violated
# assertion stops the testbench with its name (docs/rtl-verification.md).
option(RTL_ASSERT "verilate the RTL models with --assert (gpusim's verilated L1 too)" ON)
if(RTL_ASSERT)
  set(RTL_ASSERT_ARGS --assert)
else()
  set(RTL_ASSERT_ARGS "")
endif()
set(RTL_BUILD_DIR ${CMAKE_BINARY_DIR}/rtl_blocks)
set(RTL_TB_DIR ${CMAKE_SOURCE_DIR}/tb)
if(ZLIB_FOUND)
  set(RTL_TRACE 1)
  list(APPEND RTL_VERILATOR_ARGS --trace-fst)
else()
  set(RTL_TRACE 0)
  message(STATUS "zlib not found: the RTL testbenches are built without FST tracing")
endif()

# Where each configuration's RTL is: rtl/ for the default, the build tree for the others.
file(GLOB RTL_PACKAGES CONFIGURE_DEPENDS RELATIVE ${CMAKE_SOURCE_DIR}/rtl ${CMAKE_SOURCE_DIR}/rtl/*_pkg.sv)
foreach(_cfg ${RTL_TB_CONFIGS})
  get_filename_component(_name ${_cfg} NAME_WE)
  if(_name STREQUAL RTL_DEFAULT_CONFIG)
    set(RTL_DIR_${_name} ${CMAKE_SOURCE_DIR}/rtl)
  else()
    set(RTL_DIR_${_name} ${RTL_BUILD_DIR}/${_name}/rtl)
  endif()
endforeach()

# The Verilator runtime, compiled once for every model.
set(_vinc ${VERILATOR_ROOT}/include)
add_library(verilator_runtime STATIC ${_vinc}/verilated.cpp ${_vinc}/verilated_threads.cpp
                                     $<${RTL_TRACE}:${_vinc}/verilated_fst_c.cpp>)
target_include_directories(verilator_runtime SYSTEM PUBLIC ${_vinc} ${_vinc}/vltstd)
target_compile_definitions(verilator_runtime PUBLIC VM_COVERAGE=0 VM_SC=0 VM_TRACE=${RTL_TRACE}
                                                    VM_TRACE_FST=${RTL_TRACE} VM_TRACE_VCD=0)
target_compile_options(verilator_runtime PRIVATE ${VERILATOR_CFLAGS})
target_link_libraries(verilator_runtime PUBLIC Threads::Threads $<${RTL_TRACE}:ZLIB::ZLIB>)

# The empty translation unit of the precompiled headers' host targets (tb_pch, verilated_pch-O*).
if(NOT EXISTS ${RTL_BUILD_DIR}/pch_host.cpp)
  file(WRITE ${RTL_BUILD_DIR}/pch_host.cpp "// Compiles only the precompiled header it is given (tb/rtl_blocks.cmake).\n")
endif()

# main() and the options of every testbench executable (tb/main.cpp).
add_library(tb_main STATIC ${RTL_TB_DIR}/main.cpp)
target_include_directories(tb_main PUBLIC ${CMAKE_SOURCE_DIR})
target_compile_definitions(tb_main PRIVATE TB_WAVES_DIR="${CMAKE_BINARY_DIR}/waves")
target_compile_options(tb_main PRIVATE ${PROJECT_WARNINGS} ${TEST_CODE_OPT})
target_link_libraries(tb_main PUBLIC verilator_runtime GTest::gtest)

# The testbenches' precompiled header: GoogleTest, fmt, the Verilator runtime and common/config.h
# (tb/testbench.h) take 1.3-1.8 of a testbench's 3-8 CPU-s at -O1 (2026-11-27). It is built with
# the testbenches' options and usage requirements: GCC uses it only when they match, and a
# mismatch is a -Winvalid-pch error under -Werror. _tb_pch(<target>) makes a testbench reuse it.
# The testbenches compile at TEST_RUN_OPT (-O1), not the unit tests' -O0: with this header a small
# testbench's compile saved only about 0.4 of its 3-5 CPU-s at -O0 (9 of them, 39.4 -> 36.0 CPU-s,
# load ~17, 2026-11-29), less than a second header for the testbenches that must stay at -O1
# (about 11 CPU-s), and their own loops run 1.4-3.4 times slower at -O0 (docs/performance.md,
# ninth round). -Og (tenth round) compiles a testbench in about 82 % of -O1's CPU but ran eight
# testbenches' make-test cases 47 % slower (21.96 -> 32.43 CPU-s): about -16 +- 10 CPU-s net
# projected for make test, not verified on every testbench; not taken.
add_library(tb_pch OBJECT ${RTL_BUILD_DIR}/pch_host.cpp)
target_compile_options(tb_pch PRIVATE ${PROJECT_WARNINGS} ${TEST_RUN_OPT})
target_link_libraries(tb_pch PRIVATE tb_main golden common fmt::fmt GTest::gtest)
target_precompile_headers(tb_pch PRIVATE <gtest/gtest.h> <fmt/format.h> <verilated.h> <algorithm> <array>
                          <cstdint> <filesystem> <iostream> <memory> <random> <string> <vector>
                          ${CMAKE_SOURCE_DIR}/common/config.h)
if(RTL_TRACE)
  target_precompile_headers(tb_pch PRIVATE <verilated_fst_c.h>)
endif()
function(_tb_pch target)
  target_precompile_headers(${target} REUSE_FROM tb_pch)
endfunction()

add_custom_target(tb_tests)  # builds every testbench executable

# _rtl_model(<prefix> [OBJECT] [OPT <flag>] DEPENDS <files...> ARGS <tb/verilate.sh source and Verilator arguments...>)
# A static library holding the verilated model <prefix> (header <prefix>.h), compiled with OPT
# (default -O2). OBJECT: an object library instead, for a model that only executables link
# directly (the blocks' RTL and netlist models, each linked by its testbench alone): its object
# goes on the link line without an archive step (/tmp/cc7: 139 archive steps, 44.2 step-s, most of
# them one block model's ar + ranlib of ~0.3 s).
function(_rtl_model prefix)
  cmake_parse_arguments(M "OBJECT" "OPT" "DEPENDS;ARGS" ${ARGN})
  if(NOT M_OPT)
    set(M_OPT -O2)
  endif()
  set(mdir ${RTL_BUILD_DIR}/verilated/${prefix})
  # An l1d_top model above -O0 compiles Verilator's *__Slow.cpp files apart at -O0 (tb/verilate.sh
  # --slow-apart): the constructor's resets, the initial and settle evaluation and the waves'
  # declarations and full dumps, which run once per model or waves file; 40 % of the l1d_top
  # models' C++. The evaluation keeps the model's level, so gpusim --l1 verilated|lockstep runs
  # the same code (docs/performance.md, "Where make test goes, fourth round").
  set(slow "")
  set(slow_arg "")
  if(M_OPT MATCHES "^-O[123]$" AND prefix MATCHES "^Vl1d_top")
    set(slow ${mdir}/${prefix}__unity_slow.cpp)
    set(slow_arg --slow-apart)
  endif()
  add_custom_command(
    OUTPUT ${mdir}/${prefix}__unity.cpp ${slow}
    # The root header too: a testbench that reaches into the model's flops includes it, and
    # Ninja recompiles that testbench after a re-verilation only if it knows who writes the file.
    BYPRODUCTS ${mdir}/${prefix}.h ${mdir}/${prefix}___024root.h
    COMMAND ${RTL_TB_DIR}/verilate.sh ${VERILATOR_BIN} ${mdir} ${prefix} ${slow_arg} ${M_ARGS}
    DEPENDS ${M_DEPENDS} ${RTL_TB_DIR}/verilate.sh ${VERILATOR_BIN}
    COMMENT "Verilating ${prefix}"
    VERBATIM)
  if(M_OBJECT)
    add_library(${prefix} OBJECT ${mdir}/${prefix}__unity.cpp)
  else()
    add_library(${prefix} STATIC ${mdir}/${prefix}__unity.cpp)
  endif()
  if(slow)
    # EXCLUDE_FROM_ALL: built for ${prefix} only (the coverage models are not in the default build).
    add_library(${prefix}_slow OBJECT EXCLUDE_FROM_ALL ${slow})
    target_include_directories(${prefix}_slow SYSTEM PRIVATE ${mdir})
    target_compile_options(${prefix}_slow PRIVATE -O0 ${VERILATOR_CFLAGS})
    target_link_libraries(${prefix}_slow PRIVATE verilator_runtime)
    _rtl_model_pch(${prefix}_slow -O0)
    target_sources(${prefix} PRIVATE $<TARGET_OBJECTS:${prefix}_slow>)
  endif()
  target_include_directories(${prefix} SYSTEM PUBLIC ${mdir})
  # -O2 after the build type's -O3: the models compile in about 55 % of the time (l1d_top: 57 s
  # instead of 104 s) and gpusim --l1 verilated ran no slower within the noise (2026-11-22); the
  # l1d_top models compile at L1D_TOP_MODEL_OPT (-O2).
  # The Yosys netlists (OPT -O0) run 10^4 cycles each: unoptimised they compile in about a fifth
  # of the time (the agcb_table netlist: 3.8 s instead of 17.8 s) and still run in milliseconds.
  target_compile_options(${prefix} PRIVATE ${M_OPT} ${VERILATOR_CFLAGS})
  target_link_libraries(${prefix} PUBLIC verilator_runtime)
  _rtl_model_pch(${prefix} ${M_OPT})
endfunction()

# _rtl_model_pch(<model> <opt>): <model> reuses the precompiled Verilator runtime headers of its
# optimisation level. A small block's model is a few hundred lines, but verilated.h and
# verilated_fst_c.h take 0.8 of its 0.9 CPU-s to compile (-O1; 0.27 CPU-s with the header
# precompiled, the same object code; 2026-11-27). One header per level: GCC 12 rejects a header
# built at -O0 for -O1 and crashes (internal compiler error) on one built at -O1 used at -O2.
function(_rtl_model_pch model opt)
  set(host verilated_pch${opt})
  if(NOT TARGET ${host})
    add_library(${host} OBJECT ${RTL_BUILD_DIR}/pch_host.cpp)
    target_compile_options(${host} PRIVATE ${opt} ${VERILATOR_CFLAGS})
    target_link_libraries(${host} PRIVATE verilator_runtime)
    set(headers <verilated.h>)
    if(RTL_TRACE)
      list(APPEND headers <verilated_fst_c.h>)
    endif()
    target_precompile_headers(${host} PRIVATE ${headers})
  endif()
  target_precompile_headers(${model} REUSE_FROM ${host})
endfunction()

# _rtl_emit_extra(<yaml> <module> <dir> <files...>): dcgen's output for an EXTRA_CONFIGS entry of
# <module>, the files it needs (its own, its USES' and the packages) copied into <dir>.
function(_rtl_emit_extra cfg module dir)
  get_filename_component(name ${cfg} NAME_WE)
  set(tmp ${RTL_BUILD_DIR}/${name}/dcgen_${module})
  list(TRANSFORM ARGN PREPEND ${dir}/ OUTPUT_VARIABLE outputs)
  list(TRANSFORM ARGN PREPEND ${tmp}/ OUTPUT_VARIABLE emitted)
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${tmp}
    COMMAND dcgen --config ${cfg} --out ${tmp}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${emitted} ${dir}
    DEPENDS dcgen ${cfg}
    COMMENT "dcgen: RTL for ${name} (${module} only)"
    VERBATIM)
endfunction()

function(add_rtl_block module)
  cmake_parse_arguments(B "NO_NETLIST;SLOW_SYNTH" "WAVES_TEST" "USES;CONFIGS;EXTRA_CONFIGS;NETLIST_CONFIGS" ${ARGN})
  set(own_configs ${B_CONFIGS})  # the block's own list: make test's geometries come from it alone
  if(B_CONFIGS AND RTL_TB_ALL_PRESETS AND NOT module STREQUAL "l1d_top")
    list(APPEND B_CONFIGS gtx1080 qv100)
  endif()
  # The block models serve their testbenches only (-O1: two thirds of -O2's compile time);
  # l1d_top's is also gpusim's verilated L1 (L1D_TOP_MODEL_OPT); RTL_BLOCKS_O0's at -O0.
  # l1d_top's gtx480 model is also a static library of gpusim's verilated L1 (verilated_l1.cmake);
  # every other block's models are object libraries (_rtl_model OBJECT): only tb_<module> links them.
  set(model_kind OBJECT)
  if(module STREQUAL "l1d_top")
    set(model_kind "")
    set(rtl_opt ${L1D_TOP_MODEL_OPT})
  elseif(module IN_LIST RTL_BLOCKS_O0)
    set(rtl_opt -O0)
  else()
    set(rtl_opt -O1)
  endif()
  set_property(GLOBAL APPEND PROPERTY RTL_BLOCKS ${module})
  set(script ${CMAKE_SOURCE_DIR}/scripts/rtl.sh)
  add_test(NAME rtl.lint.${module} COMMAND ${script} lint ${CMAKE_SOURCE_DIR}/rtl ${module})
  # A block whose default-configuration netlist the build makes (below) is synthesized by that
  # build step with this same check (synth/yosys_check.sh on rtl/; a warning fails the build), so
  # rtl.synth.<module> would run Yosys on the same input a second time: it is registered only for
  # the blocks without that netlist, and for the synthesis black boxes (yosys_check.sh's default
  # SYN_BLACKBOX), whose check alone (elaborated, memories not mapped) differs from their netlist's.
  if(B_NETLIST_CONFIGS)
    set(default_netlist_configs ${B_NETLIST_CONFIGS})
  elseif(RTL_NETLIST_ALL_CONFIGS)
    set(default_netlist_configs ${RTL_DEFAULT_CONFIG})
  else()
    set(default_netlist_configs ${RTL_NETLIST_CONFIGS})
  endif()
  set(synth_black_boxes l1d_data_sram l1d_ram_1r1w l1d_sram_1rw l1d_sram_1r1w)
  if(B_NO_NETLIST OR NOT RTL_DEFAULT_CONFIG IN_LIST default_netlist_configs OR module IN_LIST synth_black_boxes)
    add_test(NAME rtl.synth.${module} COMMAND ${script} synth ${CMAKE_SOURCE_DIR}/rtl ${module})
  endif()
  if(B_SLOW_SYNTH)  # too slow for make test: `make test-slow` (ctest -L slow) runs it
    set_tests_properties(rtl.synth.${module} PROPERTIES LABELS slow TIMEOUT 7200)
    set_property(GLOBAL APPEND PROPERTY RTL_SYNTH_SKIP ${module})
  endif()
  add_test(NAME rtl.waves.${module}
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/waves.sh check ${module} $<TARGET_FILE:tb_${module}> ${B_WAVES_TEST})
  set_tests_properties(rtl.waves.${module} PROPERTIES SKIP_RETURN_CODE 77)

  set(units ${module} ${B_USES})  # the files a change of which rebuilds this block's models
  list(TRANSFORM units APPEND .sv)
  list(APPEND units ${RTL_PACKAGES})
  set_property(GLOBAL PROPERTY RTL_UNITS_${module} ${units})  # add_rtl_mutants
  set(includes "")
  set(structs "")
  set(names "")
  set(models "")
  # The block's RTL models so far: a configuration whose RTL is one of theirs byte for byte (but
  # dcgen's header comments) shares its model (tb/verilate.sh --same-as; 2026-11-28: 31 of the 119
  # RTL models of make test, e.g. l1d_gran_selector's on five configurations).
  set(same_as_args "")
  set(same_as_deps "")
  set(same_as_models "")
  foreach(cfg ${B_EXTRA_CONFIGS})  # emitted for this block alone (RTL_DIR_<name> is local here)
    get_filename_component(name ${cfg} NAME_WE)
    set(RTL_DIR_${name} ${RTL_BUILD_DIR}/${name}/${module})
    _rtl_emit_extra(${cfg} ${module} ${RTL_DIR_${name}} ${units})
  endforeach()
  # make test's configurations first (the default, the geometries whose RTL_TB_COVER_<name> lists
  # this block, the EXTRA_CONFIGS), then make test-slow's (RTL_TB_ALL_PRESETS): the typed tests'
  # indices <Suite>/<i> from len(test_configs) up are the slow ones (labelled below), and make
  # test's indices are the same in both builds (tb.contract's MshrFile/1 is mshr_small in both).
  set(test_configs "")
  set(slow_configs "")
  set(left_out "")  # the geometries this block's CONFIGS allow but make test leaves out
  foreach(cfg ${RTL_TB_CONFIGS} ${B_EXTRA_CONFIGS})
    get_filename_component(name ${cfg} NAME_WE)
    if(B_CONFIGS AND NOT name IN_LIST B_CONFIGS AND NOT name STREQUAL RTL_DEFAULT_CONFIG
       AND NOT cfg IN_LIST B_EXTRA_CONFIGS)
      continue()
    endif()
    if(name STREQUAL RTL_DEFAULT_CONFIG OR cfg IN_LIST B_EXTRA_CONFIGS
       OR (module IN_LIST RTL_TB_COVER_${name} AND (NOT own_configs OR name IN_LIST own_configs)))
      list(APPEND test_configs ${cfg})
    else()
      if(NOT own_configs OR name IN_LIST own_configs)
        list(APPEND left_out ${name})
      endif()
      if(RTL_TB_ALL_PRESETS)
        list(APPEND slow_configs ${cfg})
      endif()
    endif()
  endforeach()
  set(test_names ${test_configs})
  list(TRANSFORM test_names REPLACE "^.*/([^/]*)\\.yaml$" "\\1")
  set_property(GLOBAL PROPERTY RTL_TB_TEST_CONFIGS_${module} ${test_names})  # _rtl_cover_check
  set_property(GLOBAL PROPERTY RTL_TB_ALLOWED_${module} ${test_names} ${left_out})
  list(LENGTH test_configs n_test_configs)
  foreach(cfg ${test_configs} ${slow_configs})
    get_filename_component(name ${cfg} NAME_WE)
    set(rtl V${module}_${name})
    set(net V${module}_${name}_netlist)
    set(netlist ${RTL_BUILD_DIR}/${name}/netlist/${module}_netlist.v)
    list(TRANSFORM units PREPEND ${RTL_DIR_${name}}/ OUTPUT_VARIABLE sources)
    _rtl_model(${rtl} ${model_kind} OPT ${rtl_opt} DEPENDS ${sources} ${same_as_deps}
               ARGS ${same_as_args} --rtl ${RTL_DIR_${name}} ${module} -Wall ${RTL_ASSERT_ARGS} ${RTL_VERILATOR_ARGS})
    if(same_as_models)
      target_link_libraries(${rtl} PUBLIC ${same_as_models})
    endif()
    list(APPEND same_as_args --same-as ${rtl} ${RTL_BUILD_DIR}/verilated/${rtl})
    list(APPEND same_as_deps ${RTL_BUILD_DIR}/verilated/${rtl}/${rtl}__unity.cpp)
    list(APPEND same_as_models ${rtl})
    if(B_NETLIST_CONFIGS)
      set(netlist_configs ${B_NETLIST_CONFIGS})
    elseif(RTL_NETLIST_ALL_CONFIGS OR cfg IN_LIST B_EXTRA_CONFIGS)
      set(netlist_configs ${name})
    else()
      set(netlist_configs ${RTL_NETLIST_CONFIGS})
    endif()
    if(NOT B_NO_NETLIST AND name IN_LIST netlist_configs)
      add_custom_command(
        OUTPUT ${netlist}
        COMMAND ${CMAKE_SOURCE_DIR}/synth/yosys_check.sh ${RTL_DIR_${name}} ${module} ${netlist}
        DEPENDS ${sources} ${CMAKE_SOURCE_DIR}/synth/yosys_check.sh ${CMAKE_SOURCE_DIR}/scripts/rtl_digest.py
        COMMENT "Yosys: ${module} netlist for ${name}"
        VERBATIM)
    endif()
    if(B_NO_NETLIST OR NOT name IN_LIST netlist_configs)  # the RTL model alone
      list(APPEND models ${rtl})
      string(APPEND includes "#include \"${rtl}.h\"\n")
      set(netlist_alias "")
    elseif(NOT RTL_NETLIST_ALL_CONFIGS AND NOT module IN_LIST RTL_COSIM_BLOCKS)
      # The netlist alone (RTL_COSIM_BLOCKS): its synthesis check, built by default; no model, so
      # the testbench's co-simulation skips (make test-slow runs it).
      add_custom_target(Y${module}_${name}_netlist ALL DEPENDS ${netlist})
      list(APPEND models ${rtl})
      string(APPEND includes "#include \"${rtl}.h\"\n")
      set(netlist_alias "")
    else()
      # Verilator 5.006 mis-simulates a vector whose bits feed each other (RTL_NETLIST_ARGS): it
      # verilates a copy with every such vector split into bits (synth/netlist_split_vectors.py).
      set(netlist_sim ${RTL_BUILD_DIR}/${name}/netlist/${module}_netlist_split.v)
      add_custom_command(
        OUTPUT ${netlist_sim}
        COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py ${netlist} ${netlist_sim}
        DEPENDS ${netlist} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py
        VERBATIM)
      # -y: the black boxes the netlist instantiates (SYN_BLACKBOX) are their behavioural RTL.
      _rtl_model(${net} OBJECT OPT -O0 DEPENDS ${netlist_sim} ${sources}
                 ARGS --file ${netlist_sim} -y ${RTL_DIR_${name}} ${RTL_VERILATOR_ARGS} ${RTL_NETLIST_ARGS})
      list(APPEND models ${rtl} ${net})
      string(APPEND includes "#include \"${rtl}.h\"\n#include \"${net}.h\"\n")
      set(netlist_alias "  using Netlist = ::${net};\n")
    endif()
    if(name STREQUAL RTL_DEFAULT_CONFIG)
      set(default true)
    else()
      set(default false)
    endif()
    string(APPEND structs
           "struct ${name} {\n"
           "  using Rtl = ::${rtl};\n"
           "${netlist_alias}"
           "  static constexpr const char* kName = \"${name}\";\n"
           "  static constexpr const char* kConfig = \"${cfg}\";\n"
           "  static constexpr bool kDefault = ${default};\n"
           "};\n")
    list(APPEND names ${name})
  endforeach()
  list(JOIN names ", " type_list)
  string(CONCAT content
         "// Generated by tb/rtl_blocks.cmake: the verilated models of ${module}, per configuration.\n"
         "#pragma once\n\n#include <gtest/gtest.h>\n\n${includes}\n"
         "namespace tb::${module} {\n\ninline constexpr const char* kBlock = \"${module}\";\n\n${structs}\n"
         "using Configs = ::testing::Types<${type_list}>;\n\n}  // namespace tb::${module}\n")
  file(CONFIGURE OUTPUT ${RTL_BUILD_DIR}/include/${module}_models.h CONTENT "${content}" @ONLY)

  add_executable(tb_${module} ${RTL_TB_DIR}/${module}_tb.cpp)
  target_include_directories(tb_${module} PRIVATE ${RTL_BUILD_DIR}/include)
  target_compile_options(tb_${module} PRIVATE ${PROJECT_WARNINGS} ${TEST_RUN_OPT})
  _tb_pch(tb_${module})
  target_link_libraries(tb_${module} PRIVATE tb_main ${models} golden common fmt::fmt GTest::gtest)
  if(slow_configs)
    # The typed tests of make test-slow's geometries (indices n_test_configs and up): label `slow`.
    # GoogleTest names a typed test <Suite>/<index>.<Test>; `*/<i>.*` matches no other name.
    set(slow_filter "")
    list(LENGTH names n_names)
    math(EXPR last "${n_names} - 1")
    foreach(i RANGE ${n_test_configs} ${last})
      list(APPEND slow_filter "*/${i}.*")
    endforeach()
    list(JOIN slow_filter ":" slow_filter)
    gtest_suite_tests(tb_${module} TEST_PREFIX "tb." TEST_FILTER "-${slow_filter}")
    gtest_suite_tests(tb_${module} TEST_PREFIX "tb." TEST_FILTER "${slow_filter}" LABELS slow)
  else()
    gtest_suite_tests(tb_${module} TEST_PREFIX "tb.")
  endif()
  add_dependencies(tb_tests tb_${module})
endfunction()

# The covering set's check (RTL_TB_COVER_<geometry>, the lead's decision of 2026-11-29): at the end
# of the configure step, when every block is registered, it fails the configure step when a block
# has no RTL_TB_CONFIGS geometry in make test, when a geometry of RTL_TB_CONFIGS reaches no block in
# make test, or when RTL_TB_COVER_<geometry> names a block that is not registered or whose CONFIGS
# leave that geometry out (a list entry that tests nothing).
function(_rtl_cover_check)
  get_property(blocks GLOBAL PROPERTY RTL_BLOCKS)
  set(geometries "")
  foreach(cfg ${RTL_TB_CONFIGS})
    get_filename_component(name ${cfg} NAME_WE)
    list(APPEND geometries ${name})
    set(count_${name} 0)
  endforeach()
  foreach(block ${blocks})
    get_property(tested GLOBAL PROPERTY RTL_TB_TEST_CONFIGS_${block})
    set(n 0)
    foreach(name ${tested})
      if(name IN_LIST geometries)
        math(EXPR n "${n} + 1")
        math(EXPR count_${name} "${count_${name}} + 1")
      endif()
    endforeach()
    if(n EQUAL 0)
      message(FATAL_ERROR "tb/rtl_blocks.cmake: block ${block} runs on no geometry of RTL_TB_CONFIGS in make test (tested: '${tested}'); it must run on ${RTL_DEFAULT_CONFIG} at least")
    endif()
  endforeach()
  set(summary "")
  foreach(name ${geometries})
    list(APPEND summary "${name} ${count_${name}}")
    if(count_${name} EQUAL 0)
      message(FATAL_ERROR "tb/rtl_blocks.cmake: geometry ${name} (RTL_TB_CONFIGS) reaches no block in make test; name the blocks its shape changes in RTL_TB_COVER_${name}")
    endif()
    foreach(block ${RTL_TB_COVER_${name}})
      get_property(allowed GLOBAL PROPERTY RTL_TB_ALLOWED_${block})
      if(NOT block IN_LIST blocks)
        message(FATAL_ERROR "tb/rtl_blocks.cmake: RTL_TB_COVER_${name} names ${block}, which is no add_rtl_block(); allowed: the registered blocks")
      elseif(NOT name IN_LIST allowed)
        message(FATAL_ERROR "tb/rtl_blocks.cmake: RTL_TB_COVER_${name} names ${block}, whose CONFIGS leave ${name} out (allowed: ${allowed})")
      endif()
    endforeach()
  endforeach()
  list(JOIN summary ", " summary)
  message(STATUS "Block testbenches in make test, blocks per geometry: ${summary}")
endfunction()
cmake_language(DEFER CALL _rtl_cover_check)

# _rtl_models_header(<include dir> <module> <model>): <include dir>/<module>_models.h naming one
# model as the default configuration's, for a testbench built on another model of <module> (the
# mutants of add_rtl_mutants, the coverage models of tb/coverage.cmake).
function(_rtl_models_header incdir module model)
  set(cfg ${CMAKE_SOURCE_DIR}/configs/${RTL_DEFAULT_CONFIG}.yaml)
  file(CONFIGURE OUTPUT ${incdir}/${module}_models.h CONTENT
       "// Generated by tb/rtl_blocks.cmake: one model of ${module} (_rtl_models_header).\n#pragma once\n\n#include <gtest/gtest.h>\n\n#include \"${model}.h\"\n\nnamespace tb::${module} {\n\ninline constexpr const char* kBlock = \"${module}\";\n\nstruct ${RTL_DEFAULT_CONFIG} {\n  using Rtl = ::${model};\n  static constexpr const char* kName = \"${RTL_DEFAULT_CONFIG}\";\n  static constexpr const char* kConfig = \"${cfg}\";\n  static constexpr bool kDefault = true;\n};\n\nusing Configs = ::testing::Types<${RTL_DEFAULT_CONFIG}>;\n\n}  // namespace tb::${module}\n"
       @ONLY)
endfunction()

# add_rtl_mutants(<module> <mutants file> FILTER <gtest filter> [SIM_L1] [LABELS <label>...]
#                 [VARIANT <name> SOURCE_DIR <dir> DEPENDS <file>... SIM_CONFIG <yaml>]
#                 [MUTANT_FILTERS <name>=<gtest filter>...])
# The assertion mutation tests of <module> (docs/rtl-verification.md): scripts/mutate_rtl.py
# copies the default configuration's RTL with every mutant of the file (one line each: name,
# the assertion it must fire, the file, the text replaced and its replacement, selected at run
# time by the plusarg +mut_<name>), one model V<module>_mutants verilated with --assert holds
# them all, and tb_<module>_mutants is tb/<module>_tb.cpp on it (SIM_L1: through a copy of the
# verilated L1 library, as tb_l1d_top uses it). Test rtl.mutant.<name> runs the tests of FILTER
# with +mut_<name> and passes when the named assertion stops them (scripts/expect_assert.sh).
function(add_rtl_mutants module file)
  # VARIANT: another configuration's RTL (the staged l1d_top): mutated from SOURCE_DIR, whose files
  # DEPENDS lists, into targets named <module>_<variant>; SIM_CONFIG is its configuration file,
  # which the verilated L1 library's model table names (add_verilated_l1_variant).
  # MUTANT_FILTERS: a mutant whose inputs only another test reaches runs that test alone instead of
  # FILTER (which would first run FILTER's tests silently on it).
  cmake_parse_arguments(M "SIM_L1" "FILTER;VARIANT;SOURCE_DIR;SIM_CONFIG" "LABELS;DEPENDS;MUTANT_FILTERS" ${ARGN})
  get_property(units GLOBAL PROPERTY RTL_UNITS_${module})
  set(src ${RTL_DIR_${RTL_DEFAULT_CONFIG}})
  set(name ${module})
  list(TRANSFORM units PREPEND ${src}/ OUTPUT_VARIABLE sources)
  if(M_VARIANT)
    set(src ${M_SOURCE_DIR})
    set(name ${module}_${M_VARIANT})
    set(sources ${M_DEPENDS})
    list(TRANSFORM M_DEPENDS REPLACE "^.*/" "" OUTPUT_VARIABLE units)
  endif()
  set(base ${RTL_BUILD_DIR}/mutants/${name})
  set(prefix V${name}_mutants)
  list(TRANSFORM units PREPEND ${base}/rtl/ OUTPUT_VARIABLE mutated)
  add_custom_command(
    OUTPUT ${mutated}
    COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/scripts/mutate_rtl.py ${src} ${base}/rtl ${file}
    DEPENDS ${sources} ${file} ${CMAKE_SOURCE_DIR}/scripts/mutate_rtl.py
    COMMENT "Mutants of ${name}"
    VERBATIM)
  # -O0: the mutants run until their assertion fires (thousands of cycles), not for speed.
  _rtl_model(${prefix} OPT -O0 DEPENDS ${mutated} ARGS --rtl ${base}/rtl ${module} ${RTL_ASSERT_ARGS} ${RTL_VERILATOR_ARGS})
  _rtl_models_header(${base}/include ${module} ${prefix})
  set(tb tb_${name}_mutants)
  add_executable(${tb} ${RTL_TB_DIR}/${module}_tb.cpp)
  target_include_directories(${tb} BEFORE PRIVATE ${base}/include)
  target_include_directories(${tb} PRIVATE ${RTL_BUILD_DIR}/include)
  target_compile_options(${tb} PRIVATE ${PROJECT_WARNINGS} ${TEST_RUN_OPT})
  target_link_libraries(${tb} PRIVATE tb_main ${prefix} golden common fmt::fmt GTest::gtest)
  _tb_pch(${tb})
  if(M_SIM_L1)  # sim_cpp/verilated/verilated_l1.cmake
    if(M_SIM_CONFIG)  # add_verilated_l1_variant names the model's configuration RTL_DEFAULT_CONFIG
      set(RTL_DEFAULT_CONFIG ${M_SIM_CONFIG})
    endif()
    add_verilated_l1_variant(verilated_l1_${name}_mutants ${prefix} ${base}/include)
    target_link_libraries(${tb} PRIVATE verilated_l1_${name}_mutants)
  endif()
  add_dependencies(tb_tests ${tb})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})  # a new mutant is a new test
  file(STRINGS ${file} lines REGEX "^[a-z0-9_]+ @@ ")
  set(seen "")
  foreach(line ${lines})
    # A ';' in the SystemVerilog text splits a line into list items: only a line's first item
    # starts with its name.
    if(NOT line MATCHES "^([a-z0-9_]+) @@ ([A-Za-z0-9_]+) @@")
      continue()
    endif()
    set(mutant ${CMAKE_MATCH_1})
    set(assertion ${CMAKE_MATCH_2})
    if(mutant IN_LIST seen)  # a mutant of several lines (mutate_rtl.py): one test
      continue()
    endif()
    list(APPEND seen ${mutant})
    set(filter ${M_FILTER})
    foreach(pair ${M_MUTANT_FILTERS})
      if(pair MATCHES "^${mutant}=(.+)$")
        set(filter ${CMAKE_MATCH_1})
      endif()
    endforeach()
    add_test(NAME rtl.mutant.${mutant}
             COMMAND ${CMAKE_SOURCE_DIR}/scripts/expect_assert.sh ${assertion} $<TARGET_FILE:${tb}> +mut_${mutant}
                     --gtest_also_run_disabled_tests --gtest_filter=${filter})
    if(M_LABELS)
      set_tests_properties(rtl.mutant.${mutant} PROPERTIES LABELS "${M_LABELS}" TIMEOUT 1800)
    endif()
  endforeach()
endfunction()

# One dcgen run per non-default configuration writes every block's file (copy_if_different: an
# unchanged file keeps its time stamp, and Ninja re-stats custom command outputs). Deferred to
# the end of the configure step, when add_rtl_block() has named every block.
function(_rtl_emit_rules)
  get_property(blocks GLOBAL PROPERTY RTL_BLOCKS)
  list(TRANSFORM blocks APPEND .sv OUTPUT_VARIABLE files)
  list(APPEND files ${RTL_PACKAGES})
  foreach(cfg ${RTL_TB_CONFIGS})
    get_filename_component(name ${cfg} NAME_WE)
    if(name STREQUAL RTL_DEFAULT_CONFIG)
      continue()
    endif()
    set(tmp ${RTL_BUILD_DIR}/${name}/dcgen)
    list(TRANSFORM files PREPEND ${RTL_DIR_${name}}/ OUTPUT_VARIABLE outputs)
    list(TRANSFORM files PREPEND ${tmp}/ OUTPUT_VARIABLE emitted)
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND ${CMAKE_COMMAND} -E rm -rf ${tmp}
      COMMAND dcgen --config ${cfg} --out ${tmp}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${RTL_DIR_${name}}
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${emitted} ${RTL_DIR_${name}}
      DEPENDS dcgen ${cfg}
      COMMENT "dcgen: RTL for ${name}"
      VERBATIM)
    add_custom_target(rtl_${name} DEPENDS ${outputs})
    foreach(block ${blocks})
      if(TARGET V${block}_${name})
        add_dependencies(V${block}_${name} rtl_${name})
      endif()
      if(TARGET V${block}_${name}_netlist)  # none with NO_NETLIST
        add_dependencies(V${block}_${name}_netlist rtl_${name})
      endif()
      if(TARGET Y${block}_${name}_netlist)  # a netlist without its model (RTL_COSIM_BLOCKS)
        add_dependencies(Y${block}_${name}_netlist rtl_${name})
      endif()
    endforeach()
  endforeach()
endfunction()
cmake_language(DEFER CALL _rtl_emit_rules)

# Verilator and a vector whose bits feed each other (tb/alias_netlist_test.cpp): the netlist as it
# is (mis-simulated by Verilator 5.006) and as the netlist models verilate it.
set(_alias ${RTL_TB_DIR}/selftest/alias_netlist.v)
set(_alias_split ${RTL_BUILD_DIR}/selftest/alias_netlist_split.v)
add_custom_command(OUTPUT ${_alias_split}
                   COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py ${_alias} ${_alias_split}
                   DEPENDS ${_alias} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py VERBATIM)
_rtl_model(Valias_netlist_raw DEPENDS ${_alias} ARGS --file ${_alias} ${RTL_VERILATOR_ARGS} ${RTL_NETLIST_ARGS})
_rtl_model(Valias_netlist_split DEPENDS ${_alias_split} ARGS --file ${_alias_split} ${RTL_VERILATOR_ARGS} ${RTL_NETLIST_ARGS})
add_executable(tb_alias_netlist ${RTL_TB_DIR}/alias_netlist_test.cpp)
target_compile_options(tb_alias_netlist PRIVATE ${PROJECT_WARNINGS} ${TEST_CODE_OPT})
target_link_libraries(tb_alias_netlist PRIVATE tb_main Valias_netlist_raw Valias_netlist_split)
gtest_suite_tests(tb_alias_netlist TEST_PREFIX "tb.")
add_dependencies(tb_tests tb_alias_netlist)

# The self-test of tb/fixture.h and tb/ports.h, on a small hand-written clocked design.
_rtl_model(Vfixture_counter DEPENDS ${RTL_TB_DIR}/selftest/fixture_counter.sv
           ARGS --file ${RTL_TB_DIR}/selftest/fixture_counter.sv -Wall ${RTL_VERILATOR_ARGS})
add_executable(tb_fixture ${RTL_TB_DIR}/fixture_test.cpp)
target_compile_options(tb_fixture PRIVATE ${PROJECT_WARNINGS} ${TEST_CODE_OPT})
target_link_libraries(tb_fixture PRIVATE tb_main Vfixture_counter)
gtest_suite_tests(tb_fixture TEST_PREFIX "tb.")
add_dependencies(tb_tests tb_fixture)
