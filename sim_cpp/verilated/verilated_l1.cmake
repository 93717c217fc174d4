# The verilated L1 (sim_cpp/verilated/, included from CMakeLists.txt after add_rtl_block(l1d_top)):
# the l1d_top models gpusim --l1 verilated|lockstep and tb_l1d_top run, and the library that
# wraps them as L1Ports.
#
# The RTL fixes the geometry, the numeric policy settings and the replacement policy; bypassing
# and granularity are configuration inputs. So one model per replacement policy covers every
# policy preset of a GPU preset. L1D_TOP_REPLACEMENTS says which are built for gtx480: lru (the
# committed rtl/, also tb_l1d_top's) and agelru by default; fifo, bip and dip on request
# (-DL1D_TOP_REPLACEMENTS="lru;agelru;fifo;bip;dip"), as each model adds a minute or more of
# Verilator and compiler time to the build.
set(L1D_TOP_REPLACEMENTS "lru;agelru" CACHE STRING "replacement policies with a verilated l1d_top (gtx480)")

# _dcgen_rtl(<name> <comment> <depends> <dcgen args...>): dcgen's RTL in ${RTL_BUILD_DIR}/<name>/rtl.
# Once per name: a second call (the same configuration's model, mutants or coverage model) adds nothing.
function(_dcgen_rtl name comment depends)
  get_property(done GLOBAL PROPERTY _DCGEN_RTL_${name})
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY _DCGEN_RTL_${name} ON)
  set(dir ${RTL_BUILD_DIR}/${name}/rtl)
  set(tmp ${RTL_BUILD_DIR}/${name}/dcgen)
  add_custom_command(
    OUTPUT ${dir}/l1d_top.sv
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${tmp}
    COMMAND dcgen ${ARGN} --out ${tmp}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${tmp} ${dir}
    DEPENDS dcgen ${depends}
    COMMENT "dcgen: RTL for ${comment}"
    VERBATIM)
endfunction()

set(_models "")
set(_entries "")
set(_includes "")
# _l1d_top_entry(<prefix> <key> <policy>): model <prefix> in l1d_top_sim_models.h, which gpusim
# matches by <key> (a preset name or a configuration file) and <policy> ("" = the preset's). The
# root header too: fault injection (VerilatedOptions::fault_cycle) reaches a flop. A macro: it
# appends to this file's lists.
macro(_l1d_top_entry prefix key policy)
  list(APPEND _models ${prefix})
  string(APPEND _includes "#include \"${prefix}.h\"\n#include \"${prefix}___024root.h\"\n")
  string(APPEND _entries " \\\n  X(${prefix}, \"${key}\", \"${policy}\")")
endmacro()
# _l1d_top_model(<tag> <comment> <depends> <key> <policy> <dcgen args...>): dcgen's RTL in
# ${RTL_BUILD_DIR}/<tag>/rtl, its model Vl1d_top_<tag>, and its entry (_l1d_top_entry).
macro(_l1d_top_model tag comment depends key policy)
  _dcgen_rtl(${tag} "${comment}" "${depends}" ${ARGN})
  _rtl_model(Vl1d_top_${tag} OPT ${L1D_TOP_MODEL_OPT} DEPENDS ${RTL_BUILD_DIR}/${tag}/rtl/l1d_top.sv
             ARGS --rtl ${RTL_BUILD_DIR}/${tag}/rtl l1d_top -Wall ${RTL_ASSERT_ARGS} ${RTL_VERILATOR_ARGS})
  _l1d_top_entry(Vl1d_top_${tag} "${key}" "${policy}")
endmacro()
# _l1d_top_config_model(<tag> <comment> <yaml>): the l1d_top of tb/block_configs/<yaml>, keyed by
# that file (verilated_l1.cpp rtl_key), every policy.
macro(_l1d_top_config_model tag comment yaml)
  _l1d_top_model(${tag} "${comment}" ${CMAKE_SOURCE_DIR}/tb/block_configs/${yaml}
                 "${CMAKE_SOURCE_DIR}/tb/block_configs/${yaml}" "" --config ${CMAKE_SOURCE_DIR}/tb/block_configs/${yaml})
endmacro()
foreach(repl ${L1D_TOP_REPLACEMENTS})
  if(repl STREQUAL "lru")  # the committed rtl/ (gtx480's default policy is baseline LRU)
    _l1d_top_entry(Vl1d_top_gtx480 "gtx480" "")  # built by add_rtl_block(l1d_top)
  else()
    if(NOT EXISTS ${CMAKE_SOURCE_DIR}/configs/policies/${repl}.yaml)
      message(FATAL_ERROR "L1D_TOP_REPLACEMENTS: no policy preset configs/policies/${repl}.yaml")
    endif()
    _l1d_top_model(gtx480_${repl} "gtx480 with ${repl} replacement"
                   "${CMAKE_SOURCE_DIR}/configs/gtx480.yaml;${CMAKE_SOURCE_DIR}/configs/policies/${repl}.yaml"
                   "gtx480" "${repl}" --preset gtx480 --policy ${repl})
  endif()
endforeach()

# The staged l1d_top (contract v2, docs/l1d-microarchitecture.md section 16) of gtx480 with LRU:
# tb/block_configs/gtx480_staged.yaml, the preset with l1.pipeline staged. gpusim --l1
# verilated|lockstep takes it for a staged gtx480 configuration; tb_l1d_top's L1dTopStaged runs
# it in lockstep with the staged golden::L1.
option(L1D_TOP_STAGED "build the staged l1d_top of gtx480 (tb/block_configs/gtx480_staged.yaml)" ON)
# L1D_TOP_STAGED_VARIANT=conventional builds that model as dcgen --variant conventional (the
# conventional L1 of docs/synthesis.md's policy-overhead row), for a lockstep run of the baseline
# policy in a build directory of its own (make lockstep-conventional); anything but the baseline
# policy then stops at the model's ConvBaselinePolicy_A assertion.
set(L1D_TOP_STAGED_VARIANT "full" CACHE STRING "dcgen --variant of the staged l1d_top model: full or conventional")
if(L1D_TOP_STAGED)
  set(_staged_cfg ${CMAKE_SOURCE_DIR}/tb/block_configs/gtx480_staged.yaml)
  set(_staged_dir ${RTL_BUILD_DIR}/gtx480_staged/rtl)
  _l1d_top_model(gtx480_staged "gtx480, staged pipe (${L1D_TOP_STAGED_VARIANT})" ${_staged_cfg} "${_staged_cfg}" ""
                 --config ${_staged_cfg} --variant ${L1D_TOP_STAGED_VARIANT})
endif()

# The l1d_top of another GPU's geometry (issue 24's presets): gtx1080-jips (48 ways of 4 sets, 16
# MSHRs, a 32-entry miss queue, 64 warps) with LRU, generated from the preset itself. Its sector
# mode and sector merging are configuration inputs (cfg_sector_i, cfg_merge_i; contract 14), so the
# one model runs gtx1080-jips and its line-cache variant tb/block_configs/gtx1080_jips_line.yaml
# (sector false, mshr_merge block), and the policies that share its replacement
# (l1.lockstep_jips, l1.lockstep_geometries, make lockstep-geometries). Off by default and in make
# test: Verilator and the compiler take minutes for 48 ways.
option(L1D_TOP_GEOMETRIES "build the l1d_top of gtx1080-jips's geometry (gpusim --l1 lockstep)" OFF)
if(L1D_TOP_GEOMETRIES)
  _l1d_top_model(gtx1080_jips "gtx1080-jips" "${CMAKE_SOURCE_DIR}/configs/gtx1080-jips.yaml" "gtx1080-jips" ""
                 --preset gtx1080-jips)
endif()

# The 64-way l1d_tops of the sector presets (issue 24): qv100-accelsim, qv100 and a100 (64 ways of 4
# sets, arrays of 16 or 24 sets for their adaptive carveout, 256 MSHRs, a 16-entry miss queue, 64
# warps), each generated from its preset with LRU. Their generation keys differ (write_allocate,
# mshr_max_merge, the unified size), so each is a model of its own; one model runs every policy of
# its preset that shares its replacement. L1D_TOP_GEOMETRIES_64 lists the presets to build (empty
# by default and in make test; make lockstep-geometries builds qv100-accelsim's): each costs
# minutes of Verilator and compiler time (docs/verilated-l1.md, "The 64-way presets").
set(L1D_TOP_GEOMETRIES_64 "" CACHE STRING "64-way presets with a verilated l1d_top: qv100-accelsim, qv100, a100 (gpusim --l1 lockstep)")
foreach(_p64 ${L1D_TOP_GEOMETRIES_64})
  if(NOT _p64 MATCHES "^(qv100-accelsim|qv100|a100)$")
    message(FATAL_ERROR "L1D_TOP_GEOMETRIES_64: '${_p64}' is not one of qv100-accelsim, qv100, a100")
  endif()
  string(REPLACE "-" "_" _tag64 ${_p64})
  _l1d_top_model(${_tag64} "${_p64}" "${CMAKE_SOURCE_DIR}/configs/${_p64}.yaml" "${_p64}" "" --preset ${_p64})
endforeach()

# The l1d_top of an adaptive carveout (contract 15): tb/block_configs/gtx480_carveout.yaml, gtx480's
# geometry with arrays of 64 sets, a common-tag for 32 and the active count as cfg_set_bits_i, which
# gpusim sets at each kernel start (l1.lockstep_carveout, tb_l1d_top's L1dTopCarveout). Its own
# model: Verilator and the compiler take a minute or more, so it is off in make test.
option(L1D_TOP_CARVEOUT "build the l1d_top of gtx480 with carveout adaptive (tb/block_configs/gtx480_carveout.yaml)" OFF)
if(L1D_TOP_CARVEOUT)
  _l1d_top_config_model(gtx480_carveout "gtx480, carveout adaptive" gtx480_carveout.yaml)
endif()

# The l1d_top of qv100-accelsim's L1 options on gtx480's geometry with write allocation (contract 14,
# "Write allocation"): tb/block_configs/gtx480_accelsim_lazy.yaml, the adaptive carveout's arrays and a
# written bit per slot (generated state, gen/blocks/block.h rtl_written_state), which only
# configurations with write_allocate lazy_fetch_on_read run (l1.lockstep_lazy, make lockstep-lazy).
# Its own model: Verilator and the compiler take a minute or more, so it is off in make test.
option(L1D_TOP_LAZY "build the l1d_top of gtx480 with qv100-accelsim's L1 options and write allocation (tb/block_configs/gtx480_accelsim_lazy.yaml)" OFF)
if(L1D_TOP_LAZY)
  _l1d_top_config_model(gtx480_lazy "gtx480, qv100-accelsim options, write allocation" gtx480_accelsim_lazy.yaml)
endif()

# The staged l1d_top's other generated configurations (tb/staged_configs.cmake, one line each:
# sector mode, allocation on_miss, merging by line, gtx480-gpgpusim's whole L1 with the direct
# path): the staged pipe has a mode's logic only when generated for it, so staged configurations
# with that mode run on its model (verilated_l1.cpp rtl_key) and no other; l1.lockstep_staged_<name>
# (make lockstep-staged-<name>) runs workloads on it in lockstep. Each is a model of its own, which
# Verilator and the compiler take minutes for, so each is off by default and in make test
# (-DL1D_TOP_STAGED_<NAME>=ON).
foreach(_sc_line ${L1D_TOP_STAGED_CONFIGS})
  staged_config("${_sc_line}" _sc)
  if(L1D_TOP_STAGED_${_sc_UPPER})
    _l1d_top_config_model(${_sc_STEM} "${_sc_WHAT}, staged pipe" ${_sc_STEM}.yaml)
  endif()
endforeach()

# The gate-level l1d_top (gpusim --l1 netlist, docs/rtl-verification.md "Gate-level lockstep"): the
# Yosys netlist (synth/yosys_check.sh: generic cells; the SRAM black boxes l1d_data_sram,
# l1d_ram_1r1w, l1d_sram_1rw and l1d_sram_1r1w stay instances, and Verilator takes their
# behavioural RTL, -y) of the small configurations tb/configs/<name>.yaml of
# L1D_TOP_NETLIST_CONFIGS: gate_small (the single-cycle pipe) and gate_small_staged (the staged
# pipe: about 155 CPU-s of Yosys, 199 k cells; its matrix runs cut short by --max-cycles,
# docs/rtl-verification.md). Off by default: Yosys and the compiler take minutes (make test-slow
# turns it on).
option(L1D_TOP_NETLIST "build the gate-level l1d_top of L1D_TOP_NETLIST_CONFIGS (gpusim --l1 netlist)" OFF)
set(L1D_TOP_NETLIST_CONFIGS "gate_small;gate_small_staged" CACHE STRING
    "tb/configs/<name>.yaml whose l1d_top netlist L1D_TOP_NETLIST builds (gate_small, gate_small_staged)")
set(_netlist_entries "")
if(L1D_TOP_NETLIST)
  foreach(_gate ${L1D_TOP_NETLIST_CONFIGS})
    set(_gate_cfg ${CMAKE_SOURCE_DIR}/tb/configs/${_gate}.yaml)
    set(_gate_dir ${RTL_BUILD_DIR}/${_gate}/rtl)
    set(_gate_netlist ${RTL_BUILD_DIR}/${_gate}/netlist/l1d_top_netlist.v)
    _dcgen_rtl(${_gate} ${_gate} ${_gate_cfg} --config ${_gate_cfg})
    add_custom_command(
      OUTPUT ${_gate_netlist}
      COMMAND ${CMAKE_SOURCE_DIR}/synth/yosys_check.sh ${_gate_dir} l1d_top ${_gate_netlist}
      DEPENDS ${_gate_dir}/l1d_top.sv ${CMAKE_SOURCE_DIR}/synth/yosys_check.sh ${CMAKE_SOURCE_DIR}/scripts/rtl_digest.py
      COMMENT "Yosys: l1d_top netlist for ${_gate}"
      VERBATIM)
    # Verilated as the block netlists are (tb/rtl_blocks.cmake, RTL_NETLIST_ARGS): vectors split into
    # bits and -fno-const-bit-op-tree, the two Verilator 5.006 netlist bugs' workarounds.
    set(_gate_netlist_sim ${RTL_BUILD_DIR}/${_gate}/netlist/l1d_top_netlist_split.v)
    add_custom_command(
      OUTPUT ${_gate_netlist_sim}
      COMMAND ${PYTHON3} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py ${_gate_netlist} ${_gate_netlist_sim}
      DEPENDS ${_gate_netlist} ${CMAKE_SOURCE_DIR}/synth/netlist_split_vectors.py
      VERBATIM)
    set(_gate_model Vl1d_top_${_gate}_netlist)
    _rtl_model(${_gate_model} OPT -O0 DEPENDS ${_gate_netlist_sim}
               ARGS --file ${_gate_netlist_sim} -y ${_gate_dir} ${RTL_VERILATOR_ARGS} ${RTL_NETLIST_ARGS})
    list(APPEND _models ${_gate_model})
    string(APPEND _includes "#include \"${_gate_model}.h\"\n#include \"${_gate_model}___024root.h\"\n")
    string(APPEND _netlist_entries " \\\n  X(${_gate_model}, \"${_gate_cfg}\", \"\")")
  endforeach()
endif()

file(CONFIGURE OUTPUT ${RTL_BUILD_DIR}/include/l1d_top_sim_models.h
     CONTENT "// Generated by sim_cpp/verilated/verilated_l1.cmake: the l1d_top models of this build.\n#pragma once\n\n${_includes}\n#define L1D_TOP_MODELS(X)${_entries}\n#define L1D_TOP_NETLIST_MODELS(X)${_netlist_entries}\n"
     @ONLY)

add_library(verilated_l1 STATIC ${CMAKE_SOURCE_DIR}/sim_cpp/verilated/verilated_l1.cpp)
target_include_directories(verilated_l1 PUBLIC ${CMAKE_SOURCE_DIR} PRIVATE ${RTL_BUILD_DIR}/include)
target_compile_options(verilated_l1 PRIVATE ${PROJECT_WARNINGS})
target_link_libraries(verilated_l1 PUBLIC golden common fmt::fmt PRIVATE ${_models})
target_link_libraries(tb_l1d_top PRIVATE verilated_l1)

# add_verilated_l1_variant(<library> <model> <include dir> [EXCLUDE_FROM_ALL] [DEFINES <def>...])
# The verilated L1 library over one other gtx480 lru model (the mutants of add_rtl_mutants, the
# coverage model of make coverage): its own l1d_top_sim_models.h in <include dir>.
function(add_verilated_l1_variant lib model incdir)
  cmake_parse_arguments(V "EXCLUDE_FROM_ALL" "" "DEFINES" ${ARGN})
  file(CONFIGURE OUTPUT ${incdir}/l1d_top_sim_models.h CONTENT
       "// Generated by sim_cpp/verilated/verilated_l1.cmake (add_verilated_l1_variant).\n#pragma once\n\n#include \"${model}.h\"\n#include \"${model}___024root.h\"\n\n#define L1D_TOP_MODELS(X) X(${model}, \"${RTL_DEFAULT_CONFIG}\", \"\")\n#define L1D_TOP_NETLIST_MODELS(X)\n"
       @ONLY)
  if(V_EXCLUDE_FROM_ALL)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  add_library(${lib} STATIC ${exclude} ${CMAKE_SOURCE_DIR}/sim_cpp/verilated/verilated_l1.cpp)
  target_include_directories(${lib} PUBLIC ${CMAKE_SOURCE_DIR} PRIVATE ${incdir})
  target_compile_options(${lib} PRIVATE ${PROJECT_WARNINGS})
  target_compile_definitions(${lib} PRIVATE ${V_DEFINES})
  target_link_libraries(${lib} PUBLIC golden common fmt::fmt PRIVATE ${model})
endfunction()
