# libadapt: top-level build. `make help` prints this list.
#
#   make / make all / make lib   the library (libadapt.a, .so; libadapt-iso)
#   make test       install missing Debian packages, then build the three
#                   variants at once and run the checks (layers, symbols,
#                   format, docs, models, consumers) and every test program
#                   normally, under ThreadSanitizer and under ASan+UBSan,
#                   beside the builds; prints the time of each phase
#                   (scripts/test_all.sh; TEST_JOBS=n make jobs at once)
#   make check      the same for the release variant only (the quick run)
#   make tests / test-build-early / test-build / test-run   this variant's
#                   test programs: build the C ones / those and the fault
#                   and counter tests / build all / build and run all
#   make checks     the release checks: check-layers check-symbols
#                   format-check check-docs model-check check-consumers
#                   check-bench-stats locality-map
#   make check-bench-stats  the benchmarks' statistics (tests/bench/)
#   make check-layers   each layer includes only what it may
#   make check-symbols  libadapt.so exports its public API only
#   make check-function-size [FUNCTION_LINES=80]  no function over 80 lines
#                   outside the tests (clang-tidy; not in make test; its
#                   compile lines: make -Bn function-size-commands)
#   make check-docs     the docs' examples run, links resolve, tables match
#   make model-check    spin verifies the protocol models (model/)
#   make check-consumers  staged installs used via pkg-config and CMake
#   make check-clang-ranges  adapt::ranges under clang++ (docs/stl.md)
#   make fault      fault injection: allocations and threads failing
#   make soak [MINUTES=2] [SOAK_SEED=n]   the mixed soak workload for a while
#   make fuzz [FUZZ_SECONDS=n]   libFuzzer on the file readers (fuzz-build,
#                   fuzz-run)
#   make bench      benchmarks (bench/), release build (bench-build,
#                   bench-run; one suite: bench-core bench-core-spread
#                   bench-core-callgrind bench-sched
#                   bench-sched-callgrind bench-window
#                   bench-window-callgrind bench-stl bench-stl-cachesim
#                   bench-stl-ir bench-tasks bench-tasks-callgrind
#                   bench-locality locality-map bench-isosurface
#                   bench-isosurface-run bench-vtk-filter bench-vtk-filter-run
#                   bench-vtk-filter-callgrind bench-vtk-filter-callgrind-run
#                   bench-mpi bench-mpi-run bench-paraview bench-paraview-run)
#   make bench-scaling [SCALING_WORKERS=1,2,4] [SCALING_SIZE=short|full]
#                   [SCALING_REPS=n]   the headline benchmarks at P = 1, 2,
#                   4, ... workers: CSV, Markdown table, PNG of speedups
#   make demo       the isosurface demo (apps/isosurface; demo-run)
#   make isosurface the adapt-isosurface app; iso-lib: libadapt-iso alone;
#                   stl: the C++ front end's test
#   make vtk-filter the VTK filter vtkAdaptiveContourFilter (C++ and Python)
#   make paraview-plugin  the ParaView plugin AdaptiveContour (docs/paraview.md)
#   make install PREFIX=/usr/local [LIBDIR=...] [DESTDIR=...] [PYTHONDIR=...]
#                   (install-vtk-filter, install-paraview-plugin: one alone)
#   make uninstall  (same PREFIX, LIBDIR and DESTDIR; uninstall-vtk-filter,
#                   uninstall-paraview-plugin)
#   make docs-tables / docs-figures   regenerate the docs' tables (from
#                   the last make bench's CSV files for docs-figures)
#   make format     clang-format every C/C++ source (format-check: report only)
#   make deps / deps-core   install the Debian packages (all / the library's)
#   make clean      remove build/;  make help: this list
#
# Variants build into build/<variant>/ so objects never mix:
#   release (default), tsan, asan.   e.g. make VARIANT=tsan test-run
# CC, CXX, CFLAGS, CXXFLAGS, LDFLAGS, PREFIX, LIBDIR, INCLUDEDIR, BINDIR may
# be overridden.

VARIANT ?= release
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR  ?= $(PREFIX)/bin
CC      ?= cc
CXX     ?= c++
CFLAGS  ?= -O2 -g
CXXFLAGS ?= -O2 -g
LDFLAGS ?=

B := build/$(VARIANT)

# The sanitizer variants keep line tables only (-g1: the reports' file:line):
# full debug information doubles their compile time (tests/stl/test_stl.cpp
# under ASan+UBSan: 164 s of CPU with -g, 74 s with -g1).
ifeq ($(VARIANT),release)
  SAN_FLAGS :=
else ifeq ($(VARIANT),tsan)
  SAN_FLAGS := -fsanitize=thread -O1 -g1 -DADAPT_DEBUG=1
else ifeq ($(VARIANT),asan)
  SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -g1 \
               -DADAPT_DEBUG=1
else
  $(error VARIANT must be release, tsan or asan)
endif

# The version has one source: the ADAPT_VERSION_* macros of adapt.h.
adapt_version_field = $(shell sed -n 's/^\#define ADAPT_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' libadapt/include/adapt/adapt.h)
VERSION_MAJOR := $(call adapt_version_field,MAJOR)
VERSION_MINOR := $(call adapt_version_field,MINOR)
VERSION_PATCH := $(call adapt_version_field,PATCH)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)
# The soname's version: MAJOR, or 0.MINOR while MAJOR is 0 (a 0.x minor
# version may break the ABI: a binary linked against 0.2 must not load 0.3).
SOVERSION := $(if $(filter 0,$(VERSION_MAJOR)),0.$(VERSION_MINOR),$(VERSION_MAJOR))

WARN         := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-unused-parameter
ALL_CFLAGS   := -std=c11 $(WARN) -fPIC -pthread -MMD -MP $(CFLAGS) $(SAN_FLAGS)
ALL_CXXFLAGS := -std=c++17 -Wall -Wextra -Wno-unused-parameter -fPIC -pthread -MMD -MP $(CXXFLAGS) $(SAN_FLAGS)
LIBS_CORE    := -lhwloc -lpthread -lm
ALL_LDFLAGS  := -pthread $(LDFLAGS) $(SAN_FLAGS)

# --- Layers (docs/design.md, "Layers") ------------------------------------
# Each layer is compiled with the include paths it may use, so a leak is a
# compile error: the runtime (libadapt/src) sees its own headers, its public
# headers (libadapt/include) and the one extension header (libadapt/ext), not
# the algorithms' public headers (algorithms/include); the sequence
# algorithms see both public folders and that extension header; everything
# above (the C++ front end stl/, apps, benches, tests) sees the public
# headers only, plus the components below it that it declares (e.g.
# perfcounters/, stl/include). White-box tests include internals by an
# explicit relative path; scripts/check_layers.sh allows that only there.
INC_RUNTIME_PUBLIC := -Ilibadapt/include
INC_PUBLIC  := $(INC_RUNTIME_PUBLIC) -Ialgorithms/include
INC_RUNTIME := $(INC_RUNTIME_PUBLIC) -Ilibadapt/src -Ilibadapt/ext
INC_ALGO    := $(INC_PUBLIC) -Ilibadapt/ext -Ialgorithms
LAYER_CPPFLAGS := $(INC_PUBLIC)
LAYER_CFLAGS   :=
$(B)/obj/libadapt/%.o:   LAYER_CPPFLAGS := $(INC_RUNTIME)
$(B)/obj/algorithms/%.o: LAYER_CPPFLAGS := $(INC_ALGO)
# The library exports only what its public headers mark ADAPT_API.
$(B)/obj/libadapt/%.o:   LAYER_CFLAGS := -fvisibility=hidden
$(B)/obj/algorithms/%.o: LAYER_CFLAGS := -fvisibility=hidden
CPPFLAGS_ALL = $(LAYER_CPPFLAGS) -D_GNU_SOURCE $(CPPFLAGS)

LIB_SRCS := $(wildcard libadapt/src/*.c) $(wildcard algorithms/*.c)
LIB_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(LIB_SRCS))
LIB_A    := $(B)/libadapt.a
LIB_SO_REAL := $(B)/libadapt.so.$(VERSION)
LIB_SO_NAME := libadapt.so.$(SOVERSION)
LIB_SO   := $(B)/libadapt.so

# Every test lives in tests/<component>/ (tests/common/: their shared headers).
TEST_SRCS := $(wildcard tests/libadapt/test_*.c) $(wildcard tests/algorithms/test_*.c)
TEST_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(TEST_SRCS))
TEST_SUPPORT := $(wildcard tests/common/*.c)
TEST_SUPPORT_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(TEST_SUPPORT))

# Modules append to these: INSTALL_BINS (installed to BINDIR), EXTRA_TESTS
# (more test binaries of this variant, run by test-run after TEST_BINS),
# CHECKS (release-only checks run by `make test`), BENCH_RUNS, DEMO_DEPS
# (built by `make demo`), DOC_DEPS (built before check-docs).
INSTALL_BINS :=
EXTRA_TESTS :=
DEMO_DEPS :=
DOC_DEPS :=
BENCH_RUNS :=
CHECKS :=

.PHONY: all lib tests test check test-build test-run checks bench demo install uninstall clean \
        deps deps-core help format format-check check-layers check-symbols
.DEFAULT_GOAL := all

all: lib
lib: $(LIB_A) $(LIB_SO)

help:
	@sed -n '2,/^# be overridden/p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@bash scripts/deps.sh all
deps-core:
	@bash scripts/deps.sh core

# OBJ_FLAGS: what an object adds last on its line (it overrides CFLAGS).
# Test objects keep line tables only (-g1: file:line in backtraces and
# reports): full debug information would add a third to the compile of the
# C++ tests (tests/stl/test_stl.cpp: 58 s of CPU with -g, 36 s with -g1) and
# none of them is installed. `private`: the sources' prerequisites (none is
# an object) inherit nothing.
$(B)/obj/tests/%.o: private OBJ_FLAGS := -g1

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(ALL_CFLAGS) $(LAYER_CFLAGS) $(OBJ_FLAGS) -c $< -o $@

$(B)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) $(ALL_CXXFLAGS) $(LAYER_CFLAGS) $(OBJ_FLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(LIB_SO_NAME) -Wl,--no-undefined $(ALL_LDFLAGS) -o $@ $^ $(LIBS_CORE)

$(LIB_SO): $(LIB_SO_REAL)
	ln -sf $(notdir $(LIB_SO_REAL)) $(B)/$(LIB_SO_NAME)
	ln -sf $(LIB_SO_NAME) $@

$(B)/tests/%: tests/%.c $(TEST_SUPPORT_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Itests/common $(ALL_CFLAGS) -o $@ $< $(TEST_SUPPORT_OBJS) $(LIB_A) $(ALL_LDFLAGS) -lcmocka $(LIBS_CORE)

tests: $(TEST_BINS)

-include perfcounters/module.mk
-include apps/isosurface/module.mk
-include apps/isosurface/vtk/module.mk
-include bench/module.mk
-include stl/module.mk
-include packaging/module.mk
-include docs/module.mk
-include model/module.mk
-include tests/fault/module.mk
-include tests/soak/module.mk

# Layer and symbol checks (scripts/check_layers.sh, scripts/check_symbols.sh).
check-layers:
	@bash scripts/check_layers.sh
check-symbols: $(LIB_SO)
	@bash scripts/check_symbols.sh $(LIB_SO_REAL) libadapt/include/adapt algorithms/include/adapt
CHECKS += check-layers check-symbols format-check

# No function over FUNCTION_LINES lines (default 80) outside the tests:
# scripts/check_function_size.sh, clang-tidy's readability-function-size on
# the sources of libadapt/, algorithms/, apps/, bench/ and perfcounters/ and
# the headers they include (stl/include too). Not in CHECKS: it parses every
# unit again, VTK's and the C++ front end's headers included (92-99 s of CPU on
# 2 vCPUs, docs/guide.md "Checking the sources"). Its compile lines: those
# of function-size-commands, printed by `make -Bn` (run for real it builds
# the programs below), the VTK filter's (a CMake build) as -fsyntax-only
# lines.
FUNCTION_SIZE_UNITS = $(LIB_OBJS) $(PERF_OBJ) $(BENCH_BINS) $(ISO_BIN) $(LOC_MAP) $(LOC_SIM) \
  $(patsubst %,$(B)/obj/$(ISO_CLI)/%.o,dist dist_gids dist_report dist_nompi) \
  $(if $(VTKF_HAVE),$(VTKF_BENCH_BIN) $(VTKF_EXAMPLE))
.PHONY: check-function-size function-size-commands
FUNCTION_LINES ?= 80
check-function-size:
	@MAKE="$(MAKE)" FUNCTION_LINES=$(FUNCTION_LINES) bash scripts/check_function_size.sh
function-size-commands: $(FUNCTION_SIZE_UNITS)
	$(if $(VTKF_HAVE),$(foreach f,$(VTKF_FILTER_SRCS),$(CXX) -std=c++17 $(VTKF_FILTER_FLAGS) -fsyntax-only $(f);))

# The test programs of this variant, in the order they run: the C programs
# first (the library and one C file each: built first, they run while the
# C++ builds go on), then the C++ ones; in each part the slowest first
# (their times in test_all.sh's summary). scripts/run_programs.sh starts a
# list's programs in order through scripts/run_test.sh, whose slots let one
# program run at a time across the variants (two once every build is
# over, of one list or of two). The programs are independent: each makes
# its own temporary files and starts its own runtime.
TEST_PROGRAMS = $(TEST_BINS) $(EXTRA_TESTS)
TEST_SLOW := test_paraview_plugin test_dist fault_driver test_algo_scan test_isosurface \
             test_algo_search test_stl test_stl_algos \
             test_algo_window test_sched test_loopframe test_algo_var test_locality \
             test_algo_foreach test_reorder test_seq test_sched_env test_hybrid
test_slow_first = $(foreach t,$(TEST_SLOW),$(filter %/$(t),$(1))) \
                  $(filter-out $(foreach t,$(TEST_SLOW),%/$(t)),$(1))
TEST_EARLY = $(TEST_BINS) $(filter $(FAULT_BIN) $(PERF_TEST),$(EXTRA_TESTS))
TEST_EARLY_ORDER = $(call test_slow_first,$(TEST_EARLY))
TEST_LATE_ORDER = $(call test_slow_first,$(filter-out $(TEST_EARLY),$(TEST_PROGRAMS)))

test-build-early: $(TEST_EARLY)
test-build: tests $(EXTRA_TESTS)
test-run: test-build
	@bash scripts/run_programs.sh $(VARIANT) $(TEST_EARLY_ORDER) $(TEST_LATE_ORDER)

# One variant's build and tests (the release one with the checks) as one job
# of make test, which runs the three at once (scripts/test_all.sh). Why in
# phases and not as one make goal: make -j starts every compile it can reach
# before it comes back to a target whose prerequisites have just been built
# (a fresh run linked libadapt.a, whose objects took 16 s, after 280 s, and
# ran its first program after 400 s). So: the library and the C programs
# (test-build-early); their runs in the background while the rest builds;
# the C++ programs' runs as soon as test-build is over, in the background
# while the release variant runs its checks. Each phase's make shares the
# jobserver; the programs hold no job slot (run_test.sh's lock paces them).
# $(B)/test-logs/built marks the variant's compiles and checks over (read
# by run_test.sh, ADAPT_TEST_BUILT); the wall-clock span goes to
# $(B)/test-logs/span.
.PHONY: test-variant-release test-variant-tsan test-variant-asan test-pipeline test-build-early
test-variant-release test-variant-tsan test-variant-asan: test-variant-%:
	+@mkdir -p build/$*/test-logs; start=$$(date +%s); \
	$(MAKE) --no-print-directory VARIANT=$* test-pipeline; rc=$$?; \
	echo $$(( $$(date +%s) - start )) > build/$*/test-logs/span; exit $$rc
test-pipeline:
	+@rm -f $(B)/test-logs/built; mkdir -p $(B)/test-logs; \
	if ! $(MAKE) --no-print-directory test-build-early; then touch $(B)/test-logs/built; exit 1; fi; \
	bash scripts/run_programs.sh $(VARIANT) $(TEST_EARLY_ORDER) & early=$$!; late=; \
	if $(MAKE) --no-print-directory test-build; then \
	  bash scripts/run_programs.sh $(VARIANT) $(TEST_LATE_ORDER) & late=$$!; rc=0; \
	else rc=1; fi; \
	$(if $(filter release,$(VARIANT)),$(MAKE) --no-print-directory checks || rc=1;) \
	touch $(B)/test-logs/built; \
	wait $$early || rc=1; \
	if [ -n "$$late" ]; then wait $$late || rc=1; fi; \
	exit $$rc

checks: $(CHECKS)

# scripts/test_all.sh: the phases, timed. ISO_REQUIRE_VTK (set there): deps
# installed VTK, so the app's tests must not vanish.
test: deps
	@MAKE="$(MAKE)" bash scripts/test_all.sh all
check: deps
	@MAKE="$(MAKE)" bash scripts/test_all.sh release

bench: deps
	$(MAKE) --no-print-directory VARIANT=release bench-run

demo: deps
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 demo-run

FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' '*.cpp' '*.hpp' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRCS)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_SRCS) && echo "format-check: clean"

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
