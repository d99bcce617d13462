# bench/: every bench/bench_*.cpp is one benchmark binary, its main() a list
# of cases; the harness (bench/common/: alternating rounds, paired ratios,
# noise, affinity, CSV, reports) and the kernels (bench/kernels/: the loops
# measured, each beside its sequential baseline) go into one archive that
# every benchmark links, with libadapt, OpenMP, TBB (peers in the same
# binary) and the perfcounters component (PAPI). Each bench/mk/*.mk fragment
# adds the phony targets that run its benchmarks to BENCH_RUNS, in the
# order `make bench` runs them.
#
# Every bench object is compiled with -falign-loops=64: the overhead loop of
# bench_core runs about one iteration per cycle, where the position of a
# loop relative to the fetch blocks alone changes its speed by up to 50%
# (seen here: the same 8-instruction loop, two addresses, 0.38 vs 0.57 ns
# per iteration). Aligning every loop compares schedulers, not code
# placement.

BENCH_SRCS := $(wildcard bench/bench_*.cpp)
BENCH_BINS := $(patsubst bench/%.cpp,$(B)/bench/%,$(BENCH_SRCS))
BENCH_KIT_SRCS := $(wildcard bench/common/*.cpp) $(wildcard bench/kernels/*.cpp)
BENCH_KIT_OBJS := $(patsubst %.cpp,$(B)/obj/%.o,$(BENCH_KIT_SRCS))
BENCH_KIT := $(B)/obj/bench/libbenchkit.a
BENCH_INC := -Ibench/common -Ibench/kernels $(PERF_INC)
BENCH_FLAGS := -fopenmp -falign-loops=64
BENCH_LIBS := $(BENCH_KIT) $(LIB_A) $(PERF_OBJ) $(PERF_LIBS) -ltbb -lgomp $(LIBS_CORE)

$(B)/obj/bench/%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) $(BENCH_INC)
$(B)/obj/bench/%.o: LAYER_CFLAGS := $(BENCH_FLAGS)

$(BENCH_KIT): $(BENCH_KIT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(B)/bench/%: bench/%.cpp $(BENCH_KIT) $(PERF_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) $(BENCH_INC) $(ALL_CXXFLAGS) $(BENCH_FLAGS) -o $@ $< \
	  $(ALL_LDFLAGS) -fopenmp $(BENCH_LIBS)

.PHONY: bench-build bench-run
bench-build: $(BENCH_BINS)

-include $(sort $(wildcard bench/mk/*.mk))

bench-run: bench-build $(BENCH_RUNS)
	@echo "make bench: done; figures are in build/release/bench-results/"

# The harness's statistics (tests/bench/test_bench_stats.cpp): a check of
# the release variant of `make test`, linked with the three objects it
# tests (not the whole kit: its kernels are most of the bench's compile).
BENCH_STATS_TEST := $(B)/tests/bench/test_bench_stats
BENCH_STATS_OBJS := $(patsubst %,$(B)/obj/bench/common/%.o,harness report output)
$(BENCH_STATS_TEST): tests/bench/test_bench_stats.cpp $(BENCH_STATS_OBJS) $(PERF_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) $(INC_PUBLIC) $(BENCH_INC) $(ALL_CXXFLAGS) -o $@ $< \
	  $(BENCH_STATS_OBJS) $(ALL_LDFLAGS) $(LIB_A) $(PERF_OBJ) $(PERF_LIBS) -lcmocka $(LIBS_CORE)

.PHONY: check-bench-stats
check-bench-stats: $(BENCH_STATS_TEST)
	$(BENCH_STATS_TEST)
CHECKS += check-bench-stats
