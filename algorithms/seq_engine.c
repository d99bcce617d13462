/* The adaptive sequence engine (see seq_engine.h for the modes). */
#include "seq_engine.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adapt_ext.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* b + d clamped to n (b <= n). */
static size_t add_clamp(size_t b, size_t d, size_t n) { return n - b > d ? b + d : n; }

static void ctx_init(adapt__seq_ctx *c, const adapt__seq_kernel *k, void *kctx,
                     const adapt__seq_params *p) {
  c->kernel = k;
  c->kctx = kctx;
  c->p = *p;
  atomic_init(&c->limit, p->n);
  atomic_init(&c->err, 0);
  atomic_init(&c->cancelled, 0);
}

/* Grains calibrated by earlier calls of this thread, by kernel and user
 * callback (adapt__seq_params.grain_key): a call made again (the common
 * case in iterative codes) starts its calibration from the grain the
 * previous one ended with, so a short call pays two or three timed chunks
 * instead of the doubling from 1 (about 12 timed chunks, 24 clock reads, on
 * a cheap operation: 5-7% of a 2^14-element call). Direct-mapped,
 * thread-local: no sharing. */
enum { GRAIN_CACHE = 64 };
typedef struct {
  const adapt__seq_kernel *kernel;
  void (*key)(void);
  size_t grain;
} grain_entry;
/* On the heap, one per thread (adapt__thread_table, adapt_ext.h): NULL
 * when it cannot be made (no cache then). */
ADAPT__THREAD_TABLE_DEFINE(grain_table, grain_entry, GRAIN_CACHE)

static size_t grain_slot(const adapt__seq_kernel *k, void (*key)(void)) {
  uintptr_t h = (uintptr_t)key ^ ((uintptr_t)k >> 3);
  return (size_t)((h >> 4) ^ (h >> 12)) % GRAIN_CACHE;
}

static void master_init(const adapt__seq_ctx *c, adapt__seq_work *w) {
  memset(w, 0, sizeof *w);
  w->master = 1;
  w->grain = c->p.grain;
  if (c->p.auto_grain && c->p.grain_key) {
    size_t s = grain_slot(c->kernel, c->p.grain_key);
    grain_entry *gc = grain_table();
    if (gc && gc[s].kernel == c->kernel && gc[s].key == c->p.grain_key)
      w->grain = min_size(gc[s].grain, c->p.window);
  }
  w->calibrate = c->p.auto_grain ? ADAPT_ALGO_GRAIN_STRIKES : 0;
  w->recheck = ADAPT_ALGO_GRAIN_RECHECK;
  /* The first window (all of [0, n) in NONE mode). */
  w->iend = w->ilast = min_size(c->p.window, c->p.n);
}

void adapt__seq_stop(adapt__seq_ctx *c, size_t at, int err) {
  if (err) {
    int none = 0;
    /* relaxed: the error code is read by the master after adapt_end, which
     * acquires every thief's FINAL state (their writes happen before). */
    atomic_compare_exchange_strong_explicit(&c->err, &none, err, memory_order_relaxed,
                                            memory_order_relaxed);
  }
  /* relaxed: see adapt__seq_limit; the final value is read after adapt_end. */
  size_t cur = atomic_load_explicit(&c->limit, memory_order_relaxed);
  while (at < cur && !atomic_compare_exchange_weak_explicit(
                         &c->limit, &cur, at, memory_order_relaxed, memory_order_relaxed)) {}
}

/* Pieces a range of L units can give to k requests keeping the first part,
 * each thief getting tp parts for the kept one: every part at least g
 * units. */
static size_t local_pieces(size_t L, size_t k, size_t g, size_t tp) {
  if (k == 0 || L / g < 1 + tp) return 0;
  return min_size(k, (L / g - 1) / tp);
}

/* Give nl pieces of tp parts each from the tail of w's range [ibeg, iend),
 * which keeps one part (and the remainder of the division). */
static size_t give_local(adapt__seq_work *w, size_t nl, size_t tp, adapt_reply_set *rs) {
  size_t L = w->iend - w->ibeg, q = tp * (L / (nl * tp + 1)), given = 0;
  for (size_t j = 0; j < nl; j++) {
    size_t e = w->iend, b = e - q;
    adapt__seq_work *t = adapt_reply(rs, b);
    if (!t) break;
    t->start = t->ibeg = b;
    t->iend = t->ilast = e;
    t->grain = w->grain;
    t->calibrate = w->calibrate ? ADAPT_ALGO_GRAIN_STRIKES : 0; /* still growing */
    t->recheck = ADAPT_ALGO_GRAIN_RECHECK;
    t->strikes = 0;
    w->iend = b;
    given++;
  }
  return given;
}

/* Give nd pieces covering [w->ilast, dend) (master, SLIDING). */
static size_t give_distant(adapt__seq_work *w, size_t dend, size_t nd, adapt_reply_set *rs) {
  size_t D = dend - w->ilast, q = D / nd, r = D % nd, given = 0;
  for (size_t j = 0; j < nd; j++) {
    size_t b = w->ilast, e = b + q + (j < r);
    adapt__seq_work *t = adapt_reply(rs, b);
    if (!t) break;
    t->start = t->ibeg = b;
    t->iend = t->ilast = e;
    t->grain = w->grain;
    t->calibrate = w->calibrate ? ADAPT_ALGO_GRAIN_STRIKES : 0;
    t->recheck = ADAPT_ALGO_GRAIN_RECHECK;
    t->strikes = 0;
    w->ilast = e;
    given++;
  }
  return given;
}

/* The splitter: runs on the owner of w, at one of its steal points or while
 * it waits for a preempted thief. */
static void splitter(adapt_frame *f, void *work, int count, adapt_reply_set *rs, void *ctx) {
  (void)f;
  adapt__seq_ctx *c = ctx;
  adapt__seq_work *w = work;
  size_t lim = adapt__seq_limit(c);
  if (count <= 0 || w->ibeg >= lim) return;
  size_t g = w->grain ? w->grain : 1;
  size_t k = (size_t)count;
  size_t L = w->iend > w->ibeg ? w->iend - w->ibeg : 0;
  size_t dend = 0, D = 0;
  if (w->master && c->p.mode == ADAPT_WINDOW_SLIDING) {
    /* Free units after the stolen area, up to m past the oldest unfinished
     * unit (base: the master's chunk in progress, or its next one). */
    dend = min_size(add_clamp(w->base, c->p.window, c->p.n), lim);
    if (dend > w->ilast) D = dend - w->ilast;
  }
  size_t nl = 0, nd = 0, tp = c->p.thief_parts;
  if (D == 0 || c->p.splitter == ADAPT_SPLITTER_LOCAL) {
    nl = local_pieces(L, k, g, tp);
    nd = D ? min_size(k - nl, D / g) : 0;
  } else if (c->p.splitter == ADAPT_SPLITTER_DISTANT) {
    nd = min_size(k, D / g);
    nl = local_pieces(L, k - nd, g, tp);
  } else { /* BALANCED: equal pieces over both sides (a local one of tp
            * parts), the owner keeps one */
    size_t q = (L + D) / (k + 1);
    if (q < g) q = g;
    nl = (k && L / q >= 1 + tp) ? min_size(k, (L / q - 1) / tp) : 0;
    nd = min_size(k - nl, D / q);
    if (nd == 0 && k > nl && D >= g) nd = 1;
  }
  if (nl) give_local(w, nl, tp, rs);
  if (nd) give_distant(w, dend, nd, rs);
}

/* The reducer: merge thief t into its victim v, in sequence order. */
static void reducer(void *victim, void *thief, void *ctx) {
  adapt__seq_ctx *c = ctx;
  adapt__seq_work *v = victim, *t = thief;
  if (v->ibeg == v->iend && v->ibeg == t->start) {
    if (c->kernel->merge) c->kernel->merge(c, v, t);
    /* The victim goes on with the thief's unprocessed rest (empty when the
     * thief finished). */
    v->ibeg = t->ibeg;
    v->iend = t->iend;
  } else {
    /* Not contiguous: the victim abandoned its range after a stop, and every
     * unit of t is past the limit. Anything else is a protocol error. */
    if (adapt__seq_limit(c) >= c->p.n) adapt__seq_stop(c, 0, -EPROTO);
    if (c->kernel->discard) c->kernel->discard(c, t);
  }
}

/* adapt_cancel's hook: stop everything, the call returns -ECANCELED. */
static void seq_cancel(void *cv) { adapt__seq_stop(cv, 0, -ECANCELED); }

static void dowork_piece(adapt_frame *f, adapt__seq_work *w, adapt__seq_ctx *c);

/* A piece (the master's or a thief's) runs with the call as the target of
 * adapt_cancel. */
static void dowork(adapt_frame *f, adapt__seq_work *w, adapt__seq_ctx *c) {
  adapt__cancel_scope scope = {.flag = &c->cancelled, .hook = seq_cancel, .hook_arg = c};
  adapt__cancel_push(&scope);
  dowork_piece(f, w, c);
  adapt__cancel_pop(&scope);
}

/* ADAPT_TRACE: the units [b, e) a piece ran in one stretch since t0. */
static void trace_run(adapt_frame *f, int tracing, uint64_t t0, size_t b, size_t e) {
  if (tracing && e > b) adapt__trace_range(f, t0, now_ns(), b, e);
}

static void dowork_piece(adapt_frame *f, adapt__seq_work *w, adapt__seq_ctx *c) {
  const adapt__seq_kernel *k = c->kernel;
  const size_t n = c->p.n, m = c->p.window;
  const int sliding = c->p.mode != ADAPT_WINDOW_STATIC; /* NONE: sliding with m = n */
  const size_t gmax = min_size(ADAPT_ALGO_GRAIN_MAX, m);
  const int tracing = adapt__trace_ranges_on();
  for (;;) {
    /* one stretch of contiguous units, traced as one range */
    const size_t run_b = w->ibeg;
    const uint64_t run_t = tracing ? now_ns() : 0;
    while (w->ibeg < w->iend) {
      w->base = w->ibeg;
      /* The sliding window moved: its far side may give thieves units it
       * refused them before. */
      if (w->master && c->p.mode == ADAPT_WINDOW_SLIDING) adapt_work_grew(f);
      adapt_steal_point(f);
      size_t lim = adapt__seq_limit(c);
      if (w->ibeg >= lim) { /* stopped: abandon the rest */
        w->iend = w->ibeg;
        break;
      }
      size_t b = w->ibeg, e = add_clamp(b, w->grain, w->iend);
      if (e > lim) e = lim;
      w->ibeg = e; /* claim before running: a nested steal point may split */
      if (w->calibrate) {
        uint64_t t0 = now_ns();
        k->run(c, w, b, e);
        uint64_t dt = now_ns() - t0;
        /* calibrate counts down the slow chunks still tolerated: one slow
         * chunk (a page fault, an interrupt) does not end the growth; a
         * chunk over four times the target (a grain remembered from a call
         * with cheaper elements) scales the grain down to the target (at
         * most 8x at once), as one strike */
        if (dt > 4u * ADAPT_ALGO_GRAIN_TARGET_NS && w->grain > 1) {
          size_t g = (size_t)((uint64_t)w->grain * ADAPT_ALGO_GRAIN_TARGET_NS / dt);
          w->grain = g > w->grain / 8 ? g : w->grain / 8;
          if (w->grain == 0) w->grain = 1;
          w->calibrate--;
          adapt_work_grew(f); /* a finer grain may split what was refused */
        } else if (w->grain >= gmax || (dt >= ADAPT_ALGO_GRAIN_TARGET_NS && --w->calibrate == 0)) {
          w->calibrate = 0;
        } else if (dt < ADAPT_ALGO_GRAIN_TARGET_NS) {
          w->grain = min_size(w->grain * 2, gmax);
        }
      } else if (c->p.auto_grain && --w->recheck == 0) {
        /* calibrated: one chunk in ADAPT_ALGO_GRAIN_RECHECK timed, the
         * grain following a cost that changes along the sequence */
        w->recheck = ADAPT_ALGO_GRAIN_RECHECK;
        uint64_t t0 = now_ns();
        k->run(c, w, b, e);
        const size_t before = w->grain;
        w->grain = adapt__grain_rescale(before, e - b, now_ns() - t0, ADAPT_ALGO_GRAIN_TARGET_NS,
                                        gmax, &w->recheck, &w->strikes);
        if (w->grain < before) adapt_work_grew(f); /* a finer grain may split what was refused */
      } else {
        k->run(c, w, b, e);
      }
      if (adapt_preempt_point(f)) {
        trace_run(f, tracing, run_t, run_b, w->ibeg);
        return;
      }
      if (w->master && sliding && w->iend == w->ilast) /* no thief: slide */
        w->iend = w->ilast = add_clamp(e, m, n);
    }
    trace_run(f, tracing, run_t, run_b, w->ibeg);
    if (adapt_preempt_point(f)) return;
    if (adapt_preempt_next_thief(f)) continue; /* its rest is ours now */
    if (!w->master) return;
    /* The master with no thief left: everything before ibeg is done. */
    if (w->ibeg >= n || w->ibeg >= adapt__seq_limit(c)) return;
    w->iend = w->ilast = add_clamp(w->ibeg, m, n); /* next window */
    adapt_work_grew(f);
  }
}

static void thief_entry(adapt_frame *f, void *work, void *ctx) { dowork(f, work, ctx); }

typedef struct map_loop {
  adapt__seq_ctx *c;
  adapt__seq_work *w;
} map_loop;

static void map_body(size_t b, size_t e, void *arg) {
  map_loop *m = arg;
  size_t lim = adapt__seq_limit(m->c); /* early stop (find_if): once per chunk */
  if (e > lim) e = lim;
  /* adapt_cancel from run() reaches the adapt_for below (its scope is
   * pushed around this chunk); exec maps its -ECANCELED to this call. */
  if (b < e) m->c->kernel->run(m->c, m->w, b, e);
}

/* The detail, for the calling thread, of an error that a worker recorded
 * with adapt__seq_stop while the call ran. */
static int run_error(const adapt__seq_ctx *c, int err) {
  switch (err) {
  case 0: return 0;
  case -ENOMEM: return adapt__fail(err, "%s: out of memory for a partial result", c->p.fn);
  case -ERANGE: return adapt__fail(err, "%s: op returned more than max_out outputs", c->p.fn);
  case -ECANCELED: return adapt__fail(err, "%s: cancelled by a body", c->p.fn);
  case -EPROTO:
    return adapt__fail(err, "%s: internal protocol error in the sequence engine (a libadapt bug)",
                       c->p.fn);
  default: return adapt__fail(err, "%s: %s", c->p.fn, adapt_strerror(err));
  }
}

static const char *mode_name(adapt_window_mode m) {
  return m == ADAPT_WINDOW_STATIC ? "static" : m == ADAPT_WINDOW_SLIDING ? "sliding" : "none";
}

static int exec(adapt__seq_ctx *c, adapt__seq_work *w) {
  if (c->p.n == 0) return 0;
  adapt_sched s = c->p.sched;
  if (!c->kernel->merge && !c->kernel->discard) {
    if (s == ADAPT_SCHED_DEFAULT) s = c->p.sched_default; /* ADAPT_SCHED */
    if (s != ADAPT_SCHED_ADAPTIVE) {
      if (c->p.mode != ADAPT_WINDOW_NONE)
        return adapt__fail(-ENOTSUP, "%s: window mode %s needs the adaptive scheduler (%s is %s)",
                           c->p.fn, mode_name(c->p.mode),
                           c->p.sched == ADAPT_SCHED_DEFAULT ? "ADAPT_SCHED" : "attr.sched",
                           adapt_sched_name(s));
      adapt_attr a = {0};
      a.sched = s;
      a.grain = c->p.auto_grain ? 0 : c->p.grain;
      map_loop m = {c, w};
      int rc = adapt_for(0, c->p.n, map_body, &m, &a);
      if (rc == -ECANCELED) return run_error(c, rc); /* the detail names this call */
      /* relaxed: adapt_for has joined every chunk. */
      return rc ? rc : run_error(c, atomic_load_explicit(&c->err, memory_order_relaxed));
    }
  } else if (s != ADAPT_SCHED_DEFAULT && s != ADAPT_SCHED_ADAPTIVE) {
    return adapt__fail(-ENOTSUP,
                       "%s: attr.sched %s does not apply (merging in sequence order needs the "
                       "adaptive scheduler)",
                       c->p.fn, adapt_sched_name(s));
  }
  adapt_task task = {
      .entry = thief_entry,
      .splitter = splitter,
      .reducer = reducer,
      .work_size = sizeof(adapt__seq_work),
      .ctx = c,
  };
  adapt_frame f;
  int rc = adapt_begin(&f, &task, w);
  if (rc) return rc;
  dowork(&f, w, c);
  adapt_end(&f);
  /* relaxed: adapt_end acquired every thief's FINAL state. */
  return run_error(c, atomic_load_explicit(&c->err, memory_order_relaxed));
}

int adapt__seq_run(adapt__seq_ctx *c, adapt__seq_work *w, const adapt__seq_kernel *k, void *kctx,
                   const adapt__seq_params *p, const void *acc_init, size_t acc_bytes) {
  ctx_init(c, k, kctx, p);
  master_init(c, w);
  if (acc_init) memcpy(w->acc, acc_init, acc_bytes);
  /* Worker limit: the call runs in a team of its own (adapt_ext.h): the
   * frame, or the loop, that exec begins takes it. */
  adapt__team team;
  if (p->max_workers) adapt__team_enter(&team, p->max_workers);
  int rc = exec(c, w);
  if (p->max_workers) adapt__team_leave(&team);
  if (c->p.auto_grain && c->p.grain_key && w->calibrate == 0) { /* learned a grain */
    size_t s = grain_slot(k, c->p.grain_key);
    grain_entry *gc = grain_table();
    if (gc) {
      gc[s].kernel = k;
      gc[s].key = c->p.grain_key;
      gc[s].grain = w->grain;
    }
  }
  return rc;
}

int adapt__seq_run_elems(const char *fn, const adapt__seq_kernel *k, void *kctx, size_t count,
                         size_t footprint, void (*key)(void), void *acc, size_t acc_bytes,
                         const adapt_attr *attr) {
  adapt__seq_params p;
  int rc = adapt__seq_params_resolve(fn, attr, count, 1, footprint, &p);
  if (rc || count == 0) return rc;
  p.grain_key = key;
  adapt__seq_ctx c;
  adapt__seq_work w;
  rc = adapt__seq_run(&c, &w, k, kctx, &p, acc, acc_bytes);
  if (acc) memcpy(acc, w.acc, acc_bytes);
  return rc;
}

int adapt__seq_realloc(char **buf, size_t *cap_now, size_t cap, size_t size) {
  if (cap > SIZE_MAX / size) return -ENOMEM;
  char *p = realloc(*buf, cap * size);
  if (!p) return -ENOMEM;
  *buf = p;
  *cap_now = cap;
  return 0;
}
