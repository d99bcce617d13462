/* Soak test (docs/reliability.md): random regions, one after the other and
 * from several threads, in random runtime configurations started and
 * stopped again and again, each result checked exactly.
 *
 *   soak                      fixed seed, a fixed number of regions (make test)
 *   soak --minutes M          random seed, M minutes (make soak MINUTES=M)
 *   soak --seconds S | --regions N | --seed X | --quiet
 *
 * A cycle starts the runtime (1-8 workers, random binding, victim policy,
 * steal order, spin and steal timeout; sometimes lazily), runs random
 * regions, reads the statistics and stops it. A region is one of:
 * - adapt_for under a random scheduler and grain;
 * - a tree of spawned tasks (<adapt/tasks.h>) of random fan-out;
 * - a sequence algorithm (every one of <adapt/algorithms.h>, per-element and
 *   range forms) with a random window mode, window size, splitter, grain
 *   and, where it applies, scheduler;
 * - a user task of the adaptive API (<adapt/adaptive.h>) with a
 *   non-commutative reducer, the owner preempting its thieves or joining
 *   them;
 * - a kernel of the public engine (<adapt/seq.h>) composing affine maps in
 *   pieces, with a random window mode, splitter and grain, one call in 4
 *   stopping itself at a random unit (adapt_seq_stop);
 * - foreign threads: 1-3 threads of this program running regions while the
 *   main thread runs its own.
 * Bodies, callbacks and reducers start nested regions at random (two
 * levels deep), one in 8 of them on a thread that the body creates and
 * joins; half of the regions give each element some extra work, so that thieves
 * find something to steal.
 * Checks: every index runs exactly once (at most once past find_if's
 * answer), outputs equal the sequential definition, reductions happen in
 * sequence order (affine maps, whose composition is not commutative) and
 * adapt_reduce's grouping is the documented one, every call returns 0,
 * what a body may ask of the runtime answers as documented (probe_runtime),
 * no worker thread is left after adapt_finalize, and the process does not
 * grow (resident memory, threads, file descriptors: soak_resources.h).
 *
 * Kept away from (see docs/reliability.md): foreign threads still running
 * at adapt_finalize, grains above 2048, preemption before the owner's range
 * is done, scopes used by other threads (test_reliability covers them). */
#include <adapt/adaptive.h>
#include <adapt/algorithms.h>
#include <adapt/seq.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernels.h"
#include "soak_resources.h"
#include "worker_threads.h"

enum {
  MAX_WORKERS = 8,
  MAX_DEPTH = 2,           /* nesting levels below a top-level region */
  NEST_EVERY = 1024,       /* nested regions start at multiples of ... */
  NEST_ONE_IN = 4,         /* ... one time in ... */
  JOINED_ONE_IN = 8,       /* nested regions run on a thread the body joins, one in ... */
  REDUCER_NEST_ONE_IN = 8, /* reductions that start a nested region, one in ... */
  MAX_MESSAGES = 20,       /* failures printed in full */
  VAR_MAX_OUT = 3,         /* transform_var: outputs per element at most */
};

/* --- Counters (relaxed: totals read by the main thread after the joins) -- */

static atomic_ulong c_cycles, c_top, c_regions, c_nested, c_joined, c_foreign, c_iters, c_failures;
static unsigned long long c_steals, c_preempt, c_reduce; /* main thread only */

static void count(atomic_ulong *c, unsigned long d) {
  atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}
static unsigned long get(atomic_ulong *c) { return atomic_load_explicit(c, memory_order_relaxed); }

static void failf(const char *fmt, ...) {
  if (atomic_fetch_add_explicit(&c_failures, 1, memory_order_relaxed) >= MAX_MESSAGES) return;
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "soak: FAILURE: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

static void check_rc(const char *what, int rc) {
  if (rc) failf("%s returned %d (%s): %s", what, rc, adapt_strerror(rc), adapt_last_error());
}

/* --- Random numbers: one state per caller, no sharing ---------------------- */

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
static uint64_t next(rng *r) { return mix(r->s++ * 0x2545f4914f6cdd1dull); }
static size_t rnd(rng *r, size_t n) { return n ? (size_t)(next(r) % n) : 0; }

static size_t size_cap = (size_t)1 << 17; /* largest top-level size */

/* Log-uniform size in [0, size_cap >> (5 * depth)]. */
static size_t rnd_size(rng *r, int depth) {
  size_t cap = size_cap >> (5 * depth), bits = 0;
  while (((size_t)1 << bits) < cap) bits++;
  size_t hi = (size_t)1 << rnd(r, bits + 1);
  return rnd(r, (hi < cap ? hi : cap) + 1);
}

/* --- Nesting --------------------------------------------------------------- */

static void region(rng *r, int depth);

/* From a body or callback of a region of nesting level depth that covers
 * the indices [b, e): for each multiple m of NEST_EVERY in it, one time in
 * NEST_ONE_IN (by seed and m), run a nested region chosen by (seed, m). The
 * nested regions thus do not depend on how the work was cut. */
typedef struct joined {
  rng r;
  int depth;
} joined;

static void *joined_main(void *p) {
  joined *j = p;
  region(&j->r, j->depth);
  return NULL;
}

/* One nested region in JOINED_ONE_IN runs on a thread that the body
 * creates and joins (a top-level region of that thread: it runs alone
 * while the workers are busy; issue 11, item 3). */
static void maybe_nest(uint64_t seed, int depth, size_t b, size_t e) {
  if (depth >= MAX_DEPTH) return;
  for (size_t m = (b + NEST_EVERY - 1) / NEST_EVERY * NEST_EVERY; m < e; m += NEST_EVERY) {
    uint64_t h = mix(seed ^ mix(m));
    if (h % NEST_ONE_IN != 0) continue;
    rng sub = {h};
    count(&c_nested, 1);
    pthread_t t;
    joined j = {sub, depth + 1};
    if ((h >> 32) % JOINED_ONE_IN == 0 && pthread_create(&t, NULL, joined_main, &j) == 0) {
      count(&c_joined, 1);
      pthread_join(t, NULL);
    } else {
      region(&sub, depth + 1);
    }
  }
}

/* --- Visit counts ---------------------------------------------------------- */

typedef struct visits {
  atomic_uchar *v;
  size_t n;
  unsigned cost; /* extra work per visit (rounds of mix): thieves get time to steal */
} visits;

static int visits_new(visits *m, size_t n, rng *r) {
  static const unsigned costs[] = {0, 0, 8, 64};
  m->n = n;
  m->cost = costs[rnd(r, 4)];
  m->v = calloc(n ? n : 1, 1);
  if (!m->v) failf("out of memory for %zu visit counts", n);
  return m->v ? 0 : -1;
}
/* relaxed: counts, read after the region's join. */
static _Thread_local volatile uint64_t sink; /* keeps the extra work */

static void visit(const visits *m, size_t i) {
  atomic_fetch_add_explicit(&m->v[i], 1, memory_order_relaxed);
  uint64_t x = i;
  for (unsigned k = 0; k < m->cost; k++) x = mix(x);
  if (m->cost) sink = x;
}
static unsigned visits_of(const visits *m, size_t i) {
  return atomic_load_explicit(&m->v[i], memory_order_relaxed);
}
static void visits_check(visits *m, const char *what, size_t exact_below, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned c = visits_of(m, i);
    if (i < exact_below ? c != 1 : c > 1) {
      failf("%s: index %zu of %zu visited %u times", what, i, n, c);
      break;
    }
  }
  free(m->v);
  m->v = NULL;
}

/* --- adapt_for ------------------------------------------------------------- */

typedef struct for_ctx {
  visits m;
  uint64_t seed;
  int depth;
  size_t cancel_at; /* the index whose body calls adapt_cancel; SIZE_MAX: none */
  char desc[112];
} for_ctx;

static pthread_t main_thread;

/* The configuration the cycle started the runtime with (NULL: lazily, with
 * the defaults). Written by the main thread between cycles only. */
static const adapt_config *running_cfg;

/* What a body may call about the runtime, from the chunk holding index 0 of
 * a loop: its own identity (in range), adapt_init with the running
 * configuration (0) and with another one (-EBUSY), adapt_try_finalize
 * (-EBUSY). */
static void probe_runtime(const char *where) {
  int id = adapt_worker_id(), nw = adapt_num_workers();
  /* -1: a region that a thread runs alone while another one holds the
   * workers (adapt.h). */
  if (id < -1 || id >= nw) failf("adapt_worker_id %d in a body of %s, %d workers", id, where, nw);
  check_rc("adapt_init (running configuration) in a body", adapt_init(running_cfg));
  adapt_config other = {0};
  other.workers = nw == 1 ? 2 : 1;
  int rc = adapt_init(&other);
  if (rc != -EBUSY) failf("adapt_init (other configuration) in a body returned %d", rc);
  rc = adapt_try_finalize();
  if (rc != -EBUSY) failf("adapt_try_finalize in a body returned %d", rc);
}

static void for_body(size_t b, size_t e, void *cv) {
  const for_ctx *c = cv;
  if (b == 0) probe_runtime(c->desc);
  for (size_t i = b; i < e; i++) {
    visit(&c->m, i);
    if (i == c->cancel_at) check_rc("adapt_cancel in a body", adapt_cancel());
  }
  maybe_nest(c->seed, c->depth, b, e);
}

static void region_for(rng *r, int depth) {
  for_ctx c = {.seed = next(r), .depth = depth, .cancel_at = SIZE_MAX};
  size_t n = rnd_size(r, depth);
  adapt_attr a = {0};
  a.sched = (adapt_sched)rnd(r, ADAPT_SCHED_COUNT);
  a.grain = rnd(r, 3) ? 1 + rnd(r, 2048) : 0;
  if (n && rnd(r, 4) == 0) c.cancel_at = rnd(r, n); /* one loop in 4 cancels itself */
  snprintf(c.desc, sizeof c.desc, "adapt_for (n %zu, sched %s, grain %zu, depth %d%s%s)", n,
           adapt_sched_name(a.sched), a.grain, depth,
           pthread_equal(pthread_self(), main_thread) ? "" : ", foreign thread",
           c.cancel_at < n ? ", cancelled" : "");
  if (visits_new(&c.m, n, r)) return;
  int rc = adapt_for(0, n, for_body, &c, &a);
  if (c.cancel_at < n) {
    /* Cancelled: -ECANCELED, the cancelling index once, every index at most
     * once. */
    if (rc != -ECANCELED) failf("%s returned %d, not -ECANCELED", c.desc, rc);
    if (visits_of(&c.m, c.cancel_at) != 1)
      failf("%s: the cancelling index did not run once", c.desc);
    visits_check(&c.m, c.desc, 0, n);
  } else {
    check_rc(c.desc, rc);
    visits_check(&c.m, c.desc, n, n);
  }
  count(&c_iters, n);
}

/* --- spawn/sync -------------------------------------------------------------- */

typedef struct tree_ctx {
  visits m;
  uint64_t seed;
  int depth;
  size_t leaf;
  int fanout;
} tree_ctx;

typedef struct tree_arg {
  const tree_ctx *c;
  size_t lo, hi;
} tree_arg;

static void tree(const tree_ctx *c, size_t lo, size_t hi);
static void tree_task(void *p) {
  const tree_arg *a = p;
  tree(a->c, a->lo, a->hi);
}

static void tree(const tree_ctx *c, size_t lo, size_t hi) {
  if (hi - lo <= c->leaf) {
    for (size_t i = lo; i < hi; i++) visit(&c->m, i);
    maybe_nest(c->seed, c->depth, lo, hi);
    return;
  }
  tree_arg parts[4];
  size_t step = (hi - lo + (size_t)c->fanout - 1) / (size_t)c->fanout;
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  check_rc("adapt_scope_begin", rc);
  if (rc) return;
  int k = 0;
  for (size_t b = lo; b < hi; b += step, k++) {
    parts[k] = (tree_arg){c, b, hi - b > step ? b + step : hi};
    if (k > 0) check_rc("adapt_spawn", adapt_spawn(&s, tree_task, &parts[k]));
  }
  tree(c, parts[0].lo, parts[0].hi); /* the first part here, meanwhile */
  check_rc("adapt_sync", adapt_sync(&s));
}

static void region_tasks(rng *r, int depth) {
  tree_ctx c = {.seed = next(r), .depth = depth};
  size_t n = rnd_size(r, depth);
  c.leaf = 1 + rnd(r, 256);
  c.fanout = 2 + (int)rnd(r, 3);
  if (visits_new(&c.m, n, r)) return;
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  check_rc("adapt_scope_begin", rc);
  if (rc == 0) {
    tree_arg all = {&c, 0, n};
    check_rc("adapt_spawn", adapt_spawn(&s, tree_task, &all));
    check_rc("adapt_sync", adapt_sync(&s));
  }
  visits_check(&c.m, "spawn/sync", n, n);
  count(&c_iters, n);
}

/* --- The adaptive API: affine maps, composed in sequence order -------------- */

/* affine and compose: kernels.h. */
static affine affine_of(uint64_t i) { return (affine){2 * i + 1, mix(i)}; }
static int affine_eq(affine x, affine y) { return x.a == y.a && x.b == y.b; }

typedef struct aff_ctx {
  visits m;
  uint64_t seed;
  int depth;
  int preempt;  /* the owner preempts its thieves (else adapt_end joins them) */
  size_t grain; /* elements per chunk and smallest piece */
  atomic_ulong disorder;
} aff_ctx;

static void aff_splitter(adapt_frame *f, void *wv, int count_, adapt_reply_set *rs, void *cv) {
  aff_work *w = wv;
  const aff_ctx *c = cv;
  size_t r = w->end - w->begin, g = c->grain;
  if (r < 2 * g) return;
  size_t pieces = (size_t)count_ + 1 < r / g ? (size_t)count_ + 1 : r / g;
  size_t piece = r / pieces, e = w->end;
  while (adapt_reply_remaining(rs) > 0 && e - piece >= w->begin + g) {
    aff_work *t = adapt_reply(rs, e - piece);
    if (!t) break;
    *t = (aff_work){e - piece, e - piece, e, {1, 0}};
    e -= piece;
  }
  w->end = e;
}

static void aff_reducer(void *vw, void *tw, void *cv) {
  const aff_work *t = tw;
  aff_ctx *c = cv;
  /* relaxed: a count read after adapt_end. */
  if (!aff_merge(vw, t)) atomic_fetch_add_explicit(&c->disorder, 1, memory_order_relaxed);
  /* A reducer may start a nested region (issue 11, item 8), chosen by the
   * thief's first index. */
  uint64_t h = mix(c->seed ^ mix(t->start + 0x7265647563ull));
  if (c->depth < MAX_DEPTH && h % REDUCER_NEST_ONE_IN == 0) {
    rng sub = {h};
    count(&c_nested, 1);
    region(&sub, c->depth + 1);
  }
}

static void aff_chunk(aff_work *w, size_t b, size_t e, const void *cv) {
  const aff_ctx *c = cv;
  for (size_t i = b; i < e; i++) {
    visit(&c->m, i);
    w->acc = compose(w->acc, affine_of(i));
  }
  maybe_nest(c->seed, c->depth, b, e);
}

static void aff_entry(adapt_frame *f, void *wv, void *cv) {
  const aff_ctx *c = cv;
  aff_run(f, wv, c->grain, c->preempt, aff_chunk, cv);
}

static void region_adaptive(rng *r, int depth) {
  aff_ctx c = {.seed = next(r), .depth = depth};
  size_t n = rnd_size(r, depth);
  c.preempt = (int)rnd(r, 2);
  c.grain = 1 + rnd(r, 64);
  atomic_init(&c.disorder, 0);
  if (visits_new(&c.m, n, r)) return;
  affine want = {1, 0};
  for (size_t i = 0; i < n; i++) want = compose(want, affine_of(i));
  aff_work w = {0, 0, n, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  int rc = adapt_begin(&f, &task, &w);
  check_rc("adapt_begin", rc);
  if (rc == 0) {
    aff_entry(&f, &w, &c);
    check_rc("adapt_end", adapt_end(&f));
    if (atomic_load_explicit(&c.disorder, memory_order_relaxed) || w.begin != n ||
        !affine_eq(w.acc, want))
      failf("adaptive task (n %zu, preempt %d, grain %zu): reduced out of sequence order", n,
            c.preempt, c.grain);
  }
  visits_check(&c.m, "adaptive task", n, n);
  count(&c_iters, n);
}

/* --- The sequence algorithms ------------------------------------------------ */

typedef struct algo_ctx {
  visits m;
  uint64_t seed;
  int depth;
  const uint64_t *in;
  size_t target; /* find_if */
  atomic_ulong bad;
} algo_ctx;

static void bad(algo_ctx *c) { atomic_fetch_add_explicit(&c->bad, 1, memory_order_relaxed); }

static uint64_t f3(uint64_t v) { return v * 3 + 1; }

/* Visit the element at v (an index, since in[i] == i) and maybe nest. */
static void touch(algo_ctx *c, uint64_t v) {
  visit(&c->m, (size_t)v);
  maybe_nest(c->seed, c->depth, (size_t)v, (size_t)v + 1);
}

static void op_each(void *e, void *cv) { touch(cv, *(uint64_t *)e); }
static void op_each_range(void *e, size_t n, void *cv) {
  for (size_t i = 0; i < n; i++) op_each((uint64_t *)e + i, cv);
}
static void op_f3(const void *i, void *o, void *cv) {
  touch(cv, *(const uint64_t *)i);
  *(uint64_t *)o = f3(*(const uint64_t *)i);
}
static void op_f3_range(const void *i, void *o, size_t n, void *cv) {
  range_transform(op_f3, i, o, n, cv);
}
static size_t op_var(const void *i, void *o, void *cv) {
  uint64_t v = *(const uint64_t *)i;
  touch(cv, v);
  size_t k = (size_t)(mix(v) % (VAR_MAX_OUT + 1));
  for (size_t j = 0; j < k; j++) ((uint64_t *)o)[j] = v * 8 + j;
  return k;
}
static int pred3(const void *e, void *cv) {
  touch(cv, *(const uint64_t *)e);
  return *(const uint64_t *)e % 3 == 0;
}
static int pred_target(const void *e, void *cv) {
  algo_ctx *c = cv;
  touch(c, *(const uint64_t *)e);
  return *(const uint64_t *)e == c->target;
}
/* The range forms of op_var, pred3 and pred_target (the scans':
 * kernels.h). */
static size_t op_var_range(const void *i, size_t n, void *o, void *cv) {
  return range_var(op_var, i, n, o, cv);
}
static size_t copy3_range(const void *e, size_t n, void *o, void *cv) {
  return range_copy_if(pred3, e, n, o, cv);
}
static size_t count3_range(const void *e, size_t n, void *cv) {
  return range_count(pred3, e, n, cv);
}
static size_t find_target_range(const void *e, size_t n, void *cv) {
  return range_find(pred_target, e, n, cv);
}

/* adapt_reduce: the values of kernels.h, with visits (one per 64
 * elements) and nested regions. */
static void red_acc(void *acc, const void *first, size_t n, void *cv) {
  const uint64_t *e = first;
  if (!red_block(acc, e, n)) bad(cv); /* the identity, a block's start */
  for (size_t i = 0; i < n; i += 64) visit(&((algo_ctx *)cv)->m, (size_t)e[i]); /* one per 64 */
  maybe_nest(((algo_ctx *)cv)->seed, ((algo_ctx *)cv)->depth, (size_t)e[0], (size_t)e[0] + n);
}

static void red_combine(void *acc, const void *other, void *cv) {
  if (!red_join(acc, other)) bad(cv);
}

enum algo {
  A_FOR_EACH,
  A_FOR_EACH_RANGE,
  A_TRANSFORM,
  A_TRANSFORM_RANGE,
  A_TRANSFORM_VAR,
  A_COPY_IF,
  A_COUNT_IF,
  A_FIND_IF,
  A_REDUCE,
  A_SCAN,
  A_TRANSFORM_VAR_RANGE,
  A_COPY_IF_RANGE,
  A_COUNT_IF_RANGE,
  A_FIND_IF_RANGE,
  A_SCAN_RANGE,
  A_XSCAN,
  A_XSCAN_RANGE,
  A_COUNT
};
static const char *const algo_names[A_COUNT] = {"for_each",
                                                "for_each_range",
                                                "transform",
                                                "transform_range",
                                                "transform_var",
                                                "copy_if",
                                                "count_if",
                                                "find_if",
                                                "reduce",
                                                "inclusive_scan",
                                                "transform_var_range",
                                                "copy_if_range",
                                                "count_if_range",
                                                "find_if_range",
                                                "inclusive_scan_range",
                                                "exclusive_scan",
                                                "exclusive_scan_range"};

/* Run algorithm k on c->in[0..n) with attributes a; check the result.
 * Returns the index below which every element was visited exactly once. */
static size_t run_algo(enum algo k, algo_ctx *c, size_t n, const adapt_attr *a, const char *desc) {
  const uint64_t *in = c->in;
  uint64_t *out = malloc((n ? n : 1) * sizeof *out);
  if (!out) {
    failf("out of memory for %zu outputs", n);
    return 0;
  }
  size_t exact = n, got = 0;
  int rc = 0;
  switch (k) {
  case A_FOR_EACH: rc = adapt_for_each((void *)in, n, 8, op_each, c, a); break;
  case A_FOR_EACH_RANGE: rc = adapt_for_each_range((void *)in, n, 8, op_each_range, c, a); break;
  case A_TRANSFORM:
  case A_TRANSFORM_RANGE:
    rc = k == A_TRANSFORM ? adapt_transform(in, n, 8, out, 8, op_f3, c, a)
                          : adapt_transform_range(in, n, 8, out, 8, op_f3_range, c, a);
    for (size_t i = 0; rc == 0 && i < n; i++)
      if (out[i] != f3(in[i])) {
        failf("%s: out[%zu] wrong", desc, i);
        break;
      }
    break;
  case A_TRANSFORM_VAR:
  case A_TRANSFORM_VAR_RANGE: {
    adapt_vec v = {0};
    v.elem_size = 8;
    rc = k == A_TRANSFORM_VAR
             ? adapt_transform_var(in, n, 8, &v, VAR_MAX_OUT, op_var, c, a)
             : adapt_transform_var_range(in, n, 8, &v, VAR_MAX_OUT, op_var_range, c, a);
    size_t j = 0;
    for (size_t i = 0; rc == 0 && i < n; i++)
      for (size_t q = 0; q < mix(in[i]) % (VAR_MAX_OUT + 1); q++, j++)
        if (j >= v.count || ((uint64_t *)v.data)[j] != in[i] * 8 + q) {
          failf("%s: output %zu wrong", desc, j);
          i = n;
          break;
        }
    if (rc == 0 && j != v.count) failf("%s: %zu outputs, expected %zu", desc, v.count, j);
    free(v.data);
    break;
  }
  case A_COPY_IF:
  case A_COPY_IF_RANGE:
    rc = k == A_COPY_IF ? adapt_copy_if(in, n, 8, out, &got, pred3, c, a)
                        : adapt_copy_if_range(in, n, 8, out, &got, copy3_range, c, a);
    if (rc == 0 && got != (n + 2) / 3)
      failf("%s: %zu copied, expected %zu", desc, got, (n + 2) / 3);
    for (size_t i = 0; rc == 0 && i < got; i++)
      if (out[i] != 3 * i) {
        failf("%s: out[%zu] wrong", desc, i);
        break;
      }
    break;
  case A_COUNT_IF:
  case A_COUNT_IF_RANGE:
    rc = k == A_COUNT_IF ? adapt_count_if(in, n, 8, &got, pred3, c, a)
                         : adapt_count_if_range(in, n, 8, &got, count3_range, c, a);
    if (rc == 0 && got != (n + 2) / 3)
      failf("%s: counted %zu, expected %zu", desc, got, (n + 2) / 3);
    break;
  case A_FIND_IF:
  case A_FIND_IF_RANGE:
    rc = k == A_FIND_IF ? adapt_find_if(in, n, 8, &got, pred_target, c, a)
                        : adapt_find_if_range(in, n, 8, &got, find_target_range, c, a);
    if (rc == 0 && got != (c->target < n ? c->target : n))
      failf("%s: found %zu, expected %zu", desc, got, c->target < n ? c->target : n);
    exact = got < n ? got + 1 : n; /* once up to the match, at most once after */
    break;
  case A_REDUCE: {
    red_val res = {1, 2, 3};
    rc = adapt_reduce(in, n, 8, &res, sizeof res, &red_identity, red_acc, red_combine, c, a);
    if (rc == 0 && n == 0 && res.lo != UINT64_MAX) failf("%s: not the identity", desc);
    red_val want = n ? red_expected(in, n) : red_identity;
    if (rc == 0 && n && (res.lo != 0 || res.hi != want.hi || res.h != want.h))
      failf("%s: grouping differs from the documented one", desc);
    exact = 0; /* one visit per 64 elements: checked below */
    for (size_t i = 0; rc == 0 && i < n; i++)
      if (visits_of(&c->m, i) != (i % RED_BLOCK % 64 == 0)) {
        failf("%s: block of element %zu accumulated %u times", desc, i, visits_of(&c->m, i));
        break;
      }
    break;
  }
  case A_SCAN:
  case A_SCAN_RANGE:
  case A_XSCAN:
  case A_XSCAN_RANGE: {
    affine *ai = malloc((n ? n : 1) * sizeof *ai), *ao = malloc((n ? n : 1) * sizeof *ao);
    if (ai && ao) {
      for (size_t i = 0; i < n; i++) ai[i] = affine_of(i);
      const affine init = affine_of(n + 17);
      int incl = k == A_SCAN || k == A_SCAN_RANGE;
      rc = k == A_SCAN ? adapt_inclusive_scan(ai, n, sizeof *ai, ao, op_scan, c, a)
           : k == A_SCAN_RANGE
               ? adapt_inclusive_scan_range(ai, n, sizeof *ai, ao, scan_range, scan_add, c, a)
           : k == A_XSCAN ? adapt_exclusive_scan(ai, n, sizeof *ai, ao, &init, op_scan, c, a)
                          : adapt_exclusive_scan_range(ai, n, sizeof *ai, ao, &init, xscan_range,
                                                       scan_add, c, a);
      affine p = incl ? (affine){1, 0} : init;
      for (size_t i = 0; rc == 0 && i < n; i++) {
        affine want = incl ? compose(p, ai[i]) : p;
        p = compose(p, ai[i]);
        if (!affine_eq(ao[i], want)) {
          failf("%s: out[%zu] wrong", desc, i);
          break;
        }
      }
    } else {
      failf("out of memory for %zu scan elements", n);
    }
    for (size_t i = 0; i < n; i++) visit(&c->m, i); /* the scan's op has no index */
    free(ai);
    free(ao);
    break;
  }
  default: break;
  }
  check_rc(desc, rc);
  if (atomic_load_explicit(&c->bad, memory_order_relaxed)) failf("%s: bad grouping", desc);
  free(out);
  return exact;
}

static void region_algo(rng *r, int depth) {
  algo_ctx c = {.seed = next(r), .depth = depth};
  atomic_init(&c.bad, 0);
  enum algo k = (enum algo)rnd(r, A_COUNT);
  size_t n = rnd_size(r, depth);
  if (k == A_REDUCE) n *= 4; /* blocks of 1024: a few hundred */
  adapt_attr a = {0};
  a.window = (adapt_window_mode)rnd(r, 4);
  a.window_size = rnd(r, 2) ? 1 + rnd(r, 4096) : 0;
  a.splitter = (adapt_window_splitter)rnd(r, 4);
  a.grain = rnd(r, 2) ? 1 + rnd(r, 512) : 0;
  /* A scheduler other than adaptive applies to the maps in the no-window
   * mode only (-ENOTSUP otherwise: not what is soaked here). */
  int map = k == A_FOR_EACH || k == A_FOR_EACH_RANGE || k == A_TRANSFORM ||
            k == A_TRANSFORM_RANGE || k == A_FIND_IF || k == A_FIND_IF_RANGE;
  if (map && (a.window == ADAPT_WINDOW_NONE || a.window == ADAPT_WINDOW_DEFAULT) && rnd(r, 2))
    a.sched = (adapt_sched)rnd(r, ADAPT_SCHED_COUNT);
  c.target = rnd(r, n + n / 4 + 1);
  uint64_t *in = malloc((n ? n : 1) * sizeof *in);
  if (!in || visits_new(&c.m, n, r)) {
    failf("out of memory for %zu elements", n);
    free(in);
    return;
  }
  for (size_t i = 0; i < n; i++) in[i] = i;
  c.in = in;
  char desc[160];
  snprintf(desc, sizeof desc, "%s (n %zu, window %d/%zu, splitter %d, grain %zu, sched %s)",
           algo_names[k], n, (int)a.window, a.window_size, (int)a.splitter, a.grain,
           adapt_sched_name(a.sched));
  size_t exact = run_algo(k, &c, n, &a, desc);
  if (k == A_REDUCE) {
    free(c.m.v);
  } else {
    visits_check(&c.m, desc, exact, n);
  }
  free(in);
  count(&c_iters, n);
}

/* --- The public engine (<adapt/seq.h>): affine maps in pieces ------------- */

/* A piece's state: the composition of the units it processed, [first, pos). */
typedef struct seq_state {
  affine acc;
  size_t first, pos;
  int started;
} seq_state;

typedef struct seq_ctx {
  visits m;
  uint64_t seed;
  int depth;
  size_t stop_at;   /* the unit whose run() calls adapt_seq_stop; SIZE_MAX: none */
  atomic_ulong bad; /* contract violations seen by the callbacks */
} seq_ctx;

static void seq_bad(seq_ctx *c) { atomic_fetch_add_explicit(&c->bad, 1, memory_order_relaxed); }

static void seq_run_cb(adapt_seq *s, void *sv, size_t b, size_t e, void *cv) {
  seq_state *st = sv;
  seq_ctx *c = cv;
  if (!st->started) { /* a stolen piece's state starts all zero */
    st->started = 1;
    st->first = st->pos = b;
    st->acc = (affine){1, 0};
  } else if (st->pos != b) {
    seq_bad(c); /* "the piece has already processed ... up to b" */
  }
  for (size_t i = b; i < e; i++) {
    visit(&c->m, i);
    st->acc = compose(st->acc, affine_of(i));
    if (i == c->stop_at) adapt_seq_stop(s, i + 1, -EINTR);
  }
  st->pos = e;
  maybe_nest(c->seed, c->depth, b, e);
}

static void seq_merge_cb(adapt_seq *s, void *sv, void *tv, size_t tb, size_t te, void *cv) {
  seq_state *st = sv, *t = tv;
  (void)s;
  if (st->pos != tb || !t->started || t->first != tb || t->pos != te) seq_bad(cv);
  st->acc = compose(st->acc, t->acc);
  st->pos = te;
}

static void region_seq(rng *r, int depth) {
  seq_ctx c = {.seed = next(r), .depth = depth, .stop_at = SIZE_MAX};
  atomic_init(&c.bad, 0);
  size_t n = rnd_size(r, depth);
  adapt_attr a = {0};
  a.window = (adapt_window_mode)rnd(r, 4);
  a.window_size = rnd(r, 2) ? 1 + rnd(r, 4096) : 0;
  a.splitter = (adapt_window_splitter)rnd(r, 4);
  a.grain = rnd(r, 2) ? 1 + rnd(r, 512) : 0;
  if (n && rnd(r, 4) == 0) c.stop_at = rnd(r, n); /* one call in 4 stops itself */
  char desc[160];
  snprintf(desc, sizeof desc, "adapt_seq_run (n %zu, window %d/%zu, splitter %d, grain %zu%s)", n,
           (int)a.window, a.window_size, (int)a.splitter, a.grain,
           c.stop_at < n ? ", stopped" : "");
  if (visits_new(&c.m, n, r)) return;
  const adapt_seq_kernel k = {seq_run_cb, seq_merge_cb, NULL, sizeof(seq_state), 0};
  seq_state st = {{1, 0}, 0, 0, 0};
  int rc = adapt_seq_run("soak", n, 8, &k, &c, &st, &a);
  if (atomic_load_explicit(&c.bad, memory_order_relaxed))
    failf("%s: a piece was run or merged out of sequence order", desc);
  if (c.stop_at < n) {
    /* Stopped: the error given, every unit below the limit exactly once
     * and merged in order, none twice. */
    if (rc != -EINTR) failf("%s returned %d, not -EINTR", desc, rc);
    size_t end = st.started ? st.pos : 0;
    affine want = {1, 0};
    for (size_t i = 0; i < end; i++) want = compose(want, affine_of(i));
    if (end <= c.stop_at || !affine_eq(st.acc, want))
      failf("%s: the master's result does not cover [0, %zu] in order", desc, c.stop_at);
    visits_check(&c.m, desc, c.stop_at + 1, n);
  } else {
    check_rc(desc, rc);
    affine want = {1, 0};
    for (size_t i = 0; i < n; i++) want = compose(want, affine_of(i));
    if (n && (st.first != 0 || st.pos != n || !affine_eq(st.acc, want)))
      failf("%s: merged out of sequence order", desc);
    visits_check(&c.m, desc, n, n);
  }
  count(&c_iters, n);
}

/* --- Regions, foreign threads, cycles ------------------------------------- */

static void region(rng *r, int depth) {
  count(&c_regions, 1);
  switch (rnd(r, 5)) {
  case 0: region_for(r, depth); break;
  case 1: region_tasks(r, depth); break;
  case 2: region_algo(r, depth); break;
  case 3: region_seq(r, depth); break;
  default: region_adaptive(r, depth); break;
  }
}

typedef struct foreign {
  pthread_t t;
  rng r;
  int regions;
} foreign;

static void *foreign_main(void *p) {
  foreign *f = p;
  for (int i = 0; i < f->regions; i++) {
    count(&c_top, 1);
    region(&f->r, 0);
  }
  return NULL;
}

/* 1-3 threads of this program run regions while this one runs its own;
 * all are joined before returning (never across adapt_finalize). */
static void with_foreign_threads(rng *r) {
  foreign f[3];
  int nf = 1 + (int)rnd(r, 3), started = 0;
  for (int i = 0; i < nf; i++) {
    f[i].r.s = next(r);
    f[i].regions = 1 + (int)rnd(r, 4);
    if (pthread_create(&f[i].t, NULL, foreign_main, &f[i]) != 0) break;
    started++;
    count(&c_foreign, 1);
  }
  int mine = 1 + (int)rnd(r, 3);
  for (int i = 0; i < mine; i++) {
    count(&c_top, 1);
    region(r, 0);
  }
  for (int i = 0; i < started; i++) pthread_join(f[i].t, NULL);
}

/* Threads named adapt-worker (adapt_test_worker_threads), once the
 * joined ones have left /proc (a few instructions after pthread_join;
 * gives up after 10 s). */
static int worker_threads(void) {
  int n = 0;
  for (int tries = 0; tries < 10000; tries++) {
    n = adapt_test_worker_threads();
    if (n == 0) break;
    usleep(1000);
  }
  return n;
}

static void cycle(rng *r, int regions) {
  static const unsigned spins[] = {0, 20, 200, 2000};
  static const unsigned timeouts[] = {0, 5, 50, 1000};
  adapt_config cfg = {0};
  cfg.workers = 1 + (int)rnd(r, MAX_WORKERS);
  cfg.bind = rnd(r, 2) ? 1 : -1;
  cfg.victim = (adapt_victim_policy)rnd(r, 3);
  cfg.steal_order = (adapt_steal_order)rnd(r, 3);
  cfg.spin_us = spins[rnd(r, 4)];
  cfg.steal_timeout_us = timeouts[rnd(r, 4)];
  running_cfg = NULL;
  if (rnd(r, 8)) { /* else: started lazily by the first region, defaults */
    int rc = adapt_init(&cfg);
    check_rc("adapt_init", rc);
    if (rc) return;
    running_cfg = &cfg;
  }
  for (int i = 0; i < regions; i++) {
    if (rnd(r, 16) == 0) {
      with_foreign_threads(r);
    } else {
      count(&c_top, 1);
      region(r, 0);
    }
  }
  for (int w = 0; w < adapt_num_workers(); w++) {
    adapt_worker_stats st;
    check_rc("adapt_stats_get", adapt_stats_get(w, &st));
    c_steals += st.steals;
    c_preempt += st.preemptions;
    c_reduce += st.reductions;
  }
  adapt_finalize();
  int left = worker_threads();
  if (left) failf("%d worker threads left after adapt_finalize", left);
  count(&c_cycles, 1);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void report(const char *when, double elapsed) {
  printf("soak: %s %.0f s: cycles %lu, regions %lu (top-level %lu, nested %lu of which %lu on "
         "a joined thread; foreign threads %lu), "
         "iterations %lu, steals %llu, preemptions %llu, reductions %llu, failures %lu\n",
         when, elapsed, get(&c_cycles), get(&c_regions), get(&c_top), get(&c_nested),
         get(&c_joined), get(&c_foreign), get(&c_iters), c_steals, c_preempt, c_reduce,
         get(&c_failures));
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *variant = getenv("ADAPT_TEST_VARIANT");
  int sanitized = variant && strcmp(variant, "release") != 0;
  double seconds = 0;
  unsigned long max_regions = sanitized ? 2000 : 3000, seed = 1;
  int seeded = 0, quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(argv[i], "--minutes") && v) {
      seconds = 60 * atof(v), i++;
    } else if (!strcmp(argv[i], "--seconds") && v) {
      seconds = atof(v), i++;
    } else if (!strcmp(argv[i], "--regions") && v) {
      max_regions = strtoul(v, NULL, 10), i++;
    } else if (!strcmp(argv[i], "--seed") && v) {
      seed = strtoul(v, NULL, 10), seeded = 1, i++;
    } else if (!strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else {
      fprintf(stderr, "usage: %s [--minutes M | --seconds S | --regions N] [--seed X] [--quiet]\n",
              argv[0]);
      return 2;
    }
  }
  if (seconds > 0) {
    max_regions = 0; /* the duration decides */
    if (!seeded) seed = (unsigned long)time(NULL);
  }
  if (sanitized) size_cap >>= 3;
  rng r = {seed};
  main_thread = pthread_self();
  printf("soak: seed %lu, %s %.0f, 1-%d workers, sizes up to %zu (reproduce: --seed %lu)\n", seed,
         seconds > 0 ? "seconds" : "regions", seconds > 0 ? seconds : (double)max_regions,
         MAX_WORKERS, size_cap, seed);
  fflush(stdout);
  double t0 = now_s(), next_report = 60;
  /* The resources between cycles (no runtime) against those after the
   * first tenth of the run (allocators and VTK-free libraries warmed up). */
  soak_resources base = {-1, -1, -1}, cur;
  int have_base = 0, grew = 0;
  for (;;) {
    double el = now_s() - t0;
    if (seconds > 0 ? el >= seconds : get(&c_top) >= max_regions) break;
    if (!have_base && (seconds > 0 ? el >= seconds / 10 : get(&c_top) >= max_regions / 10)) {
      soak_resources_sample(&base);
      have_base = 1;
    }
    if (!quiet && el >= next_report) {
      report("after", el);
      if (have_base) {
        soak_resources_sample(&cur);
        grew |= soak_resources_check(&base, &cur, !sanitized);
      }
      next_report += 60;
    }
    cycle(&r, 1 + (int)rnd(&r, 100));
  }
  report("done in", now_s() - t0);
  if (have_base) {
    soak_resources_sample(&cur);
    grew |= soak_resources_check(&base, &cur, !sanitized);
  }
  return get(&c_failures) || grew ? 1 : 0;
}
