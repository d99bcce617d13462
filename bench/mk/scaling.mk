# bench/mk/scaling.mk: the headline benchmarks (core loops, the three
# scheduler tables, the STL algorithms, the isosurface extraction) at
# P = 1, 2, 4, ... workers up to the machine's CPUs, in one command
# (bench/scripts/scaling.py); docs/benchmarks.md says what to look for.
#   make bench-scaling   short sizes: a few minutes per worker count
# Results: $(B)/bench-results/scaling/scaling.{csv,md,png},
#          scaling_steals.csv (steal round trip, steals per split), raw/
# SCALING_WORKERS (default: 1,2,4,... and the CPU count; counts above the
# CPUs are run and marked oversubscribed), SCALING_SIZE (short|full: the
# binaries' --quick sizes or their defaults), SCALING_REPS (timed rounds;
# empty: the binaries' own), SCALING_SUITES (a subset of core,sched,stl,iso),
# SCALING_STL_ARGS (more bench_stl options, e.g. --algos sort,reduce).
# Not part of `make bench` (BENCH_RUNS).

.PHONY: bench-scaling
SCALING_WORKERS ?=
SCALING_SIZE ?= short
SCALING_REPS ?=
SCALING_SUITES ?= core,sched,stl,iso
SCALING_STL_ARGS ?=

# The isosurface binary's path is spelled out: apps/isosurface/module.mk is
# included after bench/module.mk.
bench-scaling: $(B)/bench/bench_core $(B)/bench/bench_sched $(B)/bench/bench_stl \
               $(B)/apps/isosurface/adapt-isosurface
	@mkdir -p $(B)/bench-results/scaling
	/usr/bin/python3 bench/scripts/scaling.py --bin $(B) --out $(B)/bench-results/scaling \
	  --size $(SCALING_SIZE) --suites $(SCALING_SUITES) \
	  $(if $(SCALING_WORKERS),--workers $(SCALING_WORKERS)) \
	  $(if $(SCALING_REPS),--reps $(SCALING_REPS)) \
	  $(if $(SCALING_STL_ARGS),--stl-args "$(SCALING_STL_ARGS)")
