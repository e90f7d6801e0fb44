# SPDX-License-Identifier: BSD-3-Clause
# Two commands on a fresh machine: `make run` and `make test`.
# Override e.g. `make test BUILD_DIR=out JOBS=8`.
#
# `make test` runs, in order, stopping at the first failure:
#   1. check  the unit and end-to-end suite on the normal build (BUILD_DIR),
#             except the two exhaustive matrices: they run once, in asan
#             (`make check` alone runs everything); it builds the
#             simulated cxi_sweep first (SIM_DIR, `make sim`), which the
#             simulation tests (test_sim_*) run under SimGrid
#      builds compile only, warnings as errors: Release (from the release
#             tarball, `make dist` of the tracked files, unpacked in an
#             empty directory, then its unit tests), Debian's
#             dpkg-buildflags and clang (BUILDS_DIR; about 1 min on 2
#             cores, 40 s when only Release has to rebuild); the fourth,
#             libfabric 2.x, is lf2's build
#   2. lf2    the unit and e2e suite (not the matrices, valgrind, or the
#             Python/packaging tests) built against libfabric 2.x from
#             LIBFABRIC2_TARBALL (LF2_DIR; by default ../shared/vendor's
#             or the pinned release, downloaded: scripts/fetch-libfabric.sh)
#   3. fuzz   the four libFuzzer harnesses and fuzz_archive.py, FUZZ_TIME
#             seconds, all at once (FUZZ_DIR; "skipped" when clang is
#             missing)
#   4. asan   the same suite again under ASan+UBSan with LeakSanitizer on
#             (ASAN_DIR), less what only repeats the normal tier (man
#             pages, install, packages, plots, dist: no C of ours runs
#             there; netns and counters: test_write_bw's C; ASAN_SKIP):
#             first all but the two exhaustive matrices, two at a time;
#             then the matrices alone, so their many processes starve no
#             other test, but side by side (about 3.7 min, was 6 one after
#             the other): the fault matrix mostly waits out 2 s timeouts,
#             the cli matrix is CPU-bound, and the fault matrix's bounds
#             are hang bounds (10 s, 15 s), not speed checks
# and ends, whether they passed or not, with tests/leftovers.sh: links,
# network namespaces, /dev/shm files or processes the run left behind that
# were not there before it are listed, and fail it (`make check` alone too).
# Every stage of `make test` runs with CXD_TEST_STRICT=1: deps has installed
# every tool, so a test or part that would skip fails, its reason printed
# (only what no package gives stays a skip: docs/testing.md). `make check`
# alone skips what this machine lacks and lists the skips at the end
# (scripts/skips.sh).
BUILD_DIR   ?= build
ASAN_DIR    ?= build-asan
FUZZ_DIR    ?= build-fuzz
FUZZ_TIME   ?= 20
FUZZ_CC     ?= clang
BUILD_TYPE  ?= RelWithDebInfo
JOBS        ?= 2
CMAKE       ?= cmake
CTEST       ?= ctest
CMAKE_FLAGS ?=
RUN_ARGS    ?= --local
# The two exhaustive matrices: left out of make test's check stage, run
# last in asan, on their own (side by side).
ASAN_SERIAL ?= e2e\.test_(fault|cli)_matrix
# What the asan stage leaves out runs no C of ours that the stage does not
# already run under ASan elsewhere (docs/testing.md, "make asan"):
#   man, install, package, plot, archive, hostile_names, dist, reframe, nhc:
#     our C runs only as in the normal tier (or not at all); they check
#     files and scripts;
#   valgrind: cannot run ASan binaries (it would only skip);
#   counters, netns: the tcp pair of test_write_bw and test_bw_family over
#     a veth; what they add (kernel counters, a shaped link) is the
#     network's, not memory;
#   congestion, sweep_verdict, sweep_slurm, slurm_prolog, sim_*, sweep_budget:
#     timing-bound or SimGrid's (--budget runs under ASan in sweep_mpi); the sweep's C runs under ASan in test_sweep, _mpi, _nics;
#   node_health: scripts over sysfs and the pair tools, whose C the
#     family tests run under ASan.
ASAN_SKIP   ?= e2e\.test_(man|install|package|plot|archive|hostile_names|dist|valgrind|counters|netns|congestion|sweep_verdict|sweep_slurm|slurm_prolog|sweep_budget|reframe|nhc|node_health|sim_[a-z_]+)|unit\.gpu_headers
CHECK_SKIP  ?= ^$$
BUILDS_DIR  ?= build-variants
# Warnings are errors in the project's own builds (every target here); a
# packager's cmake leaves CXD_WERROR off.
WERROR      ?= -DCXD_WERROR=ON

# Sanitizer runtime settings for every process the asan suite starts. The
# LSan suppressions cover libfabric's own init-time state only.
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Install and packages: `make install PREFIX=/usr DESTDIR=/tmp/root`.
PREFIX      ?= /usr/local
DESTDIR     ?=

# libfabric 2.x stage: built from this tarball into LF2_DIR/libfabric/prefix (once),
# the project against it in LF2_DIR. auto: ../shared/vendor's beside the
# checkout, else the pinned release downloaded into LF2_DIR/cache and
# checked against its sha256 (scripts/fetch-libfabric.sh). Empty: the stage
# says it is skipped.
LIBFABRIC2_TARBALL ?= auto
LF2_DIR     ?= build-lf2
# make sim: cxi_sweep built with SimGrid's smpicc (MPI engine only).
SIM_DIR     ?= build-sim
# What the lf2 stage leaves out does not depend on the libfabric it is
# built against (docs/testing.md, "make lf2"): besides the matrices,
# valgrind and the Python, packaging and timing-bound tests,
#   node_health: no libfabric in it; sweep_mpi, hostile_sweep: --engine
#     mpi, MPI only (the sweep's core links without libfabric: a unit
#     test); hostile_names: Python only;
#   sweep_capacity: timing-bound, and the pass calls no libfabric of
#     its own (its pairs run through the engine as test_sweep's do);
#   prometheus: the files' format (the runs behind them: write_bw,
#     lat_family, launch --metrics and sweep run in lf2 too);
#   sweep_nics, netns: namespaces and a NIC per rank, over the same tcp
#     endpoints test_sweep and test_write_bw open in lf2;
#   progress, sweep_progress: a terminal line drawn between runs, no
#     libfabric call of its own; sweep_budget: SimGrid's build;
#   dist, spdx, layers: the tarball, the sources' licence lines, the
#     layer rule of the same sources (not the libfabric headers).
# test_atomic runs each op and each type in both fetching modes there,
# as in every stage of make test (ATOMIC_E2E_SPAN): the pairs are make
# bench's;
# the bw and lat families and test_faults over tcp alone (E2E_PROVIDERS:
# 2.x's shm runs in test_write_bw, test_robust and test_sweep).
LF2_SKIP    ?= e2e\.test_(fault|cli)_matrix|e2e\.test_(valgrind|plot|archive|hostile_names|hostile_sweep|man|package|dist|prometheus|counters|congestion|sweep_verdict|sweep_capacity|sweep_slurm|slurm_prolog|sweep_mpi|sweep_nics|sweep_progress|progress|netns|sweep_budget|reframe|nhc|node_health|sim_[a-z_]+)|unit\.(gpu_headers|spdx|layers)

.PHONY: all deps configure build run check test test-stages fuzz asan \
	bench clean install package lf2 sim builds dist easybuild

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(WERROR) $(CMAKE_FLAGS)

build: configure
	$(CMAKE) --build $(BUILD_DIR) -j$(JOBS)

run: build
	./$(BUILD_DIR)/cxi_write_bw $(RUN_ARGS)

check: build sim
	bash tests/leftovers.sh -- $(CTEST) --test-dir $(BUILD_DIR) \
		--output-on-failure -j$(JOBS) -E '$(CHECK_SKIP)'
	@bash scripts/skips.sh $(BUILD_DIR)

# Sequential on purpose: each stage wants both cores, and timing-bound
# e2e cases must not compete with a fuzzer. The snapshot of what is there
# is taken before the first stage, the leftovers listed after the last.
test:
	@bash tests/leftovers.sh -- $(MAKE) --no-print-directory test-stages

test-stages: export CXD_TEST_STRICT = 1
test-stages:
	@$(MAKE) --no-print-directory check CHECK_SKIP='$(ASAN_SERIAL)'
	@$(MAKE) --no-print-directory builds
	@$(MAKE) --no-print-directory lf2
	@$(MAKE) --no-print-directory fuzz
	@$(MAKE) --no-print-directory asan

# cxi_sweep for SimGrid's smpirun (docs/simulation.md): no libfabric
# inside, the MPI engine only; SIM_DIR/cxi_sweep and its test copy
# SIM_DIR/standin/cxi_sweep (CXD_TEST_JITTER).
sim: deps
	$(CMAKE) -S . -B $(SIM_DIR) -DCMAKE_C_COMPILER=smpicc -DCXD_SIM=ON \
		-DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(WERROR) $(CMAKE_FLAGS)
	$(CMAKE) --build $(SIM_DIR) -j$(JOBS)

# Compile only, warnings as errors: the builds a packager makes.
builds: deps
	@CMAKE=$(CMAKE) JOBS=$(JOBS) CMAKE_FLAGS="$(CMAKE_FLAGS)" \
		bash scripts/build-variants.sh $(BUILDS_DIR)

fuzz:
	@FUZZ_CC=$(FUZZ_CC) CMAKE=$(CMAKE) JOBS=$(JOBS) CMAKE_FLAGS="$(WERROR) $(CMAKE_FLAGS)" \
		bash fuzz/run.sh $(FUZZ_DIR) $(FUZZ_TIME)

asan: deps
	$(CMAKE) -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=Debug -DCXD_SANITIZE=ON $(WERROR) $(CMAKE_FLAGS)
	$(CMAKE) --build $(ASAN_DIR) -j$(JOBS)
	$(SAN_ENV) $(CTEST) --test-dir $(ASAN_DIR) --output-on-failure -j$(JOBS) \
		-E '$(ASAN_SERIAL)|$(ASAN_SKIP)'
	$(SAN_ENV) $(CTEST) --test-dir $(ASAN_DIR) --output-on-failure -j$(JOBS) \
		-R '$(ASAN_SERIAL)'

install: build
	DESTDIR=$(DESTDIR) $(CMAKE) --install $(BUILD_DIR) --prefix $(PREFIX)

# The release tarball cxd-VERSION.tar.gz of HEAD (DIST_REV) in DIST_DIR.
DIST_DIR    ?= .
dist:
	@DIST_REV=$(or $(DIST_REV),HEAD) bash scripts/dist.sh $(DIST_DIR)

# EasyBuild (from PyPI, in EB_DIR) builds that tarball with Debian's
# compiler and libraries as filtered dependencies; then `module load` (Lmod)
# and a run of a tool. About 1 min (plus EasyBuild's install the first
# time), so not in `make test`.
EB_DIR      ?= build-easybuild
easybuild: deps
	@command -v lmod >/dev/null 2>&1 || ls /usr/share/lmod/*/init/bash >/dev/null 2>&1 || \
		{ [ "$$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lmod; }
	bash scripts/easybuild.sh $(EB_DIR)

# DEB always; RPM where rpmbuild exists. Packages land in BUILD_DIR.
package: build
	cd $(BUILD_DIR) && cpack -G DEB
	@if command -v rpmbuild >/dev/null 2>&1; then cd $(BUILD_DIR) && cpack -G RPM; \
	else echo "package: RPM skipped: rpmbuild not installed"; fi

# Host memory only: configure finds the GPU headers the GPU tests install
# (Level Zero, ROCm's HSA) on its own, and a libfabric 2.6 built with them
# on a host with no such device fails shm's fi_domain (ENOSYS).
lf2: deps
ifeq ($(strip $(LIBFABRIC2_TARBALL)),)
	@echo "lf2: skipped: LIBFABRIC2_TARBALL set empty"
else
	@tarball='$(LIBFABRIC2_TARBALL)'; \
	if [ "$$tarball" = auto ]; then \
		tarball=$$(bash scripts/fetch-libfabric.sh $(abspath $(LF2_DIR))/cache) || exit 1; \
	fi; \
	echo "lf2: libfabric from $$tarball"; \
	bash scripts/build-libfabric.sh --tarball "$$tarball" \
		--prefix $(abspath $(LF2_DIR))/libfabric/prefix --jobs $(JOBS) -- \
		--enable-only --enable-tcp=yes --enable-shm=yes --enable-rxm=yes \
		--without-ze --without-rocr --without-cuda
	$(CMAKE) -S . -B $(LF2_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
		-DCXD_LIBFABRIC_PREFIX=$(abspath $(LF2_DIR))/libfabric/prefix $(WERROR) $(CMAKE_FLAGS)
	$(CMAKE) --build $(LF2_DIR) -j$(JOBS)
	@./$(LF2_DIR)/cxi_write_bw -V | grep 'built against 2\.' || \
		{ echo "lf2: $(LF2_DIR) is not built against libfabric 2.x" >&2; exit 1; }
	ATOMIC_E2E_SPAN=rows-and-columns E2E_PROVIDERS=tcp $(CTEST) --test-dir $(LF2_DIR) \
		--output-on-failure -j$(JOBS) -E '$(LF2_SKIP)'
endif

# Then cxi_sweep's coordination cost against N (some minutes: 3 runs of
# each N up to 256 ranks) and its fit beside the checked-in "before" table,
# and rank 0's memory beyond the other ranks' (bench/results/sweep_mem.txt);
# then the simulated scenario suite at 1024 ranks (bench/results/
# sim_scenarios_1024.md), issue 42's links-down scenarios with the widths
# stated (bench/results/sim_capacity_1024.md), the randomized fault benchmark at 256 and 1024
# (bench/results/sim_faults_N_{places,links}.md), 200 healthy fabrics of drawn shapes at 128 ranks, each to
# PASS clean (bench/results/sim_shapes_128.md), faults on those drawn shapes at 128, 256 and 1024
# ranks, places only and with links (bench/results/sim_faults_shapes_N.md), --budget against the
# full sweep on single faults of a 512-rank job and its time up to 4,096 ranks
# (bench/results/sim_budget.md, hours), the full sweep packed by routes against its bound and
# against the dealt pass at 128 to 1,024 ranks (bench/results/sim_routed.md), and a whole
# simulated sweep's cost with the
# default options at 256, 512 and 1024 ranks, projected to 10,000
# (bench/sim_cost.py; about an hour at 1024 on 2 cores).
bench: build sim
	bash bench/run.sh $(BUILD_DIR)
	ATOMIC_E2E_SPAN=pairs bash tests/e2e/test_atomic.sh $(BUILD_DIR)
	bash bench/sweep_cost.sh $(BUILD_DIR) 3 $(BUILD_DIR)/sweep_cost.tsv
	/usr/bin/python3 bench/sweep_cost_plot.py bench/results/sweep_cost_before.tsv \
		$(BUILD_DIR)/sweep_cost.tsv
	bash bench/sweep_mem.sh $(BUILD_DIR) 64 128 256
	bash bench/sim_scenarios.sh $(SIM_DIR)/cxi_sweep 1024
	bash bench/sim_capacity.sh $(SIM_DIR)/cxi_sweep 1024
	bash bench/sim_faults.sh $(SIM_DIR)/cxi_sweep 256 1024
	bash bench/sim_shapes.sh $(SIM_DIR)/cxi_sweep 200 128
	bash bench/sim_faults_shapes.sh $(SIM_DIR)/cxi_sweep 128 256 1024
	bash bench/sim_budget.sh $(SIM_DIR)/cxi_sweep
	bash bench/sim_routed.sh $(SIM_DIR)/cxi_sweep
	/usr/bin/python3 bench/sim_cost.py --sweep $(SIM_DIR)/cxi_sweep \
		--ranks 256,512,1024 --work $(SIM_DIR)/cost \
		--tsv $(SIM_DIR)/sim_cost.tsv --png $(SIM_DIR)/sim_cost.png

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(FUZZ_DIR) $(LF2_DIR) $(SIM_DIR) $(BUILDS_DIR) $(EB_DIR)
