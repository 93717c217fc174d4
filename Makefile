# Front door. `make run` and `make test` install what is missing, build, then act.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)

.PHONY: all deps configure build test test-slow run bench sanitize clean

all: build

deps:
	@bash scripts/setup-deps.sh

# ALL_NETLISTS=ON co-simulates the Yosys netlist of every block on every configuration, runs every
# block's testbench on every geometry its CONFIGS allow (RTL_TB_ALL_PRESETS: make test runs each
# geometry on the blocks its shape changes, RTL_TB_COVER_<geometry> in tb/rtl_blocks.cmake; the
# rest carry ctest label `slow`) and the large arrays' testbenches on all three presets (make
# test-slow); by default the netlists of
# gtx480 and one odd shape are built (Yosys's synthesis check) but only l1d_gran_selector's on
# gtx480 is co-simulated (RTL_COSIM_BLOCKS, tb/rtl_blocks.cmake). It also builds l1d_top's assertion mutants
# (RTL_TOP_MUTANTS) and the gate-level l1d_top of gpusim --l1 netlist (L1D_TOP_NETLIST;
# docs/rtl-verification.md).
ALL_NETLISTS ?= OFF
# GEOMETRIES=ON also builds the l1d_top of another GPU's geometry (L1D_TOP_GEOMETRIES: gtx1080-jips;
# make lockstep-geometries).
GEOMETRIES ?= OFF
# CARVEOUT=ON also builds the l1d_top of an adaptive carveout (L1D_TOP_CARVEOUT:
# tb/block_configs/gtx480_carveout.yaml; make lockstep-carveout).
CARVEOUT ?= OFF
# LAZY=ON also builds the l1d_top of write allocation (L1D_TOP_LAZY:
# tb/block_configs/gtx480_accelsim_lazy.yaml; make lockstep-lazy).
LAZY ?= OFF
# LAZY_MUTANTS=ON also builds the write-allocation l1d_top's assertion mutants (RTL_LAZY_MUTANTS:
# tb/mutants/l1d_top_lazy.txt; make mutants-lazy; make test-slow builds them with ALL_NETLISTS).
LAZY_MUTANTS ?= OFF
# GEOMETRIES_64 lists the 64-way presets whose l1d_top the build makes (L1D_TOP_GEOMETRIES_64:
# qv100-accelsim, qv100, a100, separated by ';'; make lockstep-geometries-64).
GEOMETRIES_64 ?=
# The staged l1d_top's generated configurations (tb/staged_configs.cmake, one line each; the names
# are read from there): sector, sector_onmiss, sector_onmiss_merge, lazy, carveout, qv100_accelsim, onmiss, block, gpgpusim,
# jips. STAGED_<NAME>=ON
# also builds the staged l1d_top of tb/block_configs/gtx480_staged_<name>.yaml, or the file its line names
# (L1D_TOP_STAGED_<NAME>; make lockstep-staged-<name>): STAGED_SECTOR (sector mode), STAGED_SECTOR_ONMISS (sector
# mode with allocation on_miss), STAGED_SECTOR_ONMISS_MERGE (the same with merging by sector), STAGED_LAZY
# (qv100-accelsim's L1 but the carveout: write allocation too), STAGED_CARVEOUT (every qv100-accelsim L1
# option, the adaptive carveout included, on gtx480's array), STAGED_ONMISS (allocation on_miss),
# STAGED_BLOCK (on_miss and mshr_merge block), STAGED_GPGPUSIM (gtx480-gpgpusim's whole L1, bypass_path
# direct included), STAGED_JIPS (gtx1080-jips's whole L1 on its geometry: gtx1080_staged_jips.yaml),
# STAGED_QV100_ACCELSIM (qv100-accelsim's whole L1 on its geometry: qv100_accelsim_staged.yaml).
STAGED_CONFIGS := $(shell sed -n 's/^ *"\([a-z0-9_]*\)|.*/\1/p' tb/staged_configs.cmake)
STAGED_NAMES   := $(shell echo $(STAGED_CONFIGS) | tr a-z A-Z)
STAGED_OPTIONS  = $(foreach n,$(STAGED_NAMES),-DL1D_TOP_STAGED_$(n)=$(or $(STAGED_$(n)),OFF))
# STAGED_SECTOR_MUTANTS=ON also builds the staged sector-mode l1d_top's assertion mutants
# (RTL_STAGED_SECTOR_MUTANTS: tb/mutants/l1d_top_staged_sector.txt; make mutants-staged-sector; make
# test-slow builds them with ALL_NETLISTS).
STAGED_SECTOR_MUTANTS ?= OFF
# STAGED_ONMISS_MUTANTS=ON / STAGED_BLOCK_MUTANTS=ON also build the staged on_miss / block l1d_top's
# assertion mutants (RTL_STAGED_ONMISS_MUTANTS, RTL_STAGED_BLOCK_MUTANTS: tb/mutants/l1d_top_staged_onmiss.txt,
# l1d_top_staged_block.txt; make mutants-staged-onmiss, mutants-staged-block; make test-slow builds
# them with ALL_NETLISTS).
STAGED_ONMISS_MUTANTS ?= OFF
STAGED_BLOCK_MUTANTS ?= OFF
# STAGED_GPGPUSIM_MUTANTS=ON also builds the direct path's store-search mutants of the staged
# gtx480-gpgpusim l1d_top (RTL_STAGED_GPGPUSIM_MUTANTS: tb/mutants/l1d_top_staged_gpgpusim.txt; make
# mutants-staged-gpgpusim).
STAGED_GPGPUSIM_MUTANTS ?= OFF
# STAGED_JIPS_MUTANTS=ON also builds the merging-by-sector mutants of the staged gtx1080-jips l1d_top
# (RTL_STAGED_JIPS_MUTANTS: tb/mutants/l1d_top_staged_jips.txt; make mutants-staged-jips; make
# test-slow builds them with ALL_NETLISTS).
STAGED_JIPS_MUTANTS ?= OFF
# L1D_TOP_OPT: the compiler level of the verilated l1d_top models (L1D_TOP_MODEL_OPT; CMake's own
# default is -O2). make build (and so make test) takes -O1: it halves the three models' compile,
# make test's largest steps, for 5-20 % slower --l1 verilated|lockstep runs, a net saving for make
# test (docs/performance.md, ninth round). L1D_TOP_OPT=-O2 for long verilated or lockstep runs.
L1D_TOP_OPT ?= -O1
# STAGED_SECTOR_ONMISS_MUTANTS=ON also builds the sector-mode reservation mutants of the staged sector
# on_miss l1d_top (RTL_STAGED_SECTOR_ONMISS_MUTANTS: tb/mutants/l1d_top_staged_sector_onmiss.txt; make
# mutants-staged-sector_onmiss; make test-slow builds them with ALL_NETLISTS).
STAGED_SECTOR_ONMISS_MUTANTS ?= OFF
# STAGED_SECTOR_ONMISS_MERGE_MUTANTS=ON also builds the widening-reservation mutants of the staged sector
# on_miss l1d_top with merging by sector (RTL_STAGED_SECTOR_ONMISS_MERGE_MUTANTS:
# tb/mutants/l1d_top_staged_sector_onmiss_merge.txt; make mutants-staged-sector_onmiss_merge; make test-slow
# builds them with ALL_NETLISTS).
STAGED_SECTOR_ONMISS_MERGE_MUTANTS ?= OFF
# STAGED_LAZY_MUTANTS=ON also builds the written-bit mutants of the staged write-allocation l1d_top
# (RTL_STAGED_LAZY_MUTANTS: tb/mutants/l1d_top_staged_lazy.txt; make mutants-staged-lazy; make test-slow
# builds them with ALL_NETLISTS).
STAGED_LAZY_MUTANTS ?= OFF
configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DRTL_NETLIST_ALL_CONFIGS=$(ALL_NETLISTS) -DRTL_TB_ALL_PRESETS=$(ALL_NETLISTS) -DRTL_TOP_MUTANTS=$(ALL_NETLISTS) -DL1D_TOP_NETLIST=$(ALL_NETLISTS) \
	  -DL1D_TOP_GEOMETRIES=$(GEOMETRIES) -DL1D_TOP_CARVEOUT=$(CARVEOUT) -DL1D_TOP_LAZY=$(LAZY) -DRTL_LAZY_MUTANTS=$(LAZY_MUTANTS) \
	  -DL1D_TOP_GEOMETRIES_64='$(GEOMETRIES_64)' $(STAGED_OPTIONS) \
	  -DRTL_STAGED_SECTOR_MUTANTS=$(STAGED_SECTOR_MUTANTS) -DRTL_STAGED_ONMISS_MUTANTS=$(STAGED_ONMISS_MUTANTS) \
	  -DRTL_STAGED_BLOCK_MUTANTS=$(STAGED_BLOCK_MUTANTS) -DRTL_STAGED_GPGPUSIM_MUTANTS=$(STAGED_GPGPUSIM_MUTANTS) \
	  -DRTL_STAGED_JIPS_MUTANTS=$(STAGED_JIPS_MUTANTS) -DRTL_STAGED_SECTOR_ONMISS_MUTANTS=$(STAGED_SECTOR_ONMISS_MUTANTS) \
	  -DRTL_STAGED_SECTOR_ONMISS_MERGE_MUTANTS=$(STAGED_SECTOR_ONMISS_MERGE_MUTANTS) -DRTL_STAGED_LAZY_MUTANTS=$(STAGED_LAZY_MUTANTS) \
	  -DL1D_TOP_MODEL_OPT=$(L1D_TOP_OPT) $(CMAKE_EXTRA) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE slow

# The checks too slow for make test: Yosys on l1d_top, on gtx480's tag array and on every module of
# gate_small (ctest label `slow`), the gate-level co-simulation of every block's Yosys netlist on
# every configuration (a longer build: make test builds the netlists but verilates and co-simulates
# only l1d_gran_selector's on gtx480, RTL_COSIM_BLOCKS; the tb.*NetlistMatchesRtl tests that skip in
# make test run here, -R 'Netlist' below), the golden L1's 10^6-request soaks (make test: gtx480
# at 10^5, the sector soaks at 10^5, and 4 x 10^4 requests per [Fidelity] option set), the golden pressure runs with
# the invariants checked every cycle (make test: every 8th), the [Fidelity] ones at 5 000 requests
# on both option sets (make test: 2 500, each policy on one), the sector and [Fidelity] preset
# sweeps at small scale over every legal policy (make test: test scale, one policy per workload),
# the block testbenches on the rest of the block x geometry cross product (label slow:
# RTL_TB_ALL_PRESETS, docs/performance.md, "make test's build, eighth round"; make test runs every
# block on gtx480 and each other geometry on the blocks whose RTL its shape changes),
# and the second instances of a kind of check (testcost6, 2026-11-29; docs/performance.md, "make
# test keeps a covering set"): make test runs a covering set of each matrix, every workload, policy,
# preset and harness at least once, and make test-slow the rest: gtx480's workload x policy pairs
# (make test: 35 at small scale, each workload once; here the other 630 at test scale (label slow,
# Gtx480Slow/Sweep) and then all 665 at small), the other pairs of the pressure, variant, staged,
# [Fidelity] pressure and sector sweeps and of five of the six checks of every workload (Gtx480Slow/...,
# StagedSlow/..., FaithfulSlow/..., SectorSlow/..., AllSlow/EveryWorkload*), formal.mutants_more
# (the second to fourth mutant of each formal harness), rtl.equiv.l1d_core_match_m2
# (l1d_core_match contains it) and odd_3way40's l1d_mshr synthesis (rtl.configs_synth_mshr); since
# testcost7 (2026-11-29) also the gpusim lockstep matrices' heavy points, atax and mvt under the
# policies make test does not run them with (l1.lockstep*_cross, label slow: make test runs every
# policy on vecadd, bfs, spmv and kmeans, and atax and mvt under two-level, or dycache where the
# matrix has no two-level), trace_fuzz's 1,000 inputs (trace.fuzz_more; make test: the first 300)
# and the ABC proof's one-gate mutant of l1d_core_match (rtl.equiv_mutant.l1d_core_match_abc; make
# test: of l1d_match_fix); and since the lead's cuts of the same day, l1d_top's policy x stream
# lockstep testbenches in full (L1D_TOP_TB_FULL=1; make test: every policy and stream once) and
# odd_3way40's Yosys checks (rtl.configs_other_synth; make test lints it); since testcost8
# (2026-11-29; docs/performance.md, "ninth round") the eight formal harnesses' proofs on the native
# engines, Yosys's SAT and smtbmc with z3 (formal.prove_native; make test proves them on ABC's
# bmc3, the same depths, every mutant still found, formal.prove and prove_pipe 70.3 -> 12.5 CPU-s)
# and synth.smoke's nested-macro check without --hier-params (synth.smoke_nested0; make test: with it).
# A ctest test is a whole GoogleTest suite (cmake/gtest_suites.cmake): the runs of cases by name
# (the NetlistMatchesRtl cases, several in their block's main suite, and l1d_top's full lockstep
# cases) go through scripts/gtest_filter_run.sh, GoogleTest's own filter on every test binary.
test-slow:
	@$(MAKE) --no-print-directory build ALL_NETLISTS=ON
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L slow
	L1_SOAK_ALL_PRESETS=1 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R 'L1Soak|L1SectorSoak|L1FidelitySoak|L1Pressure|L1SectorPressure|L1StagedPressure'
	scripts/gtest_filter_run.sh $(BUILD) $(JOBS) '*Netlist*'
	L1D_SECTOR_SWEEP_SCALE=small ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R 'SectorSweep'
	L1D_FAITHFUL_SWEEP_SCALE=small ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R 'FaithfulSweep'
	L1D_SWEEP_SCALE=small ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R '^Gtx480(Slow)?/Sweep($$|\[)'
	L1D_TOP_TB_FULL=1 scripts/gtest_filter_run.sh $(BUILD) $(JOBS) 'L1dTop*.*EveryPolicyAndStream*:L1dTop*.*UnderBackpressure*'

# gtx1080-jips's geometry (48 ways of 4 sets) in lockstep with golden (docs/verilated-l1.md): a
# build with its model, then gtx1080-jips itself (sector cache, mshr_merge sector) on vecadd, bfs,
# spmv, atax x its five LRU policies, and its line-cache variant (tb/block_configs/gtx1080_jips_line.yaml)
# on vecadd, atax, bfs, kmeans, both at test scale.
.PHONY: lockstep-geometries
lockstep-geometries:
	@$(MAKE) --no-print-directory build GEOMETRIES=ON
	ctest --test-dir $(BUILD) --output-on-failure -R 'l1.lockstep_(geometries|jips)'

# The 64-way presets (qv100-accelsim, qv100, a100: 64 ways of 4 sets, 256 MSHRs) in lockstep with
# golden (docs/verilated-l1.md, "The 64-way presets"): a build with the models of GEOMETRIES_64
# (default qv100-accelsim; each takes minutes of Verilator and compiler time), then each preset
# on vecadd, bfs, atax, bc x its five LRU policies at test scale, in lockstep and with the verilated
# L1's statistics equal to the golden L1's.
.PHONY: lockstep-geometries-64
lockstep-geometries-64:
	@$(MAKE) --no-print-directory build GEOMETRIES_64='$(or $(GEOMETRIES_64),qv100-accelsim)'
	ctest --test-dir $(BUILD) --output-on-failure -R 'l1.lockstep_(qv100|a100)'

# carveout adaptive (contract 15) in lockstep with golden: a build with the gtx480_carveout model, then
# make run workloads on tb/block_configs/gtx480_carveout.yaml x the policies its LRU model serves.
.PHONY: lockstep-carveout
lockstep-carveout:
	@$(MAKE) --no-print-directory build CARVEOUT=ON
	ctest --test-dir $(BUILD) --output-on-failure -R 'l1.lockstep_carveout'

# write_allocate lazy_fetch_on_read (contract 14) with qv100-accelsim's other L1 options in lockstep
# with golden: a build with the gtx480_lazy model, then make run workloads on
# tb/block_configs/gtx480_accelsim_lazy.yaml x the policies its LRU model serves (test and small scale).
.PHONY: lockstep-lazy
lockstep-lazy:
	@$(MAKE) --no-print-directory build LAZY=ON
	ctest --test-dir $(BUILD) --output-on-failure -R 'l1.lockstep_lazy'

# The mutants of one generated configuration's l1d_top (the targets below): configure with its
# option $(1)=ON, build only its mutant testbench $(2), run the ctest names matching $(3).
define config_mutants
	@$(MAKE) --no-print-directory configure $(1)=ON
	@cmake --build $(BUILD) -j $(JOBS) --target $(2)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -R '$(3)'
endef

# Write allocation's assertions (TopWrittenExclusive_A, TopWrittenNoLoadHit_A) against their mutants
# (tb/mutants/l1d_top_lazy.txt), and the unmutated model silent on the same test
# (docs/rtl-verification.md, "Mutation tests in simulation"): only the mutant testbench is built.
.PHONY: mutants-lazy
mutants-lazy:
	$(call config_mutants,LAZY_MUTANTS,tb_l1d_top_lazy_mutants,^rtl\.mutant\.(written_|lazy_))

# The staged pipe's sector mode: its assertions against the mutants of tb/mutants/l1d_top_staged_sector.txt,
# the unmutated model silent in lockstep, and TopSectorScope_A's contract case with its control
# (docs/rtl-verification.md, "Mutation tests in simulation"): only the mutant testbench is built.
.PHONY: mutants-staged-sector
mutants-staged-sector:
	$(call config_mutants,STAGED_SECTOR_MUTANTS,tb_l1d_top_staged_sector_mutants,^(rtl\.mutant\.(sector_|staged_sector_)|tb\.contract\.StagedSector))

# Allocation on miss and merging by line on the staged pipe: their assertions against the mutants of
# tb/mutants/l1d_top_staged_onmiss.txt / l1d_top_staged_block.txt, the unmutated model silent in
# lockstep (docs/rtl-verification.md, "Mutation tests in simulation"): only the mutant testbench is built.
.PHONY: mutants-staged-onmiss mutants-staged-block
mutants-staged-onmiss:
	$(call config_mutants,STAGED_ONMISS_MUTANTS,tb_l1d_top_staged_onmiss_mutants,^rtl\.mutant\.(onmiss_|staged_onmiss_))
mutants-staged-block:
	$(call config_mutants,STAGED_BLOCK_MUTANTS,tb_l1d_top_staged_block_mutants,^rtl\.mutant\.(block_|staged_block_))

# The direct path's store search on the staged pipe (gtx480-gpgpusim's whole L1): StagedStorePendingFound_A
# and lockstep's store_pending comparison against the mutants of tb/mutants/l1d_top_staged_gpgpusim.txt,
# the unmutated model silent (docs/rtl-verification.md): only the mutant testbench is built.
.PHONY: mutants-staged-gpgpusim
mutants-staged-gpgpusim:
	$(call config_mutants,STAGED_GPGPUSIM_MUTANTS,tb_l1d_top_staged_gpgpusim_mutants,^rtl\.mutant\.(direct_|staged_gpgpusim_))

# Merging by sector on the staged pipe (gtx1080-jips's whole L1): its assertions against the mutants of
# tb/mutants/l1d_top_staged_jips.txt, the unmutated model silent in lockstep (docs/rtl-verification.md):
# only the mutant testbench is built.
.PHONY: mutants-staged-jips
mutants-staged-jips:
	$(call config_mutants,STAGED_JIPS_MUTANTS,tb_l1d_top_staged_jips_mutants,^rtl\.mutant\.(smerge_|staged_jips_))

# Allocation on miss in sector mode on the staged pipe: the reservations' assertions (their sector form)
# against the mutants of tb/mutants/l1d_top_staged_sector_onmiss.txt, the unmutated model silent in
# lockstep (docs/rtl-verification.md): only the mutant testbench is built.
.PHONY: mutants-staged-sector_onmiss
mutants-staged-sector_onmiss:
	$(call config_mutants,STAGED_SECTOR_ONMISS_MUTANTS,tb_l1d_top_staged_sector_onmiss_mutants,^rtl\.mutant\.(sonmiss_|staged_sector_onmiss_unmutated))

# ... with merging by sector: the widening's reservation against the mutants of
# tb/mutants/l1d_top_staged_sector_onmiss_merge.txt, the unmutated model silent in lockstep
# (docs/rtl-verification.md): only the mutant testbench is built.
.PHONY: mutants-staged-sector_onmiss_merge
mutants-staged-sector_onmiss_merge:
	$(call config_mutants,STAGED_SECTOR_ONMISS_MERGE_MUTANTS,tb_l1d_top_staged_sector_onmiss_merge_mutants,^rtl\.mutant\.(smres_|staged_sector_onmiss_merge_))

# Write allocation on the staged pipe: the written bits' assertions and lockstep against the mutants of
# tb/mutants/l1d_top_staged_lazy.txt, the unmutated model silent on the same test
# (docs/rtl-verification.md): only the mutant testbench is built.
.PHONY: mutants-staged-lazy
mutants-staged-lazy:
	$(call config_mutants,STAGED_LAZY_MUTANTS,tb_l1d_top_staged_lazy_mutants,^rtl\.mutant\.(slazy_|staged_lazy_))

# The staged pipe's generated configurations (contract 16.5) in lockstep with golden:
# make lockstep-staged-<name> (sector: sector mode, contract 14; sector_onmiss: sector mode with
# allocation on_miss, 16.5; sector_onmiss_merge: the same with merging by sector, 16.5; lazy: with
# write allocation too, 16.5 "Write allocation"; onmiss: allocation on_miss, 13.1;
# block: on_miss and merging by line, 13.3; gpgpusim: gtx480-gpgpusim's whole L1, the direct path
# included, 13.6) builds with the gtx480_staged_<name> model (STAGED_<NAME>=ON), then runs
# l1.lockstep_staged_<name>: six make run workloads x the policies its LRU model serves, in lockstep
# and with statistics equal to golden's (tb/staged_configs.cmake; docs/verilated-l1.md).
.PHONY: $(addprefix lockstep-staged-,$(STAGED_CONFIGS))
$(addprefix lockstep-staged-,$(STAGED_CONFIGS)): lockstep-staged-%:
	@$(MAKE) --no-print-directory build STAGED_$(shell echo $* | tr a-z A-Z)=ON
	ctest --test-dir $(BUILD) --output-on-failure -R 'l1.lockstep_staged_$*$$'

# The conventional L1 (dcgen --variant conventional, docs/synthesis.md's policy-overhead row) in
# lockstep with the golden model's staged gtx480 at the baseline policy (fixed 128 B, LRU, no
# bypass: a conventional L1's placement), six workloads; in a build directory of its own
# ($(BUILD)-conv), whose gpusim's staged model is the conventional variant.
.PHONY: lockstep-conventional
lockstep-conventional: deps
	@cmake -S . -B $(BUILD)-conv -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DL1D_TOP_STAGED_VARIANT=conventional \
	  -DL1D_TOP_REPLACEMENTS= >/dev/null
	@cmake --build $(BUILD)-conv -j $(JOBS) --target gpusim
	python3 scripts/run_matrix.py --gpusim $(BUILD)-conv/bin/gpusim --scale test --jobs 1 --l1 lockstep \
	  --preset tb/block_configs/gtx480_staged.yaml --workloads vecadd,atax,mvt,bfs,spmv,kmeans --policies baseline \
	  --out $(BUILD)-conv/l1-lockstep-conventional

# The conventional L1's assertions against their mutants (tb/mutants/l1d_top_conv.txt) and
# ConvBaselinePolicy_A against a non-baseline policy, in the same build directory
# (docs/rtl-verification.md, "Mutation tests in simulation").
.PHONY: mutants-conventional
mutants-conventional: deps
	@cmake -S . -B $(BUILD)-conv -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DL1D_TOP_STAGED_VARIANT=conventional \
	  -DL1D_TOP_REPLACEMENTS= >/dev/null
	@cmake --build $(BUILD)-conv -j $(JOBS) --target tb_l1d_top_conv_mutants
	ctest --test-dir $(BUILD)-conv --output-on-failure -j $(JOBS) -R '^(rtl\.mutant\.conv_|tb\.contract\.Conv)'

# The main job: six workloads x seven policies on gtx480 with the RTL L1 (the verilated l1d_top
# in every SM), reduced inputs; prints IPC normalised to baseline, L1 miss rates and bypass
# fractions, and where the JSON went (docs/verilated-l1.md). RUN_L1=golden|lockstep for the
# other backends; RUN_COMPARE=1 also runs golden and checks both give identical statistics.
RUN_WORKLOADS ?= vecadd,atax,mvt,bfs,spmv,kmeans
RUN_POLICIES  ?= baseline,dycache,agcb,two-level,pcal,agelru,combined
# small scale: 30 s on 2 cores after the build (2026-11-22; the verilated L1 is about 3-4 times slower
# than the golden one, docs/performance.md). RUN_SCALE=test takes seconds.
RUN_SCALE     ?= small
RUN_L1        ?= verilated
run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpusim
	@python3 scripts/run_matrix.py --gpusim $(BUILD)/bin/gpusim --l1 $(RUN_L1) --workloads $(RUN_WORKLOADS) \
	  --policies $(RUN_POLICIES) --scale $(RUN_SCALE) --jobs $(JOBS) --out $(BUILD)/run $(if $(RUN_COMPARE),--compare-golden)

# RTL line and toggle coverage of l1d_top over the lockstep runs of the matrix's LRU policies and
# tb_l1d_top (docs/rtl-verification.md, "Coverage"): $(BUILD)/coverage/report.md. Its models
# (gpusim_cov, tb_l1d_top_cov) are built here only, not by make build.
COVERAGE_SCALE ?= test
.PHONY: coverage
coverage: configure
	@scripts/coverage.sh $(BUILD) $(COVERAGE_SCALE) $(JOBS)

# --- Paper studies (experiments/, docs/results.md) ---
# make experiments: every study (experiments/studies/*.py) on its paper's preset; points run through
# GNU parallel, JOBS at a time, and are cached (a point whose statistics exist and whose command
# and input files are unchanged is not rerun; FORCE=1 reruns all). Writes $(BUILD)/experiments/
# <study>/{points/*.json, <figure>.csv .json .png, run.json} and rewrites the generated blocks of
# docs/results.md. make experiments-<study> runs one (dycache, two-level, agcb, agelru, pcal, rpr,
# combined: the combined-policy search and the area/IPC Pareto plot, which first runs
# make synth-policies if its report is missing). SCALE=small|full|test
# (full is the papers' size), L1=verilated|golden (verilated, the default: the RTL L1 where a model
# of the point's configuration was built, golden for the others, and each point says which; golden
# gives the same statistics in about 40 % of the time: docs/results.md, make experiments-compare).
# make experiments-slurm writes $(BUILD)/experiments/slurm/<study>.sbatch (one job-array task per
# point) and the point lists, and runs nothing.
SCALE ?= small
L1    ?= verilated
EXPERIMENT_STUDIES = dycache two-level agcb agelru pcal rpr combined
SYNTH_POLICIES_REPORT = $(BUILD)/synth-policies/$(if $(LIBERTY),$(basename $(basename $(notdir $(LIBERTY)))),$(LIB))/report.json
EXPERIMENTS_RUN = python3 experiments/run.py --gpusim $(BUILD)/bin/gpusim --scale $(SCALE) --l1 $(L1) \
  --jobs $(JOBS) --out $(BUILD)/experiments --results docs/results.md $(if $(FORCE),--force) \
  --synth-report $(SYNTH_POLICIES_REPORT)
.PHONY: experiments experiments-slurm $(addprefix experiments-,$(EXPERIMENT_STUDIES))
experiments: configure $(SYNTH_POLICIES_REPORT)
	@cmake --build $(BUILD) -j $(JOBS) --target gpusim
	@$(EXPERIMENTS_RUN) all
experiments-combined: $(SYNTH_POLICIES_REPORT)
$(SYNTH_POLICIES_REPORT):
	@$(MAKE) --no-print-directory synth-policies
$(addprefix experiments-,$(EXPERIMENT_STUDIES)): experiments-%: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpusim
	@$(EXPERIMENTS_RUN) $*
experiments-slurm: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpusim
	@$(EXPERIMENTS_RUN) --slurm all
# After make experiments L1=golden and L1=verilated: every point's statistics on the two
# backends are identical but the field naming the backend (experiments/compare_backends.py).
.PHONY: experiments-compare
experiments-compare:
	@python3 experiments/compare_backends.py --out $(BUILD)/experiments --scale $(SCALE)

# Simulation speed (Google Benchmark, docs/performance.md): cycles/s and warp-instr/s of gpusim on
# bfs and vecadd, the shared real traces and a synthetic elementwise trace on qv100 (3520 CTAs,
# 8 elements per thread; written once to $(BUILD)/traces), on 1 and 2 threads.
BENCH_TRACE = $(BUILD)/traces/elementwise-3520x8
bench: build
	@cmake --build $(BUILD) -j $(JOBS) --target gpusim_bench  # not in the default build (CMakeLists.txt)
	@test -f $(BENCH_TRACE)/kernelslist.g || python3 scripts/gen_elementwise_trace.py --ctas 3520 --iters 8 --out $(BENCH_TRACE)
	GPUSIM_BENCH_TRACE=$(BENCH_TRACE) $(BUILD)/bin/gpusim_bench

sanitize:
	$(MAKE) test BUILD=build-asan BUILD_TYPE=RelWithDebInfo CMAKE_EXTRA=-DSANITIZE=ON

clean:
	rm -rf build build-asan

# --- RTL: generator, emitted blocks, testbenches (docs/generator.md) ---
.PHONY: rtl lint synth-check waves

# Regenerates the committed RTL of the default configuration (then commit rtl/).
rtl: configure
	@cmake --build $(BUILD) --target dcgen
	@rm -f rtl/*.sv
	@$(BUILD)/bin/dcgen --preset gtx480 --out rtl

# verilator --lint-only -Wall on every file of rtl/: zero warnings.
lint: deps
	@scripts/rtl.sh lint rtl

# Yosys 0.23 read_verilog -sv -noautowire; hierarchy -check; synth; check -assert on every block.
synth-check: deps
	@scripts/rtl.sh synth rtl

# --- Open synthesis: Yosys 0.23 + OpenSTA (docs/synthesis.md) ---
.PHONY: synth synth-staged synth-sweep synth-policies
LIB ?= osu018
SYN_LIB = $(if $(LIBERTY),--liberty $(LIBERTY),--lib $(LIB))

# The policy-overhead row's baseline: rtl/l1d_top with its configuration inputs tied to the
# baseline policy (no bypass, fixed 128 B granularity, no BTO, no opportunistic caching, no
# keep-large), so that Yosys removes the policy logic those values cannot reach.
BASELINE_RTL   ?= rtl
BASELINE_CONST ?= cfg_bypass_i=0,cfg_gran_i=0,cfg_bto_i=0,cfg_opportunistic_i=0,cfg_keep_large_i=0

# Area and timing of every block of rtl/ and of l1d_top, plus the policy-overhead row; report in
# $(BUILD)/synth/report.md and .json. make synth LIB=sky130 | LIB=sg13g2 | LIBERTY=file.lib
# [BLOCKS="m1 m2": only these modules] [BASELINE_RTL= : no overhead row]
synth: deps
	@synth/synth.sh $(SYN_LIB) --out $(BUILD)/synth --jobs $(JOBS) $(if $(BLOCKS),--blocks "$(BLOCKS)") \
	  $(if $(BASELINE_RTL),--baseline-rtl $(BASELINE_RTL) $(if $(BASELINE_CONST),--baseline-const $(BASELINE_CONST)))

# The staged l1d_top of contract v2 (STAGED_CONFIG: gtx480 with l1.pipeline staged), hierarchical
# with its parameterized stage units as sub-blocks [STAGED_BASELINE=1: and its baseline-policy
# build, BASELINE_CONST, for the policy-overhead row; doubles the time]:
# $(BUILD)/synth-staged/<library>/report.md. Not part of make synth: its Yosys time alone is
# minutes per library (docs/synthesis.md, "The staged l1d_top").
# [STAGED_VARIANT=conventional: dcgen --variant conventional, the conventional L1 of the overhead
# table, into $(BUILD)/synth-staged-conventional; synth/structures.py --overhead compares the two]
STAGED_CONFIG   ?= tb/block_configs/gtx480_staged.yaml
STAGED_BASELINE ?=
STAGED_VARIANT  ?= full
STAGED_OUT = $(BUILD)/synth-staged$(if $(filter-out full,$(STAGED_VARIANT)),-$(STAGED_VARIANT))
synth-staged: configure
	@cmake --build $(BUILD) --target dcgen
	@rm -rf $(STAGED_OUT)/rtl && $(BUILD)/bin/dcgen --config $(STAGED_CONFIG) --variant $(STAGED_VARIANT) --out $(STAGED_OUT)/rtl
	@synth/synth.sh $(SYN_LIB) --rtl $(STAGED_OUT)/rtl --out $(STAGED_OUT) --jobs $(JOBS) \
	  --blocks l1d_top --hier-params 1 \
	  $(if $(STAGED_BASELINE),--baseline-rtl $(STAGED_OUT)/rtl --baseline-const $(BASELINE_CONST))

# Area and fmax against AGCB entries, ways and chunk-tag width: $(BUILD)/synth-sweep/<library>/sweep.csv, .png
synth-sweep: configure
	@cmake --build $(BUILD) --target dcgen
	@synth/sweep.sh $(SYN_LIB) --dcgen $(BUILD)/bin/dcgen --out $(BUILD)/synth-sweep --jobs $(JOBS)

# The area of each policy's l1d_top: $(BUILD)/synth-policies/<library>/report.json (variants);
# the Pareto plot of make experiments reads it. [POLICIES="baseline agcb ..."]
synth-policies: configure
	@cmake --build $(BUILD) --target dcgen
	@synth/policies.sh $(SYN_LIB) --dcgen $(BUILD)/bin/dcgen --out $(BUILD)/synth-policies --jobs $(JOBS) \
	  $(if $(POLICIES),--policies "$(POLICIES)")

# Bounded model checking of l1d_mshr, l1d_agcb_table, l1d_repl_state and l1d_miss_queue, induction of
# l1d_perf_counters (formal/, scripts/formal.sh; Yosys 0.23 and ABC's bmc3, FV_ENGINE=native for
# Yosys's SAT and smtbmc) and the mutated-RTL copies formal must catch: docs/rtl-verification.md.
.PHONY: formal
formal: configure
	@cmake --build $(BUILD) --target dcgen
	@scripts/formal.sh $(BUILD)/bin/dcgen

# The staged l1d_top as a whole (scripts/formal_staged_top.sh; docs/rtl-verification.md "The staged
# l1d_top as a whole"): its 34 control assertions to depth 14, the two payload-holding ones to depth
# 8 (about 10 GB of memory), and two mutants it must find; the top generated for allocation on_miss
# (FV_TOP_CONFIG=onmiss) to depth 12 and its mutant onmiss_res_no_fwd. About 12 CPU-minutes, and the
# on_miss part's (docs/rtl-verification.md).
.PHONY: formal-top
formal-top: configure
	@cmake --build $(BUILD) --target dcgen
	@scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 14 control
	@scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 8 held
	@FV_TOP_MUTANT=c_set_of_a scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 8
	@FV_TOP_MUTANT=m2_no_squash scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 8
	@FV_TOP_CONFIG=onmiss scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 12 control
	@FV_TOP_CONFIG=onmiss FV_TOP_MUTANT=onmiss_res_no_fwd scripts/formal_staged_top.sh $(BUILD)/bin/dcgen 8

# make waves BLOCK=l1d_tag_mask: run the block's testbench with FST tracing and open GTKWave.
waves:
	@test -n "$(BLOCK)" || { echo "usage: make waves BLOCK=<module>, one of: $$(ls tb/waves | sed 's/\.gtkw//' | tr '\n' ' ')"; exit 2; }
	@$(MAKE) --no-print-directory configure
	@scripts/waves.sh open $(BLOCK) $(BUILD)
