# Front door. `make run` and `make test` install what is missing, build, then act.
BUILD      ?= build
BUILD_TYPE ?= Release
JOBS       ?= $(shell nproc)
DEMO        = $(BUILD)/bin/l1-golden-demo
RUN_POLICIES ?= baseline dycache elastic32 agcb two-level pcal agelru agelru-bypass bip combined

.PHONY: all deps configure build test run bench sanitize clean

all: build

deps:
	@bash scripts/setup-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_EXTRA) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# Until the verilated L1 lands, the main job is the golden-model demo: every policy preset
# on the gtx480 preset with the mixed synthetic stream.
run: build
	@for s in mixed irregular; do \
	  $(DEMO) --preset gtx480 --stream $$s --requests 200000 --table $(shell echo $(RUN_POLICIES) | tr ' ' ',') || exit 1; echo; \
	done

# Simulation speed (Google Benchmark): cycles/s and warp-instr/s of gpusim on bfs and vecadd.
bench: build
	$(BUILD)/bin/gpusim_bench

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

# make waves BLOCK=l1d_tag_mask: run the block's testbench with FST tracing and open GTKWave.
waves:
	@test -n "$(BLOCK)" || { echo "usage: make waves BLOCK=<module>, one of: $$(ls tb/waves | sed 's/\.gtkw//' | tr '\n' ' ')"; exit 2; }
	@$(MAKE) --no-print-directory configure
	@scripts/waves.sh open $(BLOCK) $(BUILD)
