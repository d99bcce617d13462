/* tests/soak: the C regions (soak_region): adapt_for, spawn/sync trees,
 * a user task of the adaptive API, a kernel of the public engine, and the
 * sequence algorithms (soak_algo.c); docs/reliability.md, "Soak". */
#include <adapt/adaptive.h>
#include <adapt/seq.h>
#include <adapt/tasks.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "soak_c.h"

/* --- adapt_for ------------------------------------------------------------- */

typedef struct for_ctx {
  visits m;
  uint64_t seed;
  int depth;
  size_t cancel_at; /* the index whose body calls adapt_cancel; SIZE_MAX: none */
  char desc[112];
} for_ctx;

static void for_body(size_t b, size_t e, void *cv) {
  const for_ctx *c = cv;
  if (b == 0) soak_probe_runtime(c->desc);
  for (size_t i = b; i < e; i++) {
    soak_visit(&c->m, i);
    if (i == c->cancel_at) soak_check_rc("adapt_cancel in a body", adapt_cancel());
  }
  soak_maybe_nest(c->seed, c->depth, b, e);
}

static void region_for(rng *r, int depth) {
  for_ctx c = {.seed = next(r), .depth = depth, .cancel_at = SIZE_MAX};
  size_t n = soak_rnd_size(r, depth);
  adapt_attr a = {0};
  a.sched = (adapt_sched)rnd(r, ADAPT_SCHED_COUNT);
  a.grain = rnd(r, 3) ? 1 + rnd(r, 2048) : 0;
  if (n && rnd(r, 4) == 0) c.cancel_at = rnd(r, n); /* one loop in 4 cancels itself */
  snprintf(c.desc, sizeof c.desc, "adapt_for (n %zu, sched %s, grain %zu, depth %d%s)", n,
           adapt_sched_name(a.sched), a.grain, depth, c.cancel_at < n ? ", cancelled" : "");
  if (soak_visits_new(&c.m, n, r)) return;
  int rc = adapt_for(0, n, for_body, &c, &a);
  if (c.cancel_at < n) {
    /* Cancelled: -ECANCELED, the cancelling index once, every index at most
     * once. */
    if (rc != -ECANCELED) soak_failf("%s returned %d, not -ECANCELED", c.desc, rc);
    soak_count(SOAK_CANCELS, 1);
    if (soak_visits_of(&c.m, c.cancel_at) != 1)
      soak_failf("%s: the cancelling index did not run once", c.desc);
    soak_visits_check(&c.m, c.desc, 0, n);
  } else {
    soak_check_rc(c.desc, rc);
    soak_visits_check(&c.m, c.desc, n, n);
  }
  soak_count(SOAK_ITERS, n);
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
    for (size_t i = lo; i < hi; i++) soak_visit(&c->m, i);
    soak_maybe_nest(c->seed, c->depth, lo, hi);
    return;
  }
  tree_arg parts[4];
  size_t step = (hi - lo + (size_t)c->fanout - 1) / (size_t)c->fanout;
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  soak_check_rc("adapt_scope_begin", rc);
  if (rc) return;
  int k = 0;
  for (size_t b = lo; b < hi; b += step, k++) {
    parts[k] = (tree_arg){c, b, hi - b > step ? b + step : hi};
    if (k > 0) soak_check_rc("adapt_spawn", adapt_spawn(&s, tree_task, &parts[k]));
  }
  tree(c, parts[0].lo, parts[0].hi); /* the first part here, meanwhile */
  soak_check_rc("adapt_sync", adapt_sync(&s));
}

static void region_tasks(rng *r, int depth) {
  tree_ctx c = {.seed = next(r), .depth = depth};
  size_t n = soak_rnd_size(r, depth);
  c.leaf = 1 + rnd(r, 256);
  c.fanout = 2 + (int)rnd(r, 3);
  if (soak_visits_new(&c.m, n, r)) return;
  adapt_scope s;
  int rc = adapt_scope_begin(&s);
  soak_check_rc("adapt_scope_begin", rc);
  if (rc == 0) {
    tree_arg all = {&c, 0, n};
    soak_check_rc("adapt_spawn", adapt_spawn(&s, tree_task, &all));
    soak_check_rc("adapt_sync", adapt_sync(&s));
  }
  soak_visits_check(&c.m, "spawn/sync", n, n);
  soak_count(SOAK_ITERS, n);
}

/* --- The adaptive API: affine maps, composed in sequence order -------------- */

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
  /* A reducer may start a nested soak_region (issue 11, item 8), chosen by the
   * thief's first index. */
  uint64_t h = mix(c->seed ^ mix(t->start + 0x7265647563ull));
  if (c->depth < MAX_DEPTH && h % REDUCER_NEST_ONE_IN == 0) {
    rng sub = {h};
    soak_count(SOAK_NESTED, 1);
    soak_region(&sub, c->depth + 1);
  }
}

static void aff_chunk(aff_work *w, size_t b, size_t e, const void *cv) {
  const aff_ctx *c = cv;
  for (size_t i = b; i < e; i++) {
    soak_visit(&c->m, i);
    w->acc = compose(w->acc, affine_of(i));
  }
  soak_maybe_nest(c->seed, c->depth, b, e);
}

static void aff_entry(adapt_frame *f, void *wv, void *cv) {
  const aff_ctx *c = cv;
  aff_run(f, wv, c->grain, c->preempt, aff_chunk, cv);
}

static void region_adaptive(rng *r, int depth) {
  aff_ctx c = {.seed = next(r), .depth = depth};
  size_t n = soak_rnd_size(r, depth);
  c.preempt = (int)rnd(r, 2);
  c.grain = 1 + rnd(r, 64);
  atomic_init(&c.disorder, 0);
  if (soak_visits_new(&c.m, n, r)) return;
  affine want = {1, 0};
  for (size_t i = 0; i < n; i++) want = compose(want, affine_of(i));
  aff_work w = {0, 0, n, {1, 0}};
  adapt_task task = {aff_entry, aff_splitter, aff_reducer, sizeof(aff_work), &c};
  adapt_frame f;
  int rc = adapt_begin(&f, &task, &w);
  soak_check_rc("adapt_begin", rc);
  if (rc == 0) {
    aff_entry(&f, &w, &c);
    soak_check_rc("adapt_end", adapt_end(&f));
    if (atomic_load_explicit(&c.disorder, memory_order_relaxed) || w.begin != n ||
        !affine_eq(w.acc, want))
      soak_failf("adaptive task (n %zu, preempt %d, grain %zu): reduced out of sequence order", n,
                 c.preempt, c.grain);
  }
  soak_visits_check(&c.m, "adaptive task", n, n);
  soak_count(SOAK_ITERS, n);
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
    soak_visit(&c->m, i);
    st->acc = compose(st->acc, affine_of(i));
    if (i == c->stop_at) adapt_seq_stop(s, i + 1, -EINTR);
  }
  st->pos = e;
  soak_maybe_nest(c->seed, c->depth, b, e);
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
  size_t n = soak_rnd_size(r, depth);
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
  if (soak_visits_new(&c.m, n, r)) return;
  const adapt_seq_kernel k = {seq_run_cb, seq_merge_cb, NULL, sizeof(seq_state), 0};
  seq_state st = {{1, 0}, 0, 0, 0};
  int rc = adapt_seq_run("soak", n, 8, &k, &c, &st, &a);
  if (atomic_load_explicit(&c.bad, memory_order_relaxed))
    soak_failf("%s: a piece was run or merged out of sequence order", desc);
  if (c.stop_at < n) {
    /* Stopped: the error given, every unit below the limit exactly once
     * and merged in order, none twice. */
    if (rc != -EINTR) soak_failf("%s returned %d, not -EINTR", desc, rc);
    soak_count(SOAK_CANCELS, 1);
    size_t end = st.started ? st.pos : 0;
    affine want = {1, 0};
    for (size_t i = 0; i < end; i++) want = compose(want, affine_of(i));
    if (end <= c.stop_at || !affine_eq(st.acc, want))
      soak_failf("%s: the master's result does not cover [0, %zu] in order", desc, c.stop_at);
    soak_visits_check(&c.m, desc, c.stop_at + 1, n);
  } else {
    soak_check_rc(desc, rc);
    affine want = {1, 0};
    for (size_t i = 0; i < n; i++) want = compose(want, affine_of(i));
    if (n && (st.first != 0 || st.pos != n || !affine_eq(st.acc, want)))
      soak_failf("%s: merged out of sequence order", desc);
    soak_visits_check(&c.m, desc, n, n);
  }
  soak_count(SOAK_ITERS, n);
}

/* --- Dispatch -------------------------------------------------------------- */

void soak_region(rng *r, int depth) {
  soak_count(SOAK_REGIONS, 1);
  switch (rnd(r, 5)) {
  case 0: region_for(r, depth); break;
  case 1: region_tasks(r, depth); break;
  case 2: soak_region_algo(r, depth); break;
  case 3: region_seq(r, depth); break;
  default: region_adaptive(r, depth); break;
  }
}
