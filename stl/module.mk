# stl/: the C++17 front end <adapt/stl.hpp> (header-only, above the
# algorithms layer: it sees the public headers only); its test is
# tests/stl/test_stl.cpp (with tests/stl/test_stl_use.cpp; the algorithms of
# <adapt/stl/algorithms.hpp>: tests/stl/test_stl_algos.cpp and
# test_stl_algos_more.cpp; adapt::ranges, C++20: test_stl_ranges.cpp and
# test_stl_ranges_more.cpp).
#
#   make VARIANT=release build/release/tests/stl/test_stl   (also tsan, asan)
#
# The tests run in `make test` (EXTRA_TESTS) in every variant (the ranges
# parts of test_stl_algos in release and asan: below); the headers
# are installed with the library (packaging/module.mk, STL_PUBLIC_HEADERS).

STL_DIR  := stl
INC_STL  := -I$(STL_DIR)/include
STL_TEST := $(B)/tests/stl/test_stl
STL_ALGOS_TEST := $(B)/tests/stl/test_stl_algos

$(B)/obj/tests/stl/%.o: CPPFLAGS_ALL += $(INC_STL)
# The headers are installed for -I, not as system headers: the second
# source of the test keeps them clean under a user's strict warnings.
$(B)/obj/tests/stl/test_stl_use.o: LAYER_CFLAGS := -Wpedantic -Wshadow -Wconversion \
  -Wsign-conversion -Werror

# adapt::ranges (C++20) is tested by a third source of test_stl_algos,
# compiled as C++20 and, like test_stl_use.o, under a user's strict
# warnings.
$(B)/obj/tests/stl/test_stl_ranges.o $(B)/obj/tests/stl/test_stl_ranges_more.o: LAYER_CFLAGS := -std=c++20 -Wpedantic -Wshadow -Wconversion \
  -Wsign-conversion -Werror

# Under ASan+UBSan these template-heavy tests leave out five UBSan checks,
# and all but test_stl.cpp compile at -O0. -O0: the instrumented compile of
# the algorithms' instantiations is most of their cost, and ASan checks
# every access at -O0 (none is optimized away). CPU, -O1 against -O0:
# test_stl_algos.cpp 25 s against 9 (its run 4.5 s against 8: a net 12 s),
# test_stl_use.cpp 17 s against 8 (test_stl's run 8.1-8.5 s against
# 8.8-9.9). Not test_stl.cpp: its run, dominated by the algorithms, takes
# 36-39 s of CPU at -O0 against 11-12 s at -O1, more than the compile saves
# (about 20 s). The checks left out are 40% of test_stl.cpp's compile (75 s
# of CPU with them, 45 s without null and alignment) and ASan covers them
# here: object-size (ASan sees every out-of-bounds access),
# pointer-overflow (arithmetic wrapping the address space: ASan reports any
# access it leads to), null (a null dereference faults, and ASan reports
# the fault with its stack; the checks of a reference or `this` bound to
# null are left to the C sources and the isosurface, which keep them),
# alignment (the headers take their buffers from allocators and std
# containers, aligned for their type; x86 would not fault), vptr (the one
# polymorphic type, task_group's task_base, is never cast; a call on a dead
# one is ASan's). TSan keeps -O1 (its runs at -O0 take twice as long), the
# release variant -O1 (below), the C sources and the isosurface full UBSan.
ifeq ($(VARIANT),asan)
$(B)/obj/tests/stl/%.o: private OBJ_FLAGS += -fno-sanitize=vptr,object-size,pointer-overflow,null,alignment
$(patsubst %,$(B)/obj/tests/stl/%.o,test_stl_use test_stl_algos test_stl_algos_more \
  test_stl_ranges test_stl_ranges_more): \
  private OBJ_FLAGS += -O0
endif

# In the release variant the STL test objects compile at -O1: most of
# their compile is the optimizer on the algorithms' instantiations (CPU,
# -O1 against -O2: test_stl.cpp 22 s against 33-35 s, test_stl_use.cpp 12
# against 15, test_stl_algos_more.cpp 16 against 23-24, test_stl_ranges_more
# 17 against 23, test_stl_algos 5 against 9, test_stl_ranges 7 against 8),
# and the programs' runs are not slower (test_stl: 14.0-14.2 s of CPU
# against 14.8-14.9 s, same seed: their time is the runtime's and the
# sequential std code's). The benches and apps that use the headers, and
# the soak's STL part, keep -O2: the headers are still compiled as users
# compile them.
ifeq ($(VARIANT),release)
$(B)/obj/tests/stl/%.o: private OBJ_FLAGS += -O1
endif

STL_TEST_OBJS := $(B)/obj/tests/stl/test_stl.o $(B)/obj/tests/stl/test_stl_use.o

$(STL_TEST): $(STL_TEST_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(STL_TEST_OBJS) $(LIB_A) $(LIBS_CORE)

# Four translation units (tests/stl/algos_test.h: their shared helpers),
# compiled in parallel under make -j. ThreadSanitizer leaves out the two
# adapt::ranges sources (-DALGOS_TEST_NO_RANGES drops their parts): the
# ranges overloads add no concurrency to what it checks in the other
# parts. Each calls the policy-first algorithm these run, its callables
# wrapped in lambdas that hold references and write nothing (detail::on1,
# on2), or std::ranges' sequential algorithm; what the wrappers get right
# (projections, sentinels, results) is a question of results, which the
# release and asan variants check. Their TSan compile was 21-23 s of CPU,
# their TSan run 2.3 s.
ifeq ($(VARIANT),tsan)
STL_RANGES_OBJS :=
$(B)/obj/tests/stl/test_stl_algos.o: private OBJ_FLAGS += -DALGOS_TEST_NO_RANGES
else
STL_RANGES_OBJS := $(B)/obj/tests/stl/test_stl_ranges.o $(B)/obj/tests/stl/test_stl_ranges_more.o
endif
$(STL_ALGOS_TEST): $(B)/obj/tests/stl/test_stl_algos.o $(B)/obj/tests/stl/test_stl_algos_more.o \
                   $(STL_RANGES_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE)

# The streaming stores of copy and move (tests/stl/test_stl_stream.cpp):
# compiled with a threshold of one byte, so that they run whatever the
# machine's cache; a program of its own, since the macro changes inline
# functions that the other tests compile with the default. C++20: the
# std::contiguous_iterator ranges (std::span's, std::string's) stream too.
STL_STREAM_TEST := $(B)/tests/stl/test_stl_stream
$(B)/obj/tests/stl/test_stl_stream.o: private OBJ_FLAGS += -DADAPT_STL_STREAM_MIN=1 -std=c++20
$(STL_STREAM_TEST): $(B)/obj/tests/stl/test_stl_stream.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE)

EXTRA_TESTS += $(STL_TEST) $(STL_ALGOS_TEST) $(STL_STREAM_TEST)

.PHONY: stl
stl: $(STL_TEST) $(STL_ALGOS_TEST) $(STL_STREAM_TEST)

# adapt::ranges under clang++ and libstdc++ (scripts/check_clang_ranges.sh,
# docs/stl.md "Compilers"): the forms without a std::ranges::subrange
# compile, those with one exactly when std::ranges' own do. About 4 s of
# CPU, not in CHECKS (make test); clang comes with `scripts/deps.sh fuzz`.
.PHONY: check-clang-ranges
check-clang-ranges:
	@bash scripts/check_clang_ranges.sh $(CLANGXX)
