# The staged l1d_top's generated configurations beyond gtx480_staged.yaml (included from
# CMakeLists.txt): one line each. The staged pipe has a mode's logic only when generated for it
# (contract 16.5), so each of these is a model of its own, which the staged configurations with
# that mode run on (verilated_l1.cpp rtl_key) and no other; docs/verilated-l1.md says what each
# covers. A line
#
#   <name>|<what the model is>|<policies>|<counters some run must count>|<label>[|<stem>]
#
# gives, for tb/block_configs/<stem>.yaml (<stem> gtx480_staged_<name> unless the line names
# another geometry's file):
#   option L1D_TOP_STAGED_<NAME>      (OFF: Verilator and the compiler take minutes per model, so
#                                      none of them is in make test's build), the Makefile's
#                                      STAGED_<NAME>=ON and `make lockstep-staged-<name>`
#   model Vl1d_top_<stem>             (sim_cpp/verilated/verilated_l1.cmake), with the option
#   rtl.lint.staged_<name>            its l1d_top lints clean (always; seconds; label slow for the
#                                      names of L1D_TOP_STAGED_LINT_SLOW below)
#   l1.lockstep_staged_<name>         with the option: the six make run workloads x <policies> at
#                                      test scale in lockstep (each counter of <counters>, space
#                                      separated, positive in some run), then the same points
#                                      with --l1 verilated and statistics equal to golden's;
#                                      <label> (empty or slow) is its ctest label
#   l1.lockstep_staged_<name>_wide    with the option, label slow: the same at small scale on
#                                      atax, bfs and kmeans (or L1D_TOP_STAGED_WIDE_<NAME>, below)
# A new staged configuration is its YAML file and one line here (the Makefile reads the names
# from this file). Its assertion mutants (RTL_STAGED_<NAME>_MUTANTS, CMakeLists.txt
# _config_top_mutants) and coverage models (tb/coverage.cmake users in CMakeLists.txt) are
# separate: not every configuration has them.
set(L1D_TOP_STAGED_CONFIGS
    "sector|gtx480 in sector mode (gtx1080.yaml's L1 options)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.partial_hits|"
    # sector mode with allocation on_miss (qv100-accelsim's reserved lines; merging stall), contract 16.5
    "sector_onmiss|gtx480 in sector mode with allocation on_miss (merging stall)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.pending_hits|slow"
    # ... and merging by sector (qv100-accelsim's pair: a widening of a reserved entry reserves its
    # sectors' slots at M2), contract 16.5 "With merging by sector"
    "sector_onmiss_merge|gtx480 in sector mode with allocation on_miss and merging by sector|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.pending_hits l1.widening_reads|slow"
    # ... and write allocation lazy_fetch_on_read (qv100-accelsim's L1 but carveout adaptive: a store miss
    # allocates its line without a fetch, written bits at M2), contract 16.5 "Write allocation"
    "lazy|gtx480 with qv100-accelsim's L1 options but carveout (write allocation, on_miss, merging by sector, direct)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.pending_hits l1.widening_reads l1.accelsim_sectors.write.hit ldst.direct_loads|slow"
    # ... and the adaptive carveout: every qv100-accelsim L1 option on gtx480's array of 32 or 64 sets
    # (cfg_set_bits_i set at each kernel start), contract 16.5 "Carveout adaptive on the staged pipe".
    # qv100-accelsim's own geometry is the qv100_accelsim line below.
    "carveout|gtx480 with every qv100-accelsim L1 option (the adaptive carveout over 32 or 64 sets, write allocation, on_miss, merging by sector, direct)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.pending_hits l1.widening_reads l1.accelsim_sectors.write.hit ldst.direct_loads|slow"
    "onmiss|gtx480-gpgpusim's L1 with allocation on_miss (merging stall)|baseline,dycache,agcb,two-level,pcal,pcal-bto|l1.pending_hits|"
    "block|gtx480-gpgpusim's L1 with on_miss and mshr_merge block|baseline,dycache,agcb,two-level,pcal,pcal-bto,elastic32,elastic64|l1.widening_reads|"
    "gpgpusim|gtx480-gpgpusim's whole L1, bypass_path direct included|baseline,dycache,agcb,two-level,pcal,pcal-bto,elastic32,elastic64|ldst.direct_loads|slow"
    # gtx1080-jips's geometry (48 ways of 4 sets), sector mode with merging by sector and the direct
    # path; the policies its LRU model serves in sector mode (G 128)
    "jips|gtx1080-jips's whole L1 (sector, merging by sector, bypass_path direct)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.widening_reads ldst.direct_loads|slow|gtx1080_staged_jips"
    # qv100-accelsim's whole L1 on its own geometry (64 ways of 4 to 16 sets, 256 MSHRs, every L1 option
    # of the preset, the adaptive carveout included), contract 16.5; its MSHR-wide registers are
    # per-entry generate blocks (gen/blocks/entry_ff.h: SV subset rule reset-loop-64)
    "qv100_accelsim|qv100-accelsim's whole L1 on its geometry (64 ways, 256 MSHRs, every L1 option, the adaptive carveout)|baseline,agcb,two-level,pcal,pcal-bto|l1.sector_misses l1.pending_hits l1.widening_reads l1.accelsim_sectors.write.hit ldst.direct_loads|slow|qv100_accelsim_staged"
)

# The staged configurations whose rtl.lint.staged_<name> is in make test-slow (label slow), not make
# test: those added once make test reached its 900 s budget (2026-11-29, /tmp/cc9: 902 s), each lint
# costing about 3 CPU-s (dcgen and verilator --lint-only of its l1d_top: the seven staged lints took
# 22.2 CPU-s together at a load of 16, 2026-11-29).
set(L1D_TOP_STAGED_LINT_SLOW sector_onmiss_merge lazy carveout qv100_accelsim)

# The workloads of l1.lockstep_staged_<name>_wide (small scale): atax, bfs and kmeans, or those of
# L1D_TOP_STAGED_WIDE_<NAME>. qv100_accelsim's: the three lightest make run workloads at small scale
# (vecadd, bfs and spmv: 1.5-3.4 CPU-s each in the golden L1; atax and kmeans cost many times that,
# and the 64-way model runs two orders of magnitude slower than golden).
set(L1D_TOP_STAGED_WIDE_QV100_ACCELSIM vecadd,bfs,spmv)

# staged_config(<line> <prefix>): the fields of one line of L1D_TOP_STAGED_CONFIGS as
# <prefix>_NAME, _UPPER (the name in capitals, as in the option), _WHAT, _POLICIES, _POSITIVE (a
# list), _LABEL, _STEM (the configuration file's name without .yaml) and _YAML (its path).
macro(staged_config line prefix)
  string(REPLACE "|" ";" _sc_fields "${line}")
  list(LENGTH _sc_fields _sc_n)
  if(NOT _sc_n EQUAL 5 AND NOT _sc_n EQUAL 6)
    message(FATAL_ERROR "tb/staged_configs.cmake: '${line}' has ${_sc_n} fields; a line is name|what|policies|counters|label[|stem]")
  endif()
  list(GET _sc_fields 0 ${prefix}_NAME)
  list(GET _sc_fields 1 ${prefix}_WHAT)
  list(GET _sc_fields 2 ${prefix}_POLICIES)
  list(GET _sc_fields 3 ${prefix}_POSITIVE)
  list(GET _sc_fields 4 ${prefix}_LABEL)
  string(REPLACE " " ";" ${prefix}_POSITIVE "${${prefix}_POSITIVE}")
  string(TOUPPER ${${prefix}_NAME} ${prefix}_UPPER)
  set(${prefix}_STEM gtx480_staged_${${prefix}_NAME})
  if(_sc_n EQUAL 6)
    list(GET _sc_fields 5 ${prefix}_STEM)
  endif()
  set(${prefix}_YAML ${CMAKE_SOURCE_DIR}/tb/block_configs/${${prefix}_STEM}.yaml)
  if(NOT EXISTS ${${prefix}_YAML})
    message(FATAL_ERROR "tb/staged_configs.cmake: staged configuration '${${prefix}_NAME}' has no file ${${prefix}_YAML}")
  endif()
  if(NOT ${prefix}_LABEL MATCHES "^(slow)?$")
    message(FATAL_ERROR "tb/staged_configs.cmake: '${${prefix}_NAME}' has label '${${prefix}_LABEL}'; allowed: empty or slow")
  endif()
endmacro()

# The options, declared here so that every user of the list sees them.
foreach(_sc_line ${L1D_TOP_STAGED_CONFIGS})
  staged_config("${_sc_line}" _sc)
  option(L1D_TOP_STAGED_${_sc_UPPER}
         "build the staged l1d_top of ${_sc_WHAT} (tb/block_configs/${_sc_STEM}.yaml)" OFF)
endforeach()
