/* adapt_for: the adaptive range loop, the first algorithm on the protocol.
 *
 * Work descriptor: [begin, end) still to run, the grain, and whether the
 * grain is still being calibrated. The owner claims [begin, begin+grain)
 * (writes begin) before calling the body, so a splitter run at any steal
 * point of this worker (this loop's or one nested in the body) sees only
 * unclaimed iterations, and gives thieves the tail: [end - piece, end). */
/* The function itself, not the inline nested path of <adapt/loop.h>. */
#define ADAPT__LOOP_NO_INLINE
#include <errno.h>

#include <adapt/adaptive.h>
#include <adapt/loop.h>

#include "debug.h"
#include "error.h"
#include "frame.h"
#include "idle.h"
#include "lazy.h"
#include "region.h"
#include "schedulers.h"
#include "worker.h"

/* The range descriptor and the call's context (<adapt/loop.h>: the owner
 * loop compiled into callers reads them too). */
typedef adapt__for_work for_work;
typedef adapt__for_ctx for_ctx;

static void for_splitter(adapt_frame *frame, void *wv, int count, adapt_reply_set *rs, void *cv) {
  for_work *w = wv;
  for_ctx *c = cv;
  if (adapt__cancel_seen(&c->cancelled)) return; /* nothing more to hand out */
  size_t g = w->grain ? w->grain : 1;
  size_t r = w->end - w->begin;
  if (r / 2 < g) return; /* the owner keeps at least one grain, thieves get one (no 2g: it wraps) */
  size_t pieces = (size_t)count + 1;
  if (pieces > r / g) pieces = r / g;
  size_t piece = r / pieces;
  size_t e = w->end;
  for (size_t i = 1; i < pieces; i++, e -= piece) {
    for_work *t = adapt_reply(rs, e - piece);
    if (!t) break;
    /* The thief's piece: the tail [e - piece, e), with the owner's grain. */
    *t = (for_work){.begin = e - piece,
                    .end = e,
                    .grain = w->grain,
                    .calibrating = w->calibrating,
                    .autograin = w->autograin,
                    .slow_chunks = 0,
                    .probe = w->autograin ? ADAPT_GRAIN_PROBE : 0};
  }
  w->end = e;
}

/* Calibration of the automatic grain: double it while a chunk takes less
 * than ADAPT_GRAIN_TARGET_NS, halve it while a chunk takes more than four
 * times the target, and stop after two consecutive chunks at or above the
 * target (one slow chunk may be a page fault or an interrupt). */
static void calibrate(for_work *w, uint64_t dt) {
  if (dt < ADAPT_GRAIN_TARGET_NS) {
    w->slow_chunks = 0;
    if (w->grain < ADAPT_GRAIN_MAX)
      w->grain *= 2;
    else
      w->calibrating = 0;
  } else if (dt > 4u * ADAPT_GRAIN_TARGET_NS && w->grain > 1 && w->slow_chunks == 0) {
    w->grain /= 2;
    w->slow_chunks = 1;
  } else if (++w->slow_chunks >= 2) {
    w->calibrating = 0;
  }
}

/* After calibration (adapt_ext.h): one chunk in ADAPT_GRAIN_PROBE is timed
 * and brings the grain back to about the target (a loop whose iterations
 * get more or less expensive along the range, e.g. triangular: otherwise
 * steal requests wait for long chunks). */
enum { RESCALE_MAX = 8 };
size_t adapt__grain_rescale(size_t g, size_t n, uint64_t dt, uint64_t target_ns, size_t max,
                            unsigned *probe, int *strikes) {
  if (n < g) return g; /* a last, short chunk says little */
  uint64_t ng;
  if (dt > 4u * target_ns) {
    if (!*strikes) {
      *strikes = 1;
      *probe = 1;
      return g;
    }
    ng = (uint64_t)g * target_ns / dt;
  } else if (dt < target_ns / 2u && g < max) {
    ng = dt ? (uint64_t)g * target_ns / dt : (uint64_t)g * RESCALE_MAX;
  } else {
    *strikes = 0;
    return g;
  }
  *strikes = 0;
  if (ng < g / RESCALE_MAX || ng > (uint64_t)g * RESCALE_MAX) {
    ng = ng < g ? g / RESCALE_MAX : (uint64_t)g * RESCALE_MAX;
    *probe = 1;
  }
  if (ng > max) ng = max;
  return ng ? (size_t)ng : 1;
}

/* Grains learned by earlier loops of this thread, by body: a loop run again
 * (the common case in iterative codes) does not calibrate again. It starts
 * with the grain the previous run ended with, and goes on with that run's
 * count of chunks to the next timed one, so that the clock is read for one
 * chunk in ADAPT_GRAIN_PROBE over consecutive runs, not for the first chunks
 * of every run (two clock reads, about 50 ns, are a third of the 2% of a
 * 6 us loop). A run whose iterations cost far more or less than the last
 * run's is rescaled at its first timed chunk (adapt__grain_rescale). A run too short to
 * finish the calibration leaves it where it stopped: the next run goes on
 * from that grain (a loop of 64 iterations calibrated from grain 1 on
 * every call read the clock 12 times a call). Direct-mapped, thread-local:
 * no sharing. */
enum { GRAIN_CACHE = 64 };
typedef struct {
  void (*body)(size_t, size_t, void *);
  size_t grain;
  unsigned probe;
  unsigned calibrating; /* the calibration goes on from grain */
} grain_entry;
/* On the heap, one per thread (adapt__thread_table, adapt_ext.h): NULL
 * when it cannot be made (no cache then). */
ADAPT__THREAD_TABLE_DEFINE(grain_table, grain_entry, GRAIN_CACHE)

static size_t grain_slot(void (*body)(size_t, size_t, void *)) {
  uintptr_t h = (uintptr_t)body;
  return (size_t)((h >> 4) ^ (h >> 12)) % GRAIN_CACHE;
}

/* Claim the next chunk of at most g iterations into [*b, *e) before the
 * body runs: 0 when none is left, or when the loop was cancelled (the rest
 * is then abandoned). */
static inline int claim_chunk(for_work *w, for_ctx *c, size_t g, size_t *b, size_t *e) {
  size_t s = w->begin, r = w->end - s;
  if (r == 0) return 0;
  if (ADAPT_UNLIKELY(adapt__cancel_seen(&c->cancelled))) {
    w->begin = w->end; /* abandon the rest */
    return 0;
  }
  *b = s;
  *e = s + (r < g ? r : g);
  w->begin = *e;
  return 1;
}

/* The owner's loop at a set grain g (no timed chunks): <adapt/loop.h>'s
 * adapt__for_owner, which a caller's adapt_for at a set grain compiles in
 * (adapt__for_top); here for the thieves' pieces and for the calls that
 * reach the function. What it reads every chunk lies on the worker's poll
 * word and on the loop's own descriptor and context (the owner's lines; a
 * thief writes neither): the next index b and the end are reloaded from w
 * after each chunk (only the owner writes w->begin; a splitter, at this
 * poll or at a steal point inside the body, may have lowered w->end), body
 * and ctx are read once and the cancel flag through c. Reloaded, b goes
 * straight into the body's first argument register: at grain 1 gcc emits
 * 11 instructions per chunk, 13 with b kept in a callee-saved register (a
 * copy and a spilled ctx). One function per case, not inlined into
 * for_run: each has its own registers for the loop's live values (no
 * spilled pointer reloaded every chunk). */
static __attribute__((noinline)) void run_grain1(adapt_frame *frame, for_work *w, for_ctx *c) {
  adapt__for_owner(frame, w, &c->cancelled, 1, c->body, c->ctx, 0);
}

static __attribute__((noinline)) void run_fixed(adapt_frame *frame, for_work *w, for_ctx *c) {
  adapt__for_owner(frame, w, &c->cancelled, w->grain, c->body, c->ctx, 0);
}

/* The owner's loop at the automatic grain after calibration: one chunk in
 * ADAPT_GRAIN_PROBE is timed and may rescale the grain. */
static void run_probing(adapt_frame *frame, for_work *w, for_ctx *c) {
  const atomic_uint *poll = (const atomic_uint *)frame->adapt_priv_poll;
  size_t g = w->grain;
  void (*const body)(size_t, size_t, void *) = c->body;
  void *const uctx = c->ctx;
  /* Chunks to the next timed one: where the calibration (or, for a loop
   * run again, the previous run) left the count. */
  unsigned probe = w->probe;
  if (probe == 0) {
    probe = ADAPT_GRAIN_PROBE;
    w->slow_chunks = 0; /* the calibration's count */
  }
  for (;;) {
    /* relaxed: hint, as in adapt_steal_point (the slow path acquires). */
    if (ADAPT_UNLIKELY(atomic_load_explicit(poll, memory_order_relaxed) != 0))
      adapt__steal_slow(frame);
    size_t b, e;
    if (!claim_chunk(w, c, g, &b, &e)) break;
    if (ADAPT_UNLIKELY(probe != 0 && --probe == 0)) {
      probe = ADAPT_GRAIN_PROBE;
      uint64_t t0 = adapt__now_ns();
      body(b, e, uctx);
      size_t before = g;
      g = adapt__grain_rescale(g, e - b, adapt__now_ns() - t0, ADAPT_GRAIN_TARGET_NS,
                               ADAPT_GRAIN_MAX, &probe, &w->slow_chunks);
      w->grain = g; /* thieves' pieces inherit it */
      /* A finer grain may split what the splitter refused (r / 2 < g). */
      if (g < before) adapt__regrown(adapt__frame_of(frame)->w);
    } else {
      body(b, e, uctx);
    }
  }
  w->probe = probe;
}

/* The start of a run of a range on this thread (the owner's, or a thief's
 * piece): the loop's cancellation scope pushed, and with range tracing on
 * its first index and start time kept. */
static inline void range_start(adapt__for_run *r, for_ctx *c, const for_work *w) {
  r->scope = (adapt__cancel_scope){.flag = &c->cancelled};
  adapt__cancel_push(&r->scope);
  r->tracing = (adapt__trace_mask & ADAPT__TRACE_RANGE) != 0;
  r->first = w->begin;
  r->t_first = r->tracing ? adapt__now_ns() : 0;
}

/* Its end: the range traced (from its first index to where the run
 * stopped), the scope popped. */
static inline void range_end(adapt_frame *frame, adapt__for_run *r, const for_work *w) {
  if (r->tracing)
    adapt__trace(adapt__frame_of(frame)->w, ADAPT__TRACE_RANGE, r->t_first, adapt__now_ns(),
                 r->first, w->begin);
  adapt__cancel_pop(&r->scope);
}

static void for_run(adapt_frame *frame, void *wv, void *cv) {
  for_work *w = wv;
  for_ctx *c = cv;
  adapt__for_run run;
  range_start(&run, c, w);
  while (w->calibrating && w->begin < w->end) {
    adapt_steal_point(frame);
    size_t b, e;
    if (!claim_chunk(w, c, w->grain, &b, &e)) break;
    if (e - b < w->grain) { /* a last, short chunk says little: not timed */
      c->body(b, e, c->ctx);
      continue;
    }
    uint64_t t0 = adapt__now_ns();
    c->body(b, e, c->ctx);
    size_t before = w->grain;
    calibrate(w, adapt__now_ns() - t0);
    if (w->grain < before) adapt__regrown(adapt__frame_of(frame)->w); /* as in run_probing */
  }
  if (w->autograin)
    run_probing(frame, w, c);
  else
    (w->grain == 1 ? run_grain1 : run_fixed)(frame, w, c);
  range_end(frame, &run, w);
}

/* adapt_for's result once every chunk has returned: -ECANCELED when a body
 * cancelled the loop. relaxed: the region's join (adapt_end, or the
 * scheduler's sync) ordered every worker's store before this read. */
static int for_result(for_ctx *c) {
  if (adapt__cancel_seen(&c->cancelled))
    return adapt__fail(-ECANCELED, "adapt_for: cancelled by a body");
  return 0;
}

int adapt__for_cancelled(void) { return adapt__lazy_cancelled(); }

/* The checks of adapt_for's attribute (the slow path of a call with one):
 * 0, or -EINVAL with the detail. */
static __attribute__((noinline, cold)) int check_attr(const adapt_attr *a) {
  if ((int)a->sched < ADAPT_SCHED_DEFAULT || (int)a->sched >= ADAPT_SCHED_COUNT)
    return adapt__fail(-EINVAL, "adapt_for: attr.sched %d is not an adapt_sched", (int)a->sched);
  const char *field = a->window        ? "window"
                      : a->window_size ? "window_size"
                      : a->splitter    ? "splitter"
                      : a->footprint   ? "footprint"
                                       : NULL;
  if (field)
    return adapt__fail(
        -EINVAL, "adapt_for: attr.%s does not apply to loops (sequence algorithms only)", field);
  return 0;
}

/* adapt_for with attr->max_workers = k != 0: the same call, without the
 * field, inside a team of k (adapt_ext.h): the frame or scopes it opens
 * take the team, and only its members take pieces. */
static __attribute__((noinline)) int for_limited(size_t first, size_t last,
                                                 void (*body)(size_t, size_t, void *), void *ctx,
                                                 const adapt_attr *attr) {
  adapt_attr a = *attr;
  a.max_workers = 0;
  adapt__team team;
  adapt__team_enter(&team, attr->max_workers);
  int rc = adapt_for(first, last, body, ctx, &a);
  adapt__team_leave(&team);
  return rc;
}

/* The end of an adaptive call once its owner's run is over: the thieves'
 * pieces waited for (adapt_end), the region left, a learned grain
 * remembered (gc: the thread's table, else NULL), the result. */
static int for_finish(adapt__for_call *k, grain_entry *gc, size_t slot) {
  int rc = adapt_end(&k->frame);
  adapt__region_leave(k->region);
  if (gc) { /* a learned grain, or where the calibration stopped: remember it */
    gc[slot].body = k->c.body;
    gc[slot].grain = k->w.grain;
    gc[slot].probe = k->w.probe;
    gc[slot].calibrating = k->w.calibrating;
  }
  return rc ? rc : for_result(&k->c);
}

/* adapt_for past its checks and the nested lazy path: the region entered,
 * the scheduler resolved (sched: the attribute's, DEFAULT if none). inl
 * (adapt__for_open's call, else NULL): an adaptive call at a set grain is
 * left open in it, its owner loop to the caller (returns 1). */
static __attribute__((noinline)) int for_general(size_t first, size_t last,
                                                 void (*body)(size_t, size_t, void *), void *ctx,
                                                 const adapt_attr *attr, adapt_sched sched,
                                                 adapt__for_call *inl) {
  /* Starts the runtime if needed (ADAPT_GRAIN and ADAPT_SCHED are read by
   * adapt_init); its configuration read below stays until the leave. */
  adapt__worker *wk;
  int region, rc = adapt__region_enter(&wk, &region, "adapt_for");
  if (rc) return rc;
  size_t g = attr && attr->grain ? attr->grain : adapt__rt.seq.grain;
  if (sched == ADAPT_SCHED_DEFAULT)
    sched = region == ADAPT__REGION_NESTED ? adapt__rt.nested_sched : adapt__rt.seq.sched;
  if (sched != ADAPT_SCHED_ADAPTIVE) {
    for_ctx c = {body, ctx, 0};
    /* Worker limit: the owner is the first member of the call's team (the
     * adaptive path does it in adapt_begin). */
    if (ADAPT_UNLIKELY(adapt__team_cur != NULL) && !wk->solo)
      adapt__team_join(adapt__team_cur, wk->id);
    adapt__loop l = {body,  ctx,  &c.cancelled,
                     first, last, g ? g : adapt__default_grain(last - first, adapt__rt.nworkers)};
    adapt__for_sched(sched, wk, &l);
    adapt__region_leave(region);
    return for_result(&c);
  }
  adapt__for_call local;
  adapt__for_call *k = inl && g ? inl : &local;
  k->w = (for_work){first, last, 1, 0, 0, 0, 0};
  size_t slot = grain_slot(body);
  grain_entry *gc = g ? NULL : grain_table();
  if (g) {
    k->w.grain = g;
  } else {
    k->w.autograin = 1;
    if (gc && gc[slot].body == body) {
      k->w.grain = gc[slot].grain;
      k->w.probe = gc[slot].probe;
      k->w.calibrating = gc[slot].calibrating;
    } else {
      k->w.calibrating = 1;
    }
  }
  k->c.body = body;
  k->c.ctx = ctx;
  atomic_init(&k->c.cancelled, 0);
  k->task = (adapt_task){for_run, for_splitter, NULL, sizeof(for_work), &k->c};
  k->region = region;
  rc = adapt_begin(&k->frame, &k->task, &k->w);
  if (rc) {
    adapt__region_leave(region);
    return rc;
  }
  if (k == inl) {
    range_start(&k->run, &k->c, &k->w);
    return 1;
  }
  for_run(&k->frame, &k->w, &k->c);
  return for_finish(k, gc, slot);
}

int adapt__for_close(adapt__for_call *k) {
  range_end(&k->frame, &k->run, &k->w);
  return for_finish(k, NULL, 0);
}

/* adapt_for, and adapt__for_open's call when inl is not NULL. */
static int for_call(size_t first, size_t last, void (*body)(size_t, size_t, void *), void *ctx,
                    const adapt_attr *attr, adapt__for_call *inl) {
  adapt__error_clear();
  if (!body) return adapt__fail(-EINVAL, "adapt_for: body is NULL");
  if (first > last) return adapt__fail(-EINVAL, "adapt_for: first > last");
  adapt_sched sched = ADAPT_SCHED_DEFAULT;
  size_t g = 0;
  if (attr) {
    /* One test for the valid case (ADAPT_SCHED_DEFAULT is 0: a negative
     * value wraps above the count; the fields that do not apply to loops
     * or'ed together); check_attr says what is wrong. */
    if ((unsigned)attr->sched >= (unsigned)ADAPT_SCHED_COUNT ||
        ((size_t)(unsigned)attr->window | attr->window_size | (size_t)(unsigned)attr->splitter |
         attr->footprint) != 0) {
      int rc = check_attr(attr);
      if (rc) return rc;
    }
    sched = attr->sched;
    g = attr->grain;
  }
  if (first == last) return 0;
  if (attr && attr->max_workers) return for_limited(first, last, body, ctx, attr);
  /* A nested call resolved to lazy DF or DF2 (the default inside a region)
   * takes the short path: no frame, no team, the scheduler called
   * directly. The configuration is read inside the region: the runtime
   * runs and is not finalized meanwhile. */
  if (ADAPT_LIKELY(adapt__region_is_nested()) && adapt__team_cur == NULL) {
    const adapt_sched s = sched == ADAPT_SCHED_DEFAULT ? adapt__rt.nested_sched : sched;
    if (s == ADAPT_SCHED_LAZY_DF || s == ADAPT_SCHED_LAZY_DF2)
      return adapt__for_lazy_nested_call(first, last, body, ctx, g ? g : adapt__rt.seq.grain,
                                         s == ADAPT_SCHED_LAZY_DF2 ? 2u : 1u);
  }
  return for_general(first, last, body, ctx, attr, sched, inl);
}

int adapt_for(size_t first, size_t last, void (*body)(size_t, size_t, void *), void *ctx,
              const adapt_attr *attr) {
  return for_call(first, last, body, ctx, attr, NULL);
}

int adapt__for_open(adapt__for_call *call, size_t first, size_t last,
                    void (*body)(size_t, size_t, void *), void *ctx, const adapt_attr *attr) {
  return for_call(first, last, body, ctx, attr, call);
}
