/* Soak test (docs/reliability.md): a mixed workload from 8 threads at
 * once, in random runtime configurations started and stopped again and
 * again, each result checked exactly.
 *
 *   soak                      fixed seed, a fixed number of jobs (make test)
 *   soak --minutes M          random seed, M minutes (make soak MINUTES=M)
 *   soak --seconds S | --regions N | --seed X | --quiet
 *
 * A cycle starts the runtime (1-8 workers, random binding, victim policy,
 * steal order, spin and steal timeout; sometimes lazily), runs random jobs
 * on 8 threads at once (this one and 7 it starts and joins), reads the
 * statistics and stops it. A job is one of:
 * - a C region (soak_regions.c, soak_algo.c): adapt_for under a random
 *   scheduler and grain, one in 4 cancelling itself; a tree of spawned
 *   tasks; a sequence algorithm of <adapt/algorithms.h>; a user task of the
 *   adaptive API with a non-commutative reducer, preempting or joining its
 *   thieves; a kernel of the public engine, one in 4 stopping itself;
 *   bodies, callbacks and reducers start nested regions (two levels deep),
 *   some on a thread that the body creates and joins; one job in 16 of
 *   these starts 1-3 foreign threads running regions beside its own;
 * - a <adapt/stl.hpp> call (soak_stl.cpp), whose element function throws,
 *   cancels the policy's token or calls adapt_cancel one time in 4;
 * - an isosurface extraction of a generated mesh (soak_iso.cpp), compared
 *   with the sequential extraction.
 * Checks: every index runs exactly once (at most once once a call is
 * cancelled or stopped, or past find_if's answer), outputs equal the
 * sequential definition, reductions happen in sequence order, every call
 * returns 0 or the documented code, exceptions reach the caller, what a
 * body may ask of the runtime answers as documented, no worker thread is
 * left after adapt_finalize, and the process does not grow (resident
 * memory, threads, file descriptors: soak_resources.h).
 *
 * Kept away from (see docs/reliability.md): foreign threads still running
 * at adapt_finalize, grains above 2048, preemption before the owner's range
 * is done, scopes used by other threads (test_reliability covers them). */
#include <adapt/adapt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "soak.h"
#include "soak_c.h"
#include "soak_resources.h"
#include "worker_threads.h"

enum {
  MAX_WORKERS = 8,
  CLIENTS = 8,         /* threads running jobs at once */
  JOBS_PER_CLIENT = 13 /* at most, per cycle */
};

static unsigned long long c_steals, c_preempt, c_reduce; /* main thread only */

/* --- Foreign threads, jobs, clients ---------------------------------------- */

/* A thread of this program that runs step(&r) `steps` times. */
typedef struct runner {
  pthread_t t;
  rng r;
  int steps;
  void (*step)(rng *r);
} runner;

static void *runner_main(void *p) {
  runner *u = p;
  for (int i = 0; i < u->steps; i++) u->step(&u->r);
  return NULL;
}

/* One top-level C region. */
static void top_region(rng *r) {
  soak_count(SOAK_TOP, 1);
  soak_region(r, 0);
}

/* 1-3 threads of this program run regions while this one runs its own;
 * all are joined before returning (never across adapt_finalize). */
static void with_foreign_threads(rng *r) {
  runner f[3];
  int nf = 1 + (int)rnd(r, 3), started = 0;
  for (int i = 0; i < nf; i++) {
    f[i].r.s = next(r);
    f[i].steps = 1 + (int)rnd(r, 4);
    f[i].step = top_region;
    if (pthread_create(&f[i].t, NULL, runner_main, &f[i]) != 0) break;
    started++;
    soak_count(SOAK_FOREIGN, 1);
  }
  int mine = 1 + (int)rnd(r, 3);
  for (int i = 0; i < mine; i++) top_region(r);
  for (int i = 0; i < started; i++) pthread_join(f[i].t, NULL);
}

/* One top-level job: a C region (3 in 5; one in 16 of them with foreign
 * threads), a <adapt/stl.hpp> call (1 in 5), an isosurface (1 in 5). */
static void job(rng *r) {
  size_t k = rnd(r, 5);
  if (k < 3 && rnd(r, 16) == 0) {
    with_foreign_threads(r);
    return;
  }
  if (k < 3) {
    top_region(r);
    return;
  }
  soak_count(SOAK_TOP, 1);
  if (k == 3)
    soak_stl_job(r);
  else
    soak_iso_job(r);
}

/* CLIENTS threads run 1-JOBS_PER_CLIENT jobs each: this one and CLIENTS - 1
 * that it starts and joins. */
static void run_clients(rng *r) {
  runner c[CLIENTS];
  int started = 0;
  for (int i = 0; i < CLIENTS; i++) {
    c[i].r.s = next(r);
    c[i].steps = 1 + (int)rnd(r, JOBS_PER_CLIENT);
    c[i].step = job;
  }
  for (int i = 1; i < CLIENTS; i++, started++)
    if (pthread_create(&c[i].t, NULL, runner_main, &c[i]) != 0) {
      soak_failf("pthread_create of a client thread failed");
      break;
    }
  runner_main(&c[0]);
  for (int i = 1; i <= started; i++) pthread_join(c[i].t, NULL);
}

/* Threads named adapt-worker once the joined ones have left /proc (gives
 * up after 10 s). */
static int worker_threads(void) { return adapt_test_worker_threads_settled(10000); }

/* Start the runtime at random (or leave it to start lazily), run the
 * clients, add up the statistics, stop it, check no worker is left. */
static void cycle(rng *r) {
  static const unsigned spins[] = {0, 20, 200, 2000};
  static const unsigned timeouts[] = {0, 5, 50, 1000};
  adapt_config cfg = {0};
  cfg.workers = 1 + (int)rnd(r, MAX_WORKERS);
  cfg.bind = rnd(r, 2) ? 1 : -1;
  cfg.victim = (adapt_victim_policy)rnd(r, 3);
  cfg.steal_order = (adapt_steal_order)rnd(r, 3);
  cfg.spin_us = spins[rnd(r, 4)];
  cfg.steal_timeout_us = timeouts[rnd(r, 4)];
  soak_running_cfg = NULL;
  if (rnd(r, 8)) { /* else: started lazily by the first job, defaults */
    int rc = adapt_init(&cfg);
    soak_check_rc("adapt_init", rc);
    if (rc) return;
    soak_running_cfg = &cfg;
  }
  run_clients(r);
  for (int w = 0; w < adapt_num_workers(); w++) {
    adapt_worker_stats st;
    soak_check_rc("adapt_stats_get", adapt_stats_get(w, &st));
    c_steals += st.steals;
    c_preempt += st.preemptions;
    c_reduce += st.reductions;
  }
  adapt_finalize();
  int left = worker_threads();
  if (left) soak_failf("%d worker threads left after adapt_finalize", left);
  soak_count(SOAK_CYCLES, 1);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void report(const char *when, double elapsed) {
  unsigned long stl = soak_get(SOAK_STL), iso = soak_get(SOAK_ISO);
  printf("soak: %s %.0f s: cycles %lu, regions %lu (top-level %lu, nested %lu of which %lu on "
         "a joined thread; foreign threads %lu; stl calls %lu, isosurfaces %lu), "
         "iterations %lu, steals %llu, preemptions %llu, reductions %llu, cancellations %lu, "
         "exceptions %lu, failures %lu\n",
         when, elapsed, soak_get(SOAK_CYCLES), soak_get(SOAK_REGIONS) + stl + iso,
         soak_get(SOAK_TOP), soak_get(SOAK_NESTED), soak_get(SOAK_JOINED), soak_get(SOAK_FOREIGN),
         stl, iso, soak_get(SOAK_ITERS), c_steals, c_preempt, c_reduce, soak_get(SOAK_CANCELS),
         soak_get(SOAK_EXCEPTIONS), soak_get(SOAK_FAILURES));
  fflush(stdout);
}

typedef struct options {
  double seconds;
  unsigned long max_jobs, seed;
  int quiet;
} options;

/* The command line into *o; 0, or -1 (usage printed). */
static int parse(int argc, char **argv, options *o) {
  int seeded = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--minutes") && v) {
      o->seconds = 60 * atof(v), i++;
    } else if (!strcmp(argv[i], "--seconds") && v) {
      o->seconds = atof(v), i++;
    } else if (!strcmp(argv[i], "--regions") && v) {
      o->max_jobs = strtoul(v, NULL, 10), i++;
    } else if (!strcmp(argv[i], "--seed") && v) {
      o->seed = strtoul(v, NULL, 10), seeded = 1, i++;
    } else if (!strcmp(argv[i], "--quiet")) {
      o->quiet = 1;
    } else {
      fprintf(stderr, "usage: %s [--minutes M | --seconds S | --regions N] [--seed X] [--quiet]\n",
              argv[0]);
      return -1;
    }
  }
  if (o->seconds > 0) {
    o->max_jobs = 0; /* the duration decides */
    if (!seeded) o->seed = (unsigned long)time(NULL);
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *variant = getenv("ADAPT_TEST_VARIANT");
  int sanitized = variant && strcmp(variant, "release") != 0;
  /* Memory as users see it: glibc's default allocator settings, as
   * test_dist.sh does. scripts/run_test.sh raises glibc's trim and mmap
   * thresholds for the test programs (GLIBC_TUNABLES, read at start-up);
   * with them the arenas of the 8 client threads keep what they free,
   * which reads as growth (1000 jobs: 53 MiB -> 150 MiB, against 14 -> 30
   * without). Run again without them; on failure, go on with them. */
  if (!sanitized && getenv("GLIBC_TUNABLES")) {
    unsetenv("GLIBC_TUNABLES");
    execv("/proc/self/exe", argv);
  }
  options o = {0, sanitized ? 400 : 1000, 1, 0};
  if (parse(argc, argv, &o)) return 2;
  if (sanitized) soak_size_cap >>= 3;
  rng r = {o.seed};
  printf("soak: seed %lu, %s %.0f, %d threads, 1-%d workers, sizes up to %zu (reproduce: --seed "
         "%lu)\n",
         o.seed, o.seconds > 0 ? "seconds" : "jobs", o.seconds > 0 ? o.seconds : (double)o.max_jobs,
         CLIENTS, MAX_WORKERS, soak_size_cap, o.seed);
  fflush(stdout);
  double t0 = now_s(), next_report = 60;
  /* The resources between cycles (no runtime) against those after the
   * first tenth of the run (allocators and libraries warmed up). */
  soak_resources base = {-1, -1, -1}, cur;
  int have_base = 0, grew = 0;
  for (;;) {
    double el = now_s() - t0;
    if (o.seconds > 0 ? el >= o.seconds : soak_get(SOAK_TOP) >= o.max_jobs) break;
    if (!have_base &&
        (o.seconds > 0 ? el >= o.seconds / 10 : soak_get(SOAK_TOP) >= o.max_jobs / 10)) {
      soak_resources_sample(&base);
      have_base = 1;
    }
    if (!o.quiet && el >= next_report) {
      report("after", el);
      if (have_base) {
        soak_resources_sample(&cur);
        grew |= soak_resources_check(&base, &cur, !sanitized);
      }
      next_report += 60;
    }
    cycle(&r);
  }
  report("done in", now_s() - t0);
  if (have_base) {
    soak_resources_sample(&cur);
    grew |= soak_resources_check(&base, &cur, !sanitized);
  }
  return soak_get(SOAK_FAILURES) || grew ? 1 : 0;
}
