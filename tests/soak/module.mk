# tests/soak: the soak test (docs/reliability.md).
#   make soak [MINUTES=2] [SOAK_SEED=n]   the mixed workload for MINUTES minutes,
#                                         nice -n 10, this variant; its figures
#                                         as a CSV in $(B)/reliability-results/soak.csv
#                                         (`make docs-figures`: docs/reliability.md)
# `make test` runs the same program without arguments in every variant
# (EXTRA_TESTS): a fixed seed and a fixed number of top-level jobs (1000 in
# release, 400 with smaller sizes under the sanitizers). The C parts see the
# public C headers, soak_stl.cpp <adapt/stl.hpp> too, soak_iso.cpp
# <adapt/iso.hpp> (libadapt-iso.a, built for test_iso_api anyway). Both check the
# process's threads and file descriptors (and in release its resident
# memory) between cycles against those after the first tenth of the run
# (soak_resources.c).

SOAK_BIN := $(B)/tests/soak/soak
MINUTES ?= 2
SOAK_SEED ?=

SOAK_OBJS := $(patsubst %,$(B)/obj/tests/soak/%.o,soak soak_util soak_regions soak_algo \
               soak_resources soak_stl soak_iso)

$(B)/obj/tests/soak/%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) -Itests/common
$(B)/obj/tests/soak/soak_stl.o: LAYER_CPPFLAGS += $(INC_STL)
$(B)/obj/tests/soak/soak_iso.o: LAYER_CPPFLAGS += -I$(ISO_CORE)/include

$(SOAK_BIN): $(SOAK_OBJS) $(ISO_LIB_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $(SOAK_OBJS) $(ISO_LIB_A) $(LIB_A) $(ALL_LDFLAGS) $(LIBS_CORE)

.PHONY: soak
soak: $(SOAK_BIN)
	@mkdir -p $(B)/reliability-results
	ADAPT_TEST_VARIANT=$(VARIANT) nice -n 10 $(SOAK_BIN) --minutes $(MINUTES) \
	  $(if $(SOAK_SEED),--seed $(SOAK_SEED)) | tee $(B)/reliability-results/soak.log; \
	rc=$$(grep -c 'FAILED\|failures [1-9]' $(B)/reliability-results/soak.log); \
	python3 scripts/reliability_csv.py soak <$(B)/reliability-results/soak.log \
	  >$(B)/reliability-results/soak.csv && [ $$rc = 0 ]

EXTRA_TESTS += $(SOAK_BIN)
