/* bench_window: the window algorithms of the paper (no-window, static-window,
 * sliding-window with its three splitters) against the sequential loop and
 * the PThread baselines of its §2.4, on 2 workers, in one run; plus the
 * per-element overhead of adapt_for_each / adapt_transform against the plain
 * loop. docs/benchmarks-window.md explains the figures.
 *
 * Kernel (memory-bound, long reuse distance): B[i] = A[i] + 0.5 * A[i - R].
 * Between the two reads of A[j] (iterations j and j + R) the sequential run
 * touches R elements of A and R of B: a reuse distance of 16 R bytes, set to
 * --reuse (default 5/8 of the shared cache, between cache/P and cache for
 * P = 2). Sequentially the second read hits the shared cache; two workers
 * far apart double the distance and miss; workers kept within m elements
 * add only 16 m bytes.
 *
 * Usage: bench_window [--out DIR] [--n ELEMS] [--reps K] [--reuse BYTES]
 *                     [--section overhead|window|scan|all]
 * PAPI counters come from bench/common/perfcounters.h (ADAPT_PAPI_EVENTS);
 * without a usable PMU the timings still run and the reason is printed. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <adapt/algorithms.h>

#include "perfcounters.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#endif
#endif
#ifndef HAVE_CALLGRIND
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#endif

#define MAX_VARIANTS 64
#define MAX_REPS 64

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *v, int n) {
  double t[MAX_REPS];
  memcpy(t, v, (size_t)n * sizeof *t);
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* ------------------------------------------------------------------------ */
/* The kernel                                                               */

typedef struct kern {
  const double *a;
  double *b;
  size_t n, r;
} kern;

static inline void kernel_range(const kern *k, size_t i0, size_t i1) {
  const double *a = k->a;
  double *b = k->b;
  size_t r = k->r;
  for (size_t i = i0; i < i1; i++) b[i] = a[i] + 0.5 * a[i >= r ? i - r : i];
}

static void kernel_tr_range(const void *in_first, void *out_first, size_t n, void *ctx) {
  const kern *k = ctx;
  (void)out_first;
  size_t i0 = (size_t)((const double *)in_first - k->a);
  kernel_range(k, i0, i0 + n);
}

/* ------------------------------------------------------------------------ */
/* PThread baselines (paper §2.4): P threads bound to the first P CPUs;
 * no-window: static partition in P groups and a barrier at the end;
 * static-window: chunks of m, each cut in P groups, a barrier per chunk.  */

typedef struct pool {
  int p;
  pthread_t th[64];
  pthread_barrier_t start, end, chunk;
  const kern *k;
  size_t m; /* 0: no-window */
  int quit;
} pool;

static void pool_part(pool *pl, int id) {
  const kern *k = pl->k;
  size_t n = k->n, p = (size_t)pl->p;
  if (pl->m == 0) {
    size_t b = n * (size_t)id / p, e = n * (size_t)(id + 1) / p;
    kernel_range(k, b, e);
    return;
  }
  for (size_t c = 0; c < n; c += pl->m) {
    size_t len = n - c < pl->m ? n - c : pl->m;
    kernel_range(k, c + len * (size_t)id / p, c + len * (size_t)(id + 1) / p);
    pthread_barrier_wait(&pl->chunk);
  }
}

/* The PU of thread id: the one adapt's worker id is bound to, so both
 * implementations use the same cores (the calling thread is already bound
 * by the runtime: its affinity mask cannot be used to list the CPUs). */
static int cpu_of(int id) {
  int pu = adapt_worker_pu(id);
  return pu >= 0 ? pu : id;
}

static void bind_self(int id) {
  int c = cpu_of(id);
  if (c < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(c, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
}

typedef struct pool_arg {
  pool *pl;
  int id;
} pool_arg;

static void *pool_main(void *v) {
  pool_arg *a = v;
  pool *pl = a->pl;
  int id = a->id;
  free(a);
  bind_self(id);
  for (;;) {
    pthread_barrier_wait(&pl->start);
    if (pl->quit) return NULL;
    pool_part(pl, id);
    pthread_barrier_wait(&pl->end);
  }
}

static int pool_init(pool *pl, int p) {
  memset(pl, 0, sizeof *pl);
  pl->p = p;
  if (pthread_barrier_init(&pl->start, NULL, (unsigned)p) ||
      pthread_barrier_init(&pl->end, NULL, (unsigned)p) ||
      pthread_barrier_init(&pl->chunk, NULL, (unsigned)p))
    return -1;
  for (int i = 1; i < p; i++) {
    pool_arg *a = malloc(sizeof *a);
    if (!a) return -1;
    a->pl = pl;
    a->id = i;
    if (pthread_create(&pl->th[i], NULL, pool_main, a)) return -1;
  }
  return 0;
}

/* Run one pass with the calling thread as thread 0 (bound during the pass). */
static void pool_run(pool *pl, const kern *k, size_t m) {
  cpu_set_t saved;
  sched_getaffinity(0, sizeof saved, &saved);
  bind_self(0);
  pl->k = k;
  pl->m = m;
  pthread_barrier_wait(&pl->start);
  pool_part(pl, 0);
  pthread_barrier_wait(&pl->end);
  sched_setaffinity(0, sizeof saved, &saved);
}

static void pool_destroy(pool *pl) {
  pl->quit = 1;
  pthread_barrier_wait(&pl->start);
  for (int i = 1; i < pl->p; i++) pthread_join(pl->th[i], NULL);
  pthread_barrier_destroy(&pl->start);
  pthread_barrier_destroy(&pl->end);
  pthread_barrier_destroy(&pl->chunk);
}

/* ------------------------------------------------------------------------ */
/* Variants of the window section                                            */

enum vkind { V_SEQ, V_PT_NONE, V_PT_STATIC, V_AD_NONE, V_AD_STATIC, V_AD_SLIDING };

typedef struct variant {
  enum vkind kind;
  size_t m;
  adapt_window_splitter sp;
  char name[48];
  double t[MAX_REPS];
  double ev[PERFCTR_MAX_EVENTS][MAX_REPS];
  double steals[MAX_REPS];
} variant;

static int run_variant(variant *v, const kern *k, pool *pl, size_t grain) {
  adapt_attr at = {0};
  at.grain = grain;
  switch (v->kind) {
  case V_SEQ: kernel_range(k, 0, k->n); return 0;
  case V_PT_NONE: pool_run(pl, k, 0); return 0;
  case V_PT_STATIC: pool_run(pl, k, v->m); return 0;
  case V_AD_NONE: at.window = ADAPT_WINDOW_NONE; break;
  case V_AD_STATIC:
    at.window = ADAPT_WINDOW_STATIC;
    at.window_size = v->m;
    break;
  case V_AD_SLIDING:
    at.window = ADAPT_WINDOW_SLIDING;
    at.window_size = v->m;
    at.splitter = v->sp;
    break;
  }
  return adapt_transform_range(k->a, k->n, sizeof(double), k->b, sizeof(double), kernel_tr_range,
                               (void *)k, &at);
}

static const char *sp_name(adapt_window_splitter s) {
  return s == ADAPT_SPLITTER_LOCAL ? "local" : s == ADAPT_SPLITTER_DISTANT ? "distant" : "balanced";
}

static int section_window(const char *outdir, size_t n, int reps, size_t reuse, perfctr *pc,
                          int workers) {
  size_t cache = adapt_shared_cache_size();
  size_t r = reuse / 16;
  if (r == 0 || r >= n) {
    fprintf(stderr, "bench_window: --reuse %zu does not fit --n %zu\n", reuse, n);
    return 1;
  }
  kern k = {NULL, NULL, n, r};
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  if (!a || !b) {
    fprintf(stderr, "bench_window: cannot allocate 2 x %zu doubles\n", n);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    a[i] = (double)(i % 1000) * 0.001;
    b[i] = 0.0;
  }
  k.a = a;
  k.b = b;

  static variant vs[MAX_VARIANTS];
  int nv = 0;
  static const size_t ms[] = {1u << 12, 1u << 14, 1u << 16, 1u << 18, 1u << 20, 1u << 21};
  const int nm = (int)(sizeof ms / sizeof *ms);
  vs[nv++] = (variant){.kind = V_SEQ, .name = "sequential"};
  vs[nv++] = (variant){.kind = V_PT_NONE, .name = "pthread no-window"};
  for (int i = 0; i < nm; i++) {
    vs[nv] = (variant){.kind = V_PT_STATIC, .m = ms[i]};
    snprintf(vs[nv++].name, sizeof vs[0].name, "pthread static");
  }
  vs[nv++] = (variant){.kind = V_AD_NONE, .name = "adapt no-window"};
  for (int i = 0; i < nm; i++) {
    vs[nv] = (variant){.kind = V_AD_STATIC, .m = ms[i]};
    snprintf(vs[nv++].name, sizeof vs[0].name, "adapt static");
  }
  static const adapt_window_splitter sps[] = {ADAPT_SPLITTER_BALANCED, ADAPT_SPLITTER_LOCAL,
                                              ADAPT_SPLITTER_DISTANT};
  for (int s = 0; s < 3; s++)
    for (int i = 0; i < nm; i++) {
      if (s > 0 && ms[i] != (1u << 16) && ms[i] != (1u << 20)) continue; /* 2 sizes suffice */
      vs[nv] = (variant){.kind = V_AD_SLIDING, .m = ms[i], .sp = sps[s]};
      snprintf(vs[nv++].name, sizeof vs[0].name, "adapt sliding-%s", sp_name(sps[s]));
    }

  pool pl;
  if (pool_init(&pl, workers)) {
    fprintf(stderr, "bench_window: cannot start %d pthreads\n", workers);
    return 1;
  }
  const size_t grain = 512; /* the same for every adaptive variant (§5.1 calibrates 128) */
  printf("\n== window section: n=%zu doubles (A and B: %.0f MiB each), reuse distance %zu bytes "
         "(%.2f of the shared cache %zu), R=%zu, %d workers, grain %zu, %d reps\n",
         n, (double)n * 8 / (1 << 20), 16 * r, cache ? (double)(16 * r) / (double)cache : 0.0,
         cache, r, workers, grain, reps);
  /* warm-up: page faults out of the measurement */
  run_variant(&vs[0], &k, &pl, grain);
  run_variant(&vs[nv - 1], &k, &pl, grain);

  for (int rep = 0; rep < reps; rep++) {
    /* A/B interleaved; the order rotates each repetition */
    for (int j = 0; j < nv; j++) {
      variant *v = &vs[(j + rep) % nv];
      long long vals[PERFCTR_MAX_EVENTS] = {0};
      adapt_stats_reset();
      if (pc->available) perfctr_start(pc);
      double t0 = now_s();
      int rc = run_variant(v, &k, &pl, grain);
      double t = now_s() - t0;
      if (pc->available) perfctr_stop(pc, vals);
      if (rc) {
        fprintf(stderr, "bench_window: %s failed: %s\n", v->name, adapt_strerror(rc));
        return 1;
      }
      v->t[rep] = t;
      for (int e = 0; e < pc->nevents; e++) v->ev[e][rep] = (double)vals[e];
      double st = 0;
      for (int w = 0; w < workers; w++) {
        adapt_worker_stats s;
        if (adapt_stats_get(w, &s) == 0) st += (double)s.steals;
      }
      v->steals[rep] = st;
    }
  }
  pool_destroy(&pl);

  /* check the result once against the sequential definition */
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += b[i] != a[i] + 0.5 * a[i >= r ? i - r : i];
  if (bad) {
    fprintf(stderr, "bench_window: wrong result in %zu elements\n", bad);
    return 1;
  }

  char path[1024];
  snprintf(path, sizeof path, "%s/window.csv", outdir);
  FILE *csv = fopen(path, "w");
  if (!csv) {
    perror(path);
    return 1;
  }
  const int nev = pc->available ? pc->nevents : 0; /* no columns of zeros */
  fprintf(csv, "variant,m,time_ms,speedup");
  for (int e = 0; e < nev; e++) fprintf(csv, ",%s,%s_ratio", pc->names[e], pc->names[e]);
  fprintf(csv, ",steals\n");
  /* LLC-miss column: the last event (DRAM fills by default) */
  int llc = pc->nevents - 1;
  double seq_t = median(vs[0].t, reps);
  double seq_ev[PERFCTR_MAX_EVENTS];
  for (int e = 0; e < pc->nevents; e++) seq_ev[e] = median(vs[0].ev[e], reps);
  printf("%-28s %9s %9s %8s", "variant", "m", "time ms", "speedup");
  if (pc->available) printf(" %14s %7s", llc >= 0 ? "LLC miss" : "", "ratio");
  printf(" %8s\n", "steals");
  for (int j = 0; j < nv; j++) {
    variant *v = &vs[j];
    double t = median(v->t, reps);
    char mbuf[32] = "-";
    if (v->m) snprintf(mbuf, sizeof mbuf, "%zu", v->m);
    printf("%-28s %9s %9.2f %8.2f", v->name, mbuf, t * 1e3, seq_t / t);
    fprintf(csv, "%s,%zu,%.3f,%.4f", v->name, v->m, t * 1e3, seq_t / t);
    for (int e = 0; e < nev; e++) {
      double x = median(v->ev[e], reps);
      fprintf(csv, ",%.0f,%.4f", x, seq_ev[e] > 0 ? x / seq_ev[e] : 0.0);
    }
    if (pc->available && llc >= 0) {
      double x = median(v->ev[llc], reps);
      printf(" %14.0f %7.3f", x, seq_ev[llc] > 0 ? x / seq_ev[llc] : 0.0);
    }
    double st = median(v->steals, reps);
    printf(" %8.0f\n", st);
    fprintf(csv, ",%.0f\n", st);
  }
  fclose(csv);
  printf("(medians of %d interleaved runs; ratio = LLC misses / sequential; the LLC-miss "
         "column is the event %s)\n",
         reps, pc->available && llc >= 0 ? pc->names[llc] : "(none: no counters)");
  printf("wrote %s\n", path);
  free(a);
  free(b);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Per-element overhead: for_each / transform (per element and range forms)  */
/* against the plain loop, on an array that stays in the caches. The bodies */
/* are noinline: inlined into the timing loop, the compiler may optimise     */
/* the plain loop across passes, which the library calls cannot.            */

__attribute__((noinline)) static void ov_each(void *elem, void *ctx) {
  (void)ctx;
  double *x = elem;
  *x = *x * 0.999 + 0.5;
}
__attribute__((noinline)) static void ov_each_range(void *first, size_t n, void *ctx) {
  (void)ctx;
  double *x = first;
  for (size_t i = 0; i < n; i++) x[i] = x[i] * 0.999 + 0.5;
}
__attribute__((noinline)) static void ov_tr(const void *in, void *out, void *ctx) {
  (void)ctx;
  *(double *)out = *(const double *)in * 0.999 + 0.5;
}
__attribute__((noinline)) static void ov_tr_range(const void *in, void *out, size_t n, void *ctx) {
  (void)ctx;
  const double *x = in;
  double *y = out;
  for (size_t i = 0; i < n; i++) y[i] = x[i] * 0.999 + 0.5;
}

static int section_overhead(const char *outdir, int reps, int workers) {
  const size_t n = 1u << 18; /* 2 MiB per array: in L2+L3 */
  const int passes = 20;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  if (!x || !y) return 1;
  for (size_t i = 0; i < n; i++) x[i] = (double)i;
  const char *names[] = {"plain loop (for_each body)",  "adapt_for_each",  "adapt_for_each_range",
                         "plain loop (transform body)", "adapt_transform", "adapt_transform_range"};
  enum { NV = 6 };
  double t[NV][MAX_REPS];
  for (int rep = 0; rep < reps; rep++)
    for (int j = 0; j < NV; j++) {
      int v = (j + rep) % NV;
      double t0 = now_s();
      for (int p = 0; p < passes; p++) {
        int rc = 0;
        switch (v) {
        case 0: ov_each_range(x, n, NULL); break;
        case 1: rc = adapt_for_each(x, n, sizeof *x, ov_each, NULL, NULL); break;
        case 2: rc = adapt_for_each_range(x, n, sizeof *x, ov_each_range, NULL, NULL); break;
        case 3: ov_tr_range(x, y, n, NULL); break;
        case 4: rc = adapt_transform(x, n, sizeof *x, y, sizeof *y, ov_tr, NULL, NULL); break;
        case 5:
          rc = adapt_transform_range(x, n, sizeof *x, y, sizeof *y, ov_tr_range, NULL, NULL);
          break;
        }
        if (rc) {
          fprintf(stderr, "bench_window: %s: %s\n", names[v], adapt_strerror(rc));
          return 1;
        }
      }
      t[v][rep] = (now_s() - t0) / passes / (double)n * 1e9;
    }
  char path[1024];
  snprintf(path, sizeof path, "%s/window_overhead_w%d.csv", outdir, workers);
  FILE *csv = fopen(path, "w");
  if (!csv) {
    perror(path);
    return 1;
  }
  printf("\n== overhead section: %d worker(s), n=%zu doubles, %d passes per timing, %d reps, "
         "automatic grain\n",
         workers, n, passes, reps);
  printf("%-30s %10s %12s\n", "variant", "ns/elem", "vs plain");
  fprintf(csv, "variant,workers,ns_per_elem,ratio_to_plain\n");
  for (int v = 0; v < NV; v++) {
    double m = median(t[v], reps), base = median(t[v < 3 ? 0 : 3], reps);
    printf("%-30s %10.3f %12.2f\n", names[v], m, m / base);
    fprintf(csv, "%s,%d,%.4f,%.4f\n", names[v], workers, m, m / base);
  }
  fclose(csv);
  printf("wrote %s\n", path);
  free(x);
  free(y);
  return 0;
}

/* Inclusive scan of int64 sums: adapt_inclusive_scan against the sequential
 * prefix calling the same op through a pointer (the library cannot inline
 * it either). */
static void scan_add(const void *prev, const void *elem, void *res, void *ctx) {
  (void)ctx;
  *(int64_t *)res = *(const int64_t *)prev + *(const int64_t *)elem;
}
static void (*volatile scan_op)(const void *, const void *, void *, void *) = scan_add;

__attribute__((noinline)) static void scan_seq(const int64_t *x, int64_t *y, size_t n) {
  void (*op)(const void *, const void *, void *, void *) = scan_op;
  y[0] = x[0];
  for (size_t i = 1; i < n; i++) op(&y[i - 1], &x[i], &y[i], NULL);
}

static int section_scan(const char *outdir, size_t n, int reps, int workers) {
  int64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
  if (!x || !y || !z) return 1;
  for (size_t i = 0; i < n; i++) x[i] = (int64_t)(i % 7) - 3;
  scan_seq(x, y, n); /* warm-up, and the reference */
  double t[2][MAX_REPS];
  for (int rep = 0; rep < reps; rep++)
    for (int j = 0; j < 2; j++) {
      int v = (j + rep) % 2;
      double t0 = now_s();
      int rc = 0;
      if (v == 0)
        scan_seq(x, z, n);
      else
        rc = adapt_inclusive_scan(x, n, sizeof *x, z, scan_add, NULL, NULL);
      t[v][rep] = now_s() - t0;
      if (rc || memcmp(y, z, n * sizeof *z)) {
        fprintf(stderr, "bench_window: scan: %s\n", rc ? adapt_strerror(rc) : "wrong result");
        return 1;
      }
    }
  double ts = median(t[0], reps), ta = median(t[1], reps);
  printf("\n== scan section: int64 inclusive scan of %zu elements, %d workers, %d reps\n"
         "sequential (op through a pointer) %.2f ms, adapt_inclusive_scan %.2f ms, speed-up %.2f\n",
         n, workers, reps, ts * 1e3, ta * 1e3, ts / ta);
  char path[1024];
  snprintf(path, sizeof path, "%s/window_scan.csv", outdir);
  FILE *csv = fopen(path, "w");
  if (csv) {
    fprintf(csv,
            "variant,workers,n,time_ms\nsequential,1,%zu,%.3f\nadapt_inclusive_scan,%d,%zu,%.3f\n",
            n, ts * 1e3, workers, n, ta * 1e3);
    fclose(csv);
  }
  free(x);
  free(y);
  free(z);
  return 0;
}

/* --callgrind N: each implementation on N and 2N elements, one worker,
 * between callgrind client requests (bench/scripts/window_callgrind.sh). */
static int section_callgrind(size_t n) {
  double *x = malloc(2 * n * sizeof *x), *y = malloc(2 * n * sizeof *y);
  if (!x || !y) return 1;
  for (size_t i = 0; i < 2 * n; i++) x[i] = (double)i;
  adapt_attr g4096 = {0};
  g4096.grain = 4096;
  adapt_attr g64 = {0};
  g64.grain = 64;
  adapt_attr sl = {0};
  sl.grain = 4096;
  sl.window = ADAPT_WINDOW_SLIDING;
  sl.window_size = 65536;
  adapt_attr st = sl;
  st.window = ADAPT_WINDOW_STATIC;
  /* explicit grains: the automatic grain is calibrated on time, which
   * valgrind distorts */
  const char *names[] = {"plain loop",
                         "for_each grain 4096",
                         "for_each_range grain 4096",
                         "transform grain 4096",
                         "transform_range grain 4096",
                         "for_each static m=65536",
                         "for_each sliding m=65536",
                         "for_each grain 64",
                         "for_each_range grain 64"};
  enum { NV = 9 };
  char label[128];
  for (int v = 0; v < NV; v++)
    for (size_t k = 1; k <= 2; k++) {
      size_t m = k * n;
      CALLGRIND_ZERO_STATS;
      int rc = 0;
      switch (v) {
      case 0: ov_each_range(x, m, NULL); break;
      case 1: rc = adapt_for_each(x, m, sizeof *x, ov_each, NULL, &g4096); break;
      case 2: rc = adapt_for_each_range(x, m, sizeof *x, ov_each_range, NULL, &g4096); break;
      case 3: rc = adapt_transform(x, m, sizeof *x, y, sizeof *y, ov_tr, NULL, &g4096); break;
      case 4:
        rc = adapt_transform_range(x, m, sizeof *x, y, sizeof *y, ov_tr_range, NULL, &g4096);
        break;
      case 5: rc = adapt_for_each(x, m, sizeof *x, ov_each, NULL, &st); break;
      case 6: rc = adapt_for_each(x, m, sizeof *x, ov_each, NULL, &sl); break;
      case 7: rc = adapt_for_each(x, m, sizeof *x, ov_each, NULL, &g64); break;
      case 8: rc = adapt_for_each_range(x, m, sizeof *x, ov_each_range, NULL, &g64); break;
      }
      snprintf(label, sizeof label, "window:%s:n=%zu", names[v], m);
      CALLGRIND_DUMP_STATS_AT(label);
      if (rc) {
        fprintf(stderr, "bench_window: %s: %s\n", names[v], adapt_strerror(rc));
        return 1;
      }
    }
  free(x);
  free(y);
  return 0;
}

int main(int argc, char **argv) {
  const char *outdir = "build/release/bench-results";
  size_t n = 24u << 20; /* elements: 192 MiB per array */
  int reps = 9;
  size_t reuse = 0;
  const char *section = "all";
  size_t cg = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--out") && i + 1 < argc)
      outdir = argv[++i];
    else if (!strcmp(argv[i], "--n") && i + 1 < argc)
      n = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reuse") && i + 1 < argc)
      reuse = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--section") && i + 1 < argc)
      section = argv[++i];
    else if (!strcmp(argv[i], "--callgrind") && i + 1 < argc)
      cg = strtoull(argv[++i], NULL, 10);
    else {
      fprintf(stderr,
              "usage: %s [--out DIR] [--n ELEMS] [--reps K] [--reuse BYTES] "
              "[--section overhead|window|scan|all] [--callgrind N]\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 1 || reps > MAX_REPS || n < 1024) {
    fprintf(stderr, "bench_window: --reps 1..%d, --n >= 1024\n", MAX_REPS);
    return 2;
  }
  if (cg) {
    adapt_config one = {0};
    one.workers = 1;
    int rc = adapt_init(&one);
    if (!rc) rc = section_callgrind(cg);
    adapt_finalize();
    return rc ? 1 : 0;
  }
  mkdir(outdir, 0755);
  /* counters first: the worker threads created later are counted */
  perfctr pc;
  if (perfctr_init(&pc, NULL) != 0) fprintf(stderr, "bench_window: %s\n", pc.message);
  const int workers = 2;
  int rc = 0;
  if (!strcmp(section, "all") || !strcmp(section, "overhead")) {
    for (int w = 1; w <= workers && !rc; w++) {
      adapt_finalize();
      adapt_config cfg = {0};
      cfg.workers = w;
      if ((rc = adapt_init(&cfg)) != 0) {
        fprintf(stderr, "bench_window: adapt_init: %s\n", adapt_strerror(rc));
        return 1;
      }
      rc = section_overhead(outdir, reps, w);
    }
  }
  if (!rc && (!strcmp(section, "all") || !strcmp(section, "window"))) {
    adapt_finalize();
    adapt_config cfg = {0};
    cfg.workers = workers;
    if ((rc = adapt_init(&cfg)) != 0) {
      fprintf(stderr, "bench_window: adapt_init: %s\n", adapt_strerror(rc));
      return 1;
    }
    size_t cache = adapt_shared_cache_size();
    if (reuse == 0) reuse = (cache ? cache : (32u << 20)) / 8 * 5;
    rc = section_window(outdir, n, reps, reuse, &pc, workers);
  }
  if (!rc && (!strcmp(section, "all") || !strcmp(section, "scan"))) {
    adapt_finalize();
    adapt_config cfg = {0};
    cfg.workers = workers;
    if ((rc = adapt_init(&cfg)) != 0) {
      fprintf(stderr, "bench_window: adapt_init: %s\n", adapt_strerror(rc));
      return 1;
    }
    rc = section_scan(outdir, 1u << 24, reps, workers);
  }
  adapt_finalize();
  perfctr_destroy(&pc);
  return rc;
}
