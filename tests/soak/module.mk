# tests/soak: the soak test (docs/reliability.md).
#   make soak [MINUTES=2] [SOAK_SEED=n]   random regions for MINUTES minutes,
#                                         nice -n 10, this variant
# `make test` runs the same program without arguments in every variant
# (EXTRA_TESTS): a fixed seed and a fixed number of top-level regions (3000 in
# release, 2000 with smaller sizes under the sanitizers).

SOAK_BIN := $(B)/tests/soak/soak
MINUTES ?= 2
SOAK_SEED ?=

$(B)/obj/tests/soak/%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) -Itests/common

$(SOAK_BIN): $(B)/obj/tests/soak/soak.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LIBS_CORE)

.PHONY: soak
soak: $(SOAK_BIN)
	ADAPT_TEST_VARIANT=$(VARIANT) nice -n 10 $(SOAK_BIN) --minutes $(MINUTES) \
	  $(if $(SOAK_SEED),--seed $(SOAK_SEED))

EXTRA_TESTS += $(SOAK_BIN)
