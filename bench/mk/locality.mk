# bench/mk/locality.mk: the window modes of adapt-isosurface at P = 1, 2, 4,
# ... up to the machine's cores, with the shared-cache misses the PMU counts
# (PAPI, where one exists), the reuse-distance model's prediction beside
# them, and valgrind's simulated cache where no PMU exists; then the model
# alone (locality_map) for the regime map and the window-size sweep;
# docs/locality.md.
#   make bench-locality   CSV, PNG and a Markdown table in
#                         $(B)/bench-results/locality/
# Variables (environment, see bench/scripts/locality.sh): LOCALITY_ARGS (the
# measured mesh; default --generate 128x128x16 --field sphere, ~10 minutes
# on a loaded 2-core VM; on a 16-core machine with counters try
# "--generate 256x256x64 --field sphere"), LOCALITY_EVENTS, LOCALITY_REPS,
# LOCALITY_SIM_MAX_P, LOCALITY_MAP_MESH, LOCALITY_MAP_CACHES, LOCALITY_MODEL_P.
# Not part of `make bench` (it needs VTK for the app): run it on its own.

# Their sources are apps/isosurface/tools/, on the extraction core
# (apps/isosurface/core/: no VTK, its objects ISO_CORE_OBJS);
# apps/isosurface/module.mk (included before bench's) gives the tools'
# objects their include paths.
LOC_MAP     := $(B)/apps/isosurface/locality_map
LOC_MAP_OBJ := $(B)/obj/apps/isosurface/tools/locality_map.o
LOC_MAP_DEPS := $(ISO_CORE_OBJS)

$(LOC_MAP): $(LOC_MAP_OBJ) $(LOC_MAP_DEPS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -lz -lm

# locality_sim: the model's `scalars` kernel run for real (simulator, time).
LOC_SIM     := $(B)/apps/isosurface/locality_sim
LOC_SIM_OBJ := $(B)/obj/apps/isosurface/tools/locality_sim.o
$(LOC_SIM): $(LOC_SIM_OBJ) $(LOC_MAP_DEPS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -lz -lm

.PHONY: bench-locality locality-map
locality-map: $(LOC_MAP) $(LOC_SIM)
# Built by `make test`'s checks, so that a link that breaks shows in CI
# (they once lacked arena.o, unnoticed: nothing else built them).
CHECKS += locality-map

bench-locality:
	$(MAKE) --no-print-directory B=$(B) VARIANT=$(VARIANT) isosurface $(LOC_MAP) $(LOC_SIM)
	bash bench/scripts/locality.sh $(B)/apps/isosurface/adapt-isosurface $(B)/bench-results/locality \
	  $(LOC_MAP)
