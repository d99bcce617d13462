/* libadapt parallel loops: adapt_for and the loop scheduler family, with
 * the per-call attributes shared with the sequence algorithms
 * (<adapt/algorithms.h>, which includes this header).
 *
 * Calling context: any thread. On a worker inside a body a loop is nested;
 * on a thread that is not a worker it runs as a top-level region, on the
 * workers, or alone on the calling thread while another thread's region
 * holds them (see adapt_begin). Initialises the runtime lazily.
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_LOOP_H
#define LIBADAPT_INCLUDE_ADAPT_LOOP_H

#include <stddef.h>
#include <adapt/adapt.h>
#include <adapt/adaptive.h>
#include <adapt/tasks.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Locality modes for caches shared by the workers (paper §2.2). */
typedef enum adapt_window_mode {
  ADAPT_WINDOW_DEFAULT = 0, /* ADAPT_WINDOW env, else ADAPT_WINDOW_NONE */
  ADAPT_WINDOW_NONE,        /* thieves take any part of the sequence */
  ADAPT_WINDOW_STATIC,      /* chunks of m elements, one after the other */
  ADAPT_WINDOW_SLIDING      /* all workers within m elements of the oldest unfinished one */
} adapt_window_mode;

/* Splitters of the sliding window (paper §3.3). */
typedef enum adapt_window_splitter {
  ADAPT_SPLITTER_DEFAULT = 0, /* ADAPT_SPLITTER env, else BALANCED */
  ADAPT_SPLITTER_LOCAL,       /* give work next to the owner first */
  ADAPT_SPLITTER_DISTANT,     /* give work at the end of the window first */
  ADAPT_SPLITTER_BALANCED     /* equal pieces over both sides */
} adapt_window_splitter;

/* Loop scheduler (docs/guide.md, "Choosing a scheduler"). G below is the
 * grain: attr->grain, else env ADAPT_GRAIN, else (non-adaptive schedulers)
 * min(2048, n / (8 P)), at least 1, for n iterations on P workers. */
typedef enum adapt_sched {
  ADAPT_SCHED_DEFAULT = 0, /* env ADAPT_SCHED, else ADAPTIVE for a top-level
                              call and LAZY_DF2 for one nested in a region */
  ADAPT_SCHED_ADAPTIVE,    /* request/splitter protocol: thieves ask, the
                              owner splits at its next poll (the default) */
  ADAPT_SCHED_LOOPFRAME,   /* loop frame [start,end) on the deque: a thief
                              takes the upper half under the deque lock while
                              the owner claims chunks of G (OpenCilk thesis) */
  ADAPT_SCHED_DAC,         /* divide and conquer over spawn/sync down to G
                              (cilk_for) */
  ADAPT_SCHED_HYBRID,      /* R = 2^k >= P partitions, each earmarked for a
                              worker, claimed by fetch_or, run as DAC: the same
                              worker gets the same iterations loop after loop */
  ADAPT_SCHED_LAZY_DF,     /* lazy splitting: push half of the current range
                              only when the deque is empty */
  ADAPT_SCHED_LAZY_DF2,    /* lazy, when the deque holds fewer than 2 entries */
  ADAPT_SCHED_LAZY_BF,     /* lazy, pushing the oldest postponed range first */
  ADAPT_SCHED_STATIC       /* P contiguous blocks, block w for worker w when it
                              arrives, no load balancing inside a block */
} adapt_sched;

#define ADAPT_SCHED_COUNT 9 /* number of adapt_sched values, DEFAULT included */

/* Name of a scheduler as ADAPT_SCHED spells it ("adaptive", "loopframe",
 * "dac", "hybrid", "lazy-df", "lazy-df2", "lazy-bf", "static"; "default"),
 * or NULL for a value out of range. Thread-safe, no initialisation needed. */
ADAPT_API const char *adapt_sched_name(adapt_sched s);

/* Parse a scheduler name (as above, "default" included) into *out.
 * Errors: -EINVAL NULL argument or unknown name. Thread-safe. */
ADAPT_API int adapt_sched_parse(const char *name, adapt_sched *out);

/* Attributes of one call. NULL or zero-initialised: defaults. */
typedef struct adapt_attr {
  size_t grain; /* iterations per steal point and smallest stolen piece;
                          0: ADAPT_GRAIN (read by adapt_init), else chosen
                          automatically from the measured time per chunk */
  adapt_sched sched;
  adapt_window_mode window;
  size_t window_size; /* m, in elements; 0: ADAPT_WINDOW_SIZE (read by
                          adapt_init), else from the shared cache size and
                          the footprint */
  adapt_window_splitter splitter;
  size_t footprint;     /* bytes one element touches (for the default window
                          size); 0: the element size(s) of the call */
  unsigned max_workers; /* 0: all workers; k: at most k distinct workers
                          (the caller's included) run parts of the call,
                          the others stay free for other callers; calls
                          nested in its bodies keep to the same workers */
} adapt_attr;

/* Parallel range loop: calls body(b, e, ctx) on disjoint sub-ranges whose
 * union is exactly [first, last), each index once, possibly concurrently on
 * several workers. Returns when every call has returned. The scheduler is
 * attr->sched, else env ADAPT_SCHED, else adaptive for a top-level call and
 * lazy-df2 for a call nested in a region (inside a loop body, a task, a
 * scope or an adaptive frame: nested loops split lazily); every scheduler may be
 * nested in any other, and in spawned tasks. With a grain G set (attr or
 * ADAPT_GRAIN) no call covers more than G indices, except with static, which
 * calls body once per block.
 * ADAPT_SCHED and ADAPT_GRAIN are read by adapt_init (lazily by this call).
 * attr->max_workers = k: at most k distinct workers (the caller's
 * included) run bodies of this call, under every scheduler; calls nested
 * in its bodies keep to the same workers (their own limit applies on top).
 * Any k is valid (k >= the worker count: no limit).
 * attr->window, window_size, splitter and footprint are for the sequence
 * algorithms only: set (non-zero) here they are -EINVAL.
 * Errors: -EINVAL NULL body, first > last, attr->sched out of range, an
 * attribute field that does not apply (above), or a bad environment value
 * (the lazy adapt_init fails; a message names it); adapt_last_error() says
 * which, e.g. "adapt_for: attr.window does not apply to loops (sequence
 * algorithms only)". The arguments are checked before first == last, which
 * returns 0 without calling body. -ECANCELED: a body called adapt_cancel
 * (below); the other indices ran at most once. -ESHUTDOWN: a top-level
 * loop refused by a finalize under way (see adapt_finalize); no body ran.
 * Not guaranteed: the order of the calls, which worker runs which
 * sub-range, the sizes of the sub-ranges.
 * adapt_for is also a macro over inline code (adapt__for_inline below):
 * with attr->grain set, the calling thread's chunk loop is compiled into
 * the caller, where a body the compiler sees is inlined, and so are nested
 * lazy loops while no thief needs their work; (adapt_for)(...) calls the
 * function. Both behave as described here. */
ADAPT_API int adapt_for(size_t first, size_t last,
                        void (*body)(size_t begin, size_t end, void *ctx), void *ctx,
                        const adapt_attr *attr);

/* Runs fn(ctx) on the calling thread with a worker limit and no loop of
 * its own: every parallel call fn makes (loops, sequence algorithms,
 * adaptive frames, spawn/sync scopes and their tasks, and the calls nested
 * in them) is run by at most max_workers distinct workers in all, the
 * caller's included, as the bodies of one adapt_for call with
 * attr->max_workers = max_workers would be; their own limits apply on top.
 * Nothing else changes for fn: an adapt_cancel in fn's own code (not in a
 * body of a call it makes) reaches the call enclosing adapt_with_workers,
 * or returns -EPERM when there is none; the calls fn makes are nested (in
 * a region, as inside a loop body: their default scheduler is the nested
 * one). max_workers 0: no limit, fn(ctx) is called as is. Any k >= the
 * worker count: no limit in effect. Starts the runtime if needed.
 * Returns 0 once fn has returned. Errors (fn not called): -EINVAL fn is
 * NULL; the lazy adapt_init's errors; -ESHUTDOWN a finalize under way (see
 * adapt_finalize). adapt_last_error() says which.
 * Calling context: any thread, any nesting level (in a body, a task, or
 * another adapt_with_workers). Thread-safe; each thread's limit is its
 * own. Not guaranteed: which workers, or that max_workers of them take
 * part. A C++ exception must not leave fn (catch it inside, as a body
 * must). */
ADAPT_API int adapt_with_workers(unsigned max_workers, void (*fn)(void *ctx), void *ctx);

/* --- Cancellation ------------------------------------------------------ */
/*
 * adapt_cancel: from inside a body, stop the innermost parallel call the
 * calling thread is running a part of: an adapt_for loop (any scheduler), a
 * sequence algorithm of <adapt/algorithms.h> or an adapt_seq_run call
 * (<adapt/seq.h>); nested calls inside it are not cancelled by this (each
 * returns normally or is cancelled by its own bodies).
 * Guarantee: after the cancel, no worker starts a new chunk of that call once
 * it has seen the cancel; a worker sees it before its next chunk, so at most
 * one chunk (one grain) per worker starts after adapt_cancel returns, plus
 * chunks already running, which complete. Stolen pieces not yet started are
 * dropped. The call then returns -ECANCELED after every running body has
 * returned (never earlier), with adapt_last_error() "<function>: cancelled
 * by a body". Cancelling twice is harmless.
 * What ran: each index at most once; which indices ran is not reported, and
 * outputs of a cancelled algorithm hold unspecified values where it did not
 * run (adapt_reduce and the outputs merged at the end, e.g. *out_count, are
 * untouched). A cancelled call leaves the runtime usable from every thread.
 * Returns: 0 done; -EPERM the calling thread is not running a body of a
 * parallel call (the main thread between calls, a thread of its own).
 * Cost: one store and a flag each worker reads once per chunk.
 * Calling context: a body (any worker, any nesting level). Thread-safe. */
ADAPT_API int adapt_cancel(void);

/* 1 when the innermost parallel call the calling thread is running a body of
 * has been cancelled (by adapt_cancel on any worker), else 0 (also outside
 * any call). Lets a long body stop early. Any thread; a relaxed read: a
 * cancel on another worker may be seen a little later. */
ADAPT_API int adapt_cancelled(void);

/* --- Inline nested loop ------------------------------------------------ */

/* adapt_for's result for a loop adapt__for_inline ran whose body called
 * adapt_cancel: -ECANCELED with adapt_last_error() "adapt_for: cancelled
 * by a body". Cold, out of line. */
ADAPT_API int adapt__for_cancelled(void);

/* The adapt__tls_loop bit each adapt_sched value needs, 2 bits per value:
 * DEFAULT needs ADAPT__LOOP_DEFAULT, the lazy ones (DF, DF2, BF)
 * ADAPT__LOOP_LAZY, the others cannot run plain. */
#define ADAPT__LOOP_NEED                                                                           \
  (ADAPT__LOOP_DEFAULT << 2u * ADAPT_SCHED_DEFAULT |                                               \
   ADAPT__LOOP_LAZY << 2u * ADAPT_SCHED_LAZY_DF | ADAPT__LOOP_LAZY << 2u * ADAPT_SCHED_LAZY_DF2 |  \
   ADAPT__LOOP_LAZY << 2u * ADAPT_SCHED_LAZY_BF)

/* The codes of adapt__tls_loop's thresholds: lazy DF is 1, DF2 2 (the
 * entries its deque must hold), lazy-bf ADAPT__LOOP_BF (1 entry, fed from
 * the oldest range in progress). */
#define ADAPT__LOOP_BF 3u
/* adapt__for_lazy_rest's result when the inline loop goes on. */
#define ADAPT__LOOP_GO_ON 1

/* A nested lazy loop of code `code` (above) that adapt__for_inline runs
 * inline on a worker thieves can reach, from the chunk before which the
 * worker's deque looked hungry: ADAPT__LOOP_GO_ON when the loop is to go
 * on inline (the deque is not hungry after all, or lazy-bf exposed work
 * from an older range of this worker's, in progress in the library);
 * else the rest [first, last) ran as adapt_for's nested lazy path runs a
 * loop (exposing work from it at once), in chunks of g (>= 1), and the
 * result is 0, or -ECANCELED (adapt_last_error() set) when a body of the
 * rest cancelled it. first < last, body not NULL. Out of line. */
ADAPT_API int adapt__for_lazy_rest(size_t first, size_t last,
                                   void (*body)(size_t begin, size_t end, void *ctx), void *ctx,
                                   size_t g, unsigned code);

/* The inline loop's cancel flag set (relaxed: the loop runs on this thread
 * alone, and adapt_cancel's store is this thread's, in a body); read as a
 * plain int through the builtins, as C++ declares it. */
static inline int adapt__loop_cancel_seen(ADAPT__ATOMIC_INT *flag) {
  return __atomic_load_n((int *)(void *)flag, __ATOMIC_RELAXED) != 0;
}

/* [first, last) run on this thread in chunks of g (>= 1), *cancelled read
 * after each chunk, before the next one (first < last, body not NULL). The
 * plain loop of the inline nested path below and of a lazy loop on a
 * worker alone (libadapt/src/lazy.h). */
static inline __attribute__((always_inline)) void
adapt__loop_chunks(size_t first, size_t last, size_t g, void (*body)(size_t, size_t, void *),
                   void *ctx, ADAPT__ATOMIC_INT *cancelled) {
  if (g == 1) {
    size_t i = first;
    do body(i, i + 1, ctx);
    while (++i < last && !__builtin_expect(adapt__loop_cancel_seen(cancelled), 0));
  } else {
    size_t b = first;
    do {
      const size_t e = last - b > g ? b + g : last;
      body(b, e, ctx);
      b = e;
    } while (b < last && !__builtin_expect(adapt__loop_cancel_seen(cancelled), 0));
  }
}

/* [first, last) run on this thread in chunks of g (>= 1) as a lazy loop
 * of code `code` (lazy DF, DF2 or BF) on a worker thieves can reach, as the
 * library's df_range and bf_range run it: before each chunk but the last,
 * the hunger check (the deque holds fewer than the code's entries);
 * hungry, adapt__for_lazy_rest, whose result is returned unless the loop
 * goes on. *cancelled read after each chunk, before the next one (first <
 * last, body not NULL).
 * The check is one load of head against tail - entries, tail read at the
 * start and after adapt__for_lazy_rest: this loop pushes nothing itself,
 * a body's nested calls pop or wait for what they push before they return
 * (but for lazy-bf's pushes from an enclosing range), and thieves move
 * head only, so tail never drops below the value read (a theft inside a
 * body can leave it higher, with the deque emptied: hungry either way).
 * The check thus never misses hunger, and adapt__for_lazy_rest looks again
 * at the real sizes. relaxed: a hint, as the library's adapt__deque_size
 * (a theft seen late exposes work one chunk later). */
static inline __attribute__((always_inline)) int
adapt__loop_chunks_hungry(size_t first, size_t last, size_t g, unsigned code,
                          void (*body)(size_t, size_t, void *), void *ctx,
                          ADAPT__ATOMIC_INT *cancelled) {
  const adapt__deque_end *d = adapt__tls_dq;
  const size_t *head = adapt__deque_head(d);
  const size_t entries = code == ADAPT__LOOP_BF ? 1u : code;
  /* hungry when head > tail - entries (modular: the difference's sign) */
  size_t lim = __atomic_load_n(&d->tail, __ATOMIC_RELAXED) - entries;
  size_t b = first;
  if (g == 1) {
    for (const size_t stop = last - 1; b < stop;) {
      if (__builtin_expect((ptrdiff_t)(__atomic_load_n(head, __ATOMIC_RELAXED) - lim) > 0, 0)) {
        const int rc = adapt__for_lazy_rest(b, last, body, ctx, 1, code);
        if (rc != ADAPT__LOOP_GO_ON) return rc;
        lim = __atomic_load_n(&d->tail, __ATOMIC_RELAXED) - entries;
      }
      body(b, b + 1, ctx);
      b++;
      if (__builtin_expect(adapt__loop_cancel_seen(cancelled), 0)) return 0;
    }
  } else {
    while (last - b > g) {
      if (__builtin_expect((ptrdiff_t)(__atomic_load_n(head, __ATOMIC_RELAXED) - lim) > 0, 0)) {
        const int rc = adapt__for_lazy_rest(b, last, body, ctx, g, code);
        if (rc != ADAPT__LOOP_GO_ON) return rc;
        lim = __atomic_load_n(&d->tail, __ATOMIC_RELAXED) - entries;
      }
      body(b, b + g, ctx);
      b += g;
      if (__builtin_expect(adapt__loop_cancel_seen(cancelled), 0)) return 0;
    }
  }
  body(b, last, ctx);
  return 0;
}

/* --- Inline owner loop at a set grain ---------------------------------- */

/* An adapt_for range: the owner's remaining [begin, end) or a thief's
 * piece, as the loop's splitter (libadapt/src/loop.c) and the owner loop
 * below read and write it. The owner claims a chunk (writes begin) before
 * its body runs; the splitter, on the owner's thread at one of its steal
 * points, gives thieves the tail (lowers end). */
typedef struct adapt__for_work {
  size_t begin, end;
  size_t grain;
  int calibrating; /* automatic grain: still doubling */
  int autograin;   /* automatic grain: keep probing after calibration */
  int slow_chunks; /* calibration: consecutive chunks at or above the target; after it: a slow
                      timed chunk awaiting confirmation */
  unsigned probe;  /* automatic grain after calibration: chunks to the next timed one */
} adapt__for_work;

/* A call's body and its cancel flag, shared with its thieves. */
typedef struct adapt__for_ctx {
  void (*body)(size_t, size_t, void *);
  void *ctx;
  /* Set by adapt_cancel from a body. relaxed everywhere: read before each
   * chunk as a hint; the call's result reads it after adapt_end, whose
   * join orders every worker's store before it. */
  ADAPT__ATOMIC_INT cancelled;
} adapt__for_ctx;

/* One run of a range on a thread (the owner's, or a thief's piece): its
 * cancellation scope, and with range tracing on its first index and start
 * time (libadapt/src/loop.c: range_start, range_end). */
typedef struct adapt__for_run {
  adapt__cancel_scope scope;
  size_t first;
  unsigned long long t_first; /* ns */
  int tracing;                /* 1: the range is traced at its end */
} adapt__for_run;

/* One adapt_for call whose owner loop runs in the caller: opened by
 * adapt__for_open, run by adapt__for_owner, closed by adapt__for_close, on
 * the caller's stack. Private. */
typedef struct adapt__for_call {
  adapt_frame frame;  /* the call's adaptive frame */
  adapt_task task;    /* its task (the frame points to it) */
  adapt__for_work w;  /* the owner's range */
  adapt__for_ctx c;   /* body, ctx, cancel flag (the thieves read it) */
  adapt__for_run run; /* the owner's run of its range */
  int region;         /* the region kind entered (libadapt/src/rt.h) */
} adapt__for_call;

/* adapt_for(first, last, body, ctx, attr), opened for the owner loop to run
 * in the caller: returns 1 when the call is the adaptive scheduler's at the
 * set grain attr->grain, then the caller runs adapt__for_owner and
 * adapt__for_close(call); else the call is over, run by adapt_for, and its
 * result (0 or adapt_for's error) is returned. */
ADAPT_API int adapt__for_open(adapt__for_call *call, size_t first, size_t last,
                              void (*body)(size_t, size_t, void *), void *ctx,
                              const adapt_attr *attr);

/* Ends a call adapt__for_open opened once the owner loop has returned:
 * waits for the thieves' pieces and leaves the region; returns adapt_for's
 * result (0, or -ECANCELED when a body cancelled the loop). */
ADAPT_API int adapt__for_close(adapt__for_call *call);

/* The owner's loop at a set grain g (>= 1): chunks of g claimed from w's
 * begin and run, until w is empty or the loop is cancelled (the rest is
 * then abandoned). Per chunk it tests the poll word (pending steal
 * requests: the splitter runs in adapt__steal_slow, here, and may lower
 * w->end, here or at a steal point in a body: only this thread writes w)
 * and the cancel flag together, reloads the end, claims (one store of
 * begin), and calls the body: compiled
 * into the caller, a body defined where the compiler sees it is inlined.
 * body and ctx are the caller's (read once: a thief's piece keeps running
 * from them when the thread whose stack holds the call's context has
 * exited). Also the owner loop of adapt_for itself and of the thieves'
 * pieces (libadapt/src/loop.c). */
static inline __attribute__((always_inline)) void
adapt__for_owner(adapt_frame *frame, adapt__for_work *w, ADAPT__ATOMIC_INT *cancelled, size_t g,
                 void (*body)(size_t, size_t, void *), void *ctx, int keep) {
  const unsigned *const poll = (const unsigned *)frame->adapt_priv_poll;
  /* keep (a constant): the next index kept in a register, as only this
   * loop writes w->begin (a splitter lowers w->end): stored for the
   * splitter, never read back (with the body inlined, a reload waits for
   * the store before it). Else reloaded after each chunk, straight into
   * the body's first argument register: with the body called, fewer
   * instructions (no copy, no spill). */
  size_t b = w->begin;
  for (;;) {
    /* One test for both rare events. relaxed: the poll word is a hint, as
     * in adapt_steal_point (the slow path acquires the requests); the
     * cancel flag as in adapt__loop_cancel_seen. */
    if (__builtin_expect((__atomic_load_n(poll, __ATOMIC_RELAXED) |
                          (unsigned)__atomic_load_n((int *)(void *)cancelled, __ATOMIC_RELAXED)) !=
                             0,
                         0)) {
      if (adapt__loop_cancel_seen(cancelled)) {
        w->begin = w->end; /* abandon the rest */
        return;
      }
      adapt__steal_slow(frame);
    }
    if (!keep) b = w->begin;
    const size_t e = w->end;
    if (b == e) return;
    /* b < e: at g = 1 the claim is b + 1, no bound to compare with. */
    const size_t n = g == 1 ? b + 1 : e - b > g ? b + g : e;
    w->begin = n; /* claimed before the body runs: a splitter sees [n, end) */
    body(b, n, ctx);
    b = n;
  }
}

/* adapt_for with a set grain under the adaptive scheduler: the owner loop
 * compiled into the caller (at grain 1 and at another grain, each a copy);
 * anything else is adapt_for's (adapt__for_open runs it). */
static inline __attribute__((always_inline)) int
adapt__for_top(size_t first, size_t last, void (*body)(size_t begin, size_t end, void *ctx),
               void *ctx, const adapt_attr *attr) {
  if (!attr || !attr->grain) return (adapt_for)(first, last, body, ctx, attr);
  const size_t g = attr->grain;
  adapt__for_call call;
  int rc = adapt__for_open(&call, first, last, body, ctx, attr);
  if (rc != 1) return rc;
  if (g == 1)
    adapt__for_owner(&call.frame, &call.w, &call.c.cancelled, 1, body, ctx, 1);
  else
    adapt__for_owner(&call.frame, &call.w, &call.c.cancelled, g, body, ctx, 1);
  return adapt__for_close(&call);
}

/* adapt_for nested in a region of this thread, no team, valid arguments
 * and attribute, first < last, compiled into the caller (the body called
 * directly where the compiler sees it) with the frame count and a
 * cancellation scope around it, the cancel flag read after each chunk:
 * - on a worker no thief can reach (adapt__tls_loop's ADAPT__LOOP_LAZY),
 *   a loop resolved to a lazy scheduler: the lazy schedulers expose work
 *   only to a thief, so the loop is a plain loop, in chunks of the grain
 *   (attr's, else ADAPT_GRAIN; none: one call over the whole range);
 * - on a worker thieves can reach (adapt__tls_loop's thresholds), a loop
 *   resolved to a lazy scheduler whose grain is set or would default to 1:
 *   run by adapt__for_hungry while the worker's deque holds at least the
 *   threshold's entries (work for thieves is exposed elsewhere), the rest
 *   handed to the library's lazy loop as soon as it looks hungry
 *   (adapt__loop_chunks_hungry).
 * Anything else: adapt__for_top. As with the inline spawn, a successful
 * inline call leaves adapt_last_error() as it was. */
static __attribute__((noinline, unused)) int
adapt__for_hungry(size_t first, size_t last, void (*body)(size_t begin, size_t end, void *ctx),
                  void *ctx, size_t g, unsigned thr);

static inline __attribute__((always_inline)) int
adapt__for_inline(size_t first, size_t last, void (*body)(size_t begin, size_t end, void *ctx),
                  void *ctx, const adapt_attr *attr) {
  unsigned need = ADAPT__LOOP_DEFAULT, s = (unsigned)ADAPT_SCHED_DEFAULT;
  size_t g = adapt__tls_loop_grain;
  if (attr) {
    s = (unsigned)attr->sched;
    need = s < (unsigned)ADAPT_SCHED_COUNT ? ADAPT__LOOP_NEED >> 2u * s & 3u : 0u;
    if (((size_t)(unsigned)attr->window | attr->window_size | (size_t)(unsigned)attr->splitter |
         attr->footprint | attr->max_workers) != 0) {
      need = 0;
      s = (unsigned)ADAPT_SCHED_COUNT; /* no inline path */
    }
    if (attr->grain) g = attr->grain;
  }
  /* adapt__tls_loop is set only inside a region (adapt__tls_frames > 0) or
   * on a pool thread (every call it makes is nested). */
  const unsigned bits = adapt__tls_loop;
  if (__builtin_expect(!(bits & need) || adapt__team_cur != NULL || !body || first >= last, 0)) {
    /* On a worker thieves can reach: the loop's threshold (0: not inline);
     * with no grain, inline only if the default, n / (8 P) (the split
     * bits), is 1. */
    const unsigned thr =
        s < (unsigned)ADAPT_SCHED_COUNT ? bits >> (ADAPT__LOOP_THR_SHIFT + 2u * s) & 3u : 0u;
    if (thr && adapt__team_cur == NULL && body && first < last &&
        (g || last - first < 2u * (size_t)(bits >> ADAPT__LOOP_SPLIT_SHIFT)))
      return adapt__for_hungry(first, last, body, ctx, g ? g : 1, thr);
    return adapt__for_top(first, last, body, ctx, attr);
  }
  ADAPT__ATOMIC_INT cancelled = 0;
  adapt__cancel_scope cs = {&cancelled, NULL, NULL, adapt__cancel_top, adapt__tls_tasks};
  adapt__cancel_top = &cs;
  adapt__tls_frames++;
  if (!g)
    body(first, last, ctx);
  else
    adapt__loop_chunks(first, last, g, body, ctx, &cancelled);
  adapt__tls_frames--;
  adapt__cancel_top = cs.prev;
  if (__builtin_expect(adapt__loop_cancel_seen(&cancelled), 0)) return adapt__for_cancelled();
  return 0;
}

/* adapt__for_inline's second path, on a worker thieves can reach: the
 * loop at grain g (>= 1) and code thr (1, 2, ADAPT__LOOP_BF), valid
 * arguments, first < last. Not inlined: in the caller, its registers and stack would
 * weigh on every call of the plain path (GCC 12: 10% more instructions on
 * fib through nested loops, one worker); GCC clones it for a constant body,
 * which it then inlines. */
static __attribute__((noinline, unused)) int
adapt__for_hungry(size_t first, size_t last, void (*body)(size_t begin, size_t end, void *ctx),
                  void *ctx, size_t g, unsigned thr) {
  ADAPT__ATOMIC_INT cancelled = 0;
  adapt__cancel_scope cs = {&cancelled, NULL, NULL, adapt__cancel_top, adapt__tls_tasks};
  adapt__cancel_top = &cs;
  adapt__tls_frames++;
  const int rc = adapt__loop_chunks_hungry(first, last, g, thr, body, ctx, &cancelled);
  adapt__tls_frames--;
  adapt__cancel_top = cs.prev;
  if (__builtin_expect(adapt__loop_cancel_seen(&cancelled), 0)) return adapt__for_cancelled();
  return rc;
}

#ifndef ADAPT__LOOP_NO_INLINE
#define adapt_for(first, last, body, ctx, attr) adapt__for_inline(first, last, body, ctx, attr)
#endif

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_LOOP_H */
