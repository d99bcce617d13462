# perfcounters/: hardware performance counters through PAPI, a component
# below the isosurface app and the benchmarks (both link it; it uses neither
# libadapt nor them). Users: PERF_INC in their include path, PERF_OBJ and
# PERF_LIBS on their link line. Its test: tests/perfcounters/.

PERF_INC  := -Iperfcounters
PERF_OBJ  := $(B)/obj/perfcounters/perfcounters.o
PERF_LIBS := -lpapi
PERF_TEST := $(B)/tests/perfcounters/test_perfcounters

$(PERF_TEST): tests/perfcounters/test_perfcounters.c $(PERF_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(PERF_INC) $(ALL_CFLAGS) -o $@ $< $(PERF_OBJ) $(ALL_LDFLAGS) -lcmocka $(PERF_LIBS)

EXTRA_TESTS += $(PERF_TEST)
