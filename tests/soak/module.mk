# tests/soak: the soak test (docs/reliability.md).
#   make soak [MINUTES=2] [SOAK_SEED=n]   random regions for MINUTES minutes,
#                                         nice -n 10, this variant; its figures
#                                         as a CSV in $(B)/reliability-results/soak.csv
#                                         (`make docs-figures`: docs/reliability.md)
# `make test` runs the same program without arguments in every variant
# (EXTRA_TESTS): a fixed seed and a fixed number of top-level regions (3000 in
# release, 2000 with smaller sizes under the sanitizers). Both check the
# process's threads and file descriptors (and in release its resident
# memory) between cycles against those after the first tenth of the run
# (soak_resources.c).

SOAK_BIN := $(B)/tests/soak/soak
MINUTES ?= 2
SOAK_SEED ?=

$(B)/obj/tests/soak/%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) -Itests/common

$(SOAK_BIN): $(B)/obj/tests/soak/soak.o $(B)/obj/tests/soak/soak_resources.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o,$^) $(LIB_A) $(ALL_LDFLAGS) $(LIBS_CORE)

.PHONY: soak
soak: $(SOAK_BIN)
	@mkdir -p $(B)/reliability-results
	ADAPT_TEST_VARIANT=$(VARIANT) nice -n 10 $(SOAK_BIN) --minutes $(MINUTES) \
	  $(if $(SOAK_SEED),--seed $(SOAK_SEED)) | tee $(B)/reliability-results/soak.log; \
	rc=$$(grep -c 'FAILED\|failures [1-9]' $(B)/reliability-results/soak.log); \
	python3 scripts/reliability_csv.py soak <$(B)/reliability-results/soak.log \
	  >$(B)/reliability-results/soak.csv && [ $$rc = 0 ]

EXTRA_TESTS += $(SOAK_BIN)
