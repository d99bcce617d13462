# tests/fault: fault injection (docs/reliability.md). One driver (harness
# fault_driver.c, cases fault_runtime.c and fault_algos.c), linked
# with the allocation functions, pthread_create and the thieves' membarrier
# wrapped by the linker (--wrap; fault_inject.c), runs every public entry
# point with its k-th allocation failing (k = 1..50, once and from k on),
# adapt_init with its k-th worker thread failing to start, and spawned tasks
# with the thieves' membarrier failing. It is a test of every variant
# (EXTRA_TESTS): in asan, LeakSanitizer checks at exit what the driver's
# own count of live blocks does not see.

FAULT_BIN := $(B)/tests/fault/fault_driver
FAULT_OBJS := $(addprefix $(B)/obj/tests/fault/,fault_driver.o fault_runtime.o fault_algos.o \
  fault_inject.o)
FAULT_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign \
  -Wl,--wrap=aligned_alloc,--wrap=strdup,--wrap=free,--wrap=pthread_create \
  -Wl,--wrap=adapt__membarrier

$(B)/obj/tests/fault/%.o: LAYER_CPPFLAGS := $(INC_PUBLIC) -Itests/common

$(FAULT_BIN): $(FAULT_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(FAULT_OBJS) $(LIB_A) $(ALL_LDFLAGS) $(FAULT_WRAP) -lcmocka $(LIBS_CORE)

# `make fault` also writes its summary as $(B)/fault-results/fault_$(VARIANT).csv
# (scripts/fault_csv.py), which `make docs-figures` copies to docs/figures/
# for the table of docs/reliability.md.
.PHONY: fault
fault: $(FAULT_BIN)
	@mkdir -p $(B)/fault-results
	@ADAPT_TEST_VARIANT=$(VARIANT) $(FAULT_BIN) >$(B)/fault-results/fault.log 2>&1; rc=$$?; \
	cat $(B)/fault-results/fault.log; [ $$rc = 0 ] || exit $$rc
	@python3 scripts/fault_csv.py $(VARIANT) <$(B)/fault-results/fault.log \
	  >$(B)/fault-results/fault_$(VARIANT).csv && echo "fault: $(B)/fault-results/fault_$(VARIANT).csv"

EXTRA_TESTS += $(FAULT_BIN)
