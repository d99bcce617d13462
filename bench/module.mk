# bench/: every bench/bench_*.c or bench/bench_*.cpp is one benchmark binary,
# linked with libadapt, OpenMP, TBB (peers in the same binary), the
# perfcounters component (PAPI) and the helpers in bench/common/. Each bench/mk/*.mk fragment adds the
# phony targets that run its benchmarks to BENCH_RUNS, in the order
# `make bench` runs them.

BENCH_C_SRCS   := $(wildcard bench/bench_*.c)
BENCH_CXX_SRCS := $(wildcard bench/bench_*.cpp)
BENCH_COMMON_C := $(wildcard bench/common/*.c)
BENCH_COMMON_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(BENCH_COMMON_C)) $(PERF_OBJ)
BENCH_BINS := $(patsubst bench/%.c,$(B)/bench/%,$(BENCH_C_SRCS)) \
              $(patsubst bench/%.cpp,$(B)/bench/%,$(BENCH_CXX_SRCS))
BENCH_LIBS := $(LIB_A) $(PERF_LIBS) -ltbb -lgomp $(LIBS_CORE)

$(B)/bench/%: bench/%.c $(BENCH_COMMON_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Ibench/common $(PERF_INC) $(ALL_CFLAGS) -fopenmp -o $@ $< $(BENCH_COMMON_OBJS) $(ALL_LDFLAGS) -fopenmp $(BENCH_LIBS)

$(B)/bench/%: bench/%.cpp $(BENCH_COMMON_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) -Ibench/common $(PERF_INC) $(ALL_CXXFLAGS) -fopenmp -o $@ $< $(BENCH_COMMON_OBJS) $(ALL_LDFLAGS) -fopenmp $(BENCH_LIBS)

.PHONY: bench-build bench-run
bench-build: $(BENCH_BINS)

-include $(sort $(wildcard bench/mk/*.mk))

bench-run: bench-build $(BENCH_RUNS)
	@echo "make bench: done; figures are in build/release/bench-results/"
