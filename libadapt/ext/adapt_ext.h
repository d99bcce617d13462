/* The one extension header of libadapt: what the sequence algorithms
 * (algorithms/, linked into the same library) need from the runtime beyond
 * the public headers. Not installed; the build gives -Ilibadapt/ext to the
 * runtime and to algorithms/ only (docs/design.md, "Layers"). Symbols
 * declared here are hidden in libadapt.so. */
#ifndef LIBADAPT_EXT_ADAPT_EXT_H
#define LIBADAPT_EXT_ADAPT_EXT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <adapt/loop.h>
#include <adapt/tasks.h>

/* --- Init-time defaults (libadapt/src/settings.c, read by adapt_init) --- */

/* The environment's defaults of the per-call attributes, read and checked
 * once by adapt_init (ADAPT_GRAIN, ADAPT_SCHED, ADAPT_WINDOW,
 * ADAPT_WINDOW_SIZE, ADAPT_SPLITTER). */
typedef struct adapt__seq_defaults {
  size_t grain;                   /* ADAPT_GRAIN, 0 if unset */
  adapt_sched sched;              /* ADAPT_SCHED, else ADAPTIVE (never DEFAULT) */
  adapt_window_mode window;       /* ADAPT_WINDOW, else NONE (never DEFAULT) */
  size_t window_size;             /* ADAPT_WINDOW_SIZE in elements, 0 if unset */
  adapt_window_splitter splitter; /* ADAPT_SPLITTER, else BALANCED (never DEFAULT) */
} adapt__seq_defaults;

/* Copy the running runtime's defaults into *out, starting the runtime first
 * if it is not running. Cost when it runs: one acquire load and plain reads
 * (the values are written before adapt_init publishes the runtime).
 * Errors: adapt_init's (its detail is set). Any thread. */
int adapt__seq_defaults_get(adapt__seq_defaults *out);

/* --- Per-thread tables on the heap (libadapt/src/thread_table.c) -------- */

/* A table of `bytes` zeroed bytes for each thread that asks, made at its
 * first call and freed when the thread exits (a pthread key's destructor),
 * for per-thread caches too large for the library's thread-local block
 * (which dlopen must fit in glibc's static TLS surplus). A file declares
 * one with ADAPT__THREAD_TABLE_DEFINE(fn, T, count) below and reads the
 * calling thread's table with fn(). By hand: one static adapt__thread_table
 * per cache, initialised by ADAPT__THREAD_TABLE_INIT, and a _Thread_local
 * pointer `slot`; read the table as
 *   T *tab = slot ? slot : adapt__thread_table_make(&table, (void **)&slot);
 * adapt__thread_table_make sets the slot to the new table (and back to
 * NULL when the thread's table is freed). NULL when out of memory or out of
 * pthread keys: the caller then runs without its cache (and asks again at
 * its next call). Any thread. */
typedef struct adapt__thread_table {
  size_t bytes;
  pthread_mutex_t lock; /* serialises the key's creation */
  atomic_int state;     /* 0: no key yet, 1: key made, -1: pthread_key_create failed */
  pthread_key_t key;
} adapt__thread_table;
#define ADAPT__THREAD_TABLE_INIT(nbytes)                                                           \
  { (nbytes), PTHREAD_MUTEX_INITIALIZER, 0, 0 }
void *adapt__thread_table_make(adapt__thread_table *t, void **slot);
/* Defines `static T *fn(void)`: the calling thread's table of `count`
 * zeroed elements of T, made at its first call (NULL as
 * adapt__thread_table_make says), with its slot `fn##_slot` and its
 * adapt__thread_table `fn##_table`. */
#define ADAPT__THREAD_TABLE_DEFINE(fn, T, count)                                                   \
  static _Thread_local void *fn##_slot;                                                            \
  static adapt__thread_table fn##_table = ADAPT__THREAD_TABLE_INIT((count) * sizeof(T));           \
  static T *fn(void) {                                                                             \
    return (T *)(fn##_slot ? fn##_slot : adapt__thread_table_make(&fn##_table, &fn##_slot));       \
  }

/* --- Last-error detail (libadapt/src/error.c): adapt_last_error() -------- */

#if defined(__GNUC__) || defined(__clang__)
#define ADAPT__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define ADAPT__TLS_FAST __attribute__((tls_model("initial-exec"), visibility("hidden")))
#define ADAPT__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ADAPT__PRINTF(f, a)
#define ADAPT__TLS_FAST
#define ADAPT__UNLIKELY(x) (x)
#endif

/* Set the calling thread's detail to the printf-style message (it names the
 * public function and the argument: "adapt_transform: output overlaps
 * input") and return err. Longer messages are truncated. Any thread. */
int adapt__fail(int err, const char *fmt, ...) ADAPT__PRINTF(2, 3);

/* 1 while the calling thread's detail is not empty. One byte of static TLS:
 * reading it is one load. */
extern _Thread_local unsigned char adapt__error_pending ADAPT__TLS_FAST;

/* Empty the calling thread's detail (the slow half of adapt__error_clear). */
void adapt__error_reset(void);

/* At the entry of a public function that returns an error code: a call that
 * succeeds leaves the detail empty. One thread-local load when it is
 * already empty. */
static inline void adapt__error_clear(void) {
  if (ADAPT__UNLIKELY(adapt__error_pending)) adapt__error_reset();
}

/* --- Cancellation (libadapt/src/cancel.c): adapt_cancel ---------------- */

/* One parallel call a thread is running a part of. The innermost one is
 * the target of adapt_cancel; scopes form a stack per thread (push before
 * running a piece or chunk of the call, pop after), and running stolen
 * work (another call's piece, a spawned task) shields it (a NULL top) so
 * that a cancel never reaches an unrelated call. */
/* adapt__cancel_scope and the thread-local adapt__cancel_top (the innermost
 * one, NULL outside any call; static TLS: one load to read it) are in
 * <adapt/tasks.h>: the inline adapt_join and adapt_sync count their task
 * in adapt__tls_tasks instead, and a scope whose recorded count
 * (adapt__cancel_push) differs from it is a barrier for adapt_cancel and
 * adapt_cancelled. */

static inline void adapt__cancel_push(adapt__cancel_scope *s) {
  s->tasks = adapt__tls_tasks;
  s->prev = adapt__cancel_top;
  adapt__cancel_top = s;
}

static inline void adapt__cancel_pop(adapt__cancel_scope *s) { adapt__cancel_top = s->prev; }

/* A barrier over the thread's scopes while it runs work of another context
 * (a stolen piece, a spawned or forked task): the top is NULL until
 * adapt__cancel_unshield(returned top) restores it, so adapt_cancel fails
 * with -EPERM and adapt_cancelled is 0 there, as outside any call. Nothing
 * reads the stack below its top, so no barrier scope is needed; and the
 * inline spawns and forks of that work find no scope to shield
 * (adapt__run_at_once counts nothing). */
static inline adapt__cancel_scope *adapt__cancel_shield(void) {
  adapt__cancel_scope *top = adapt__cancel_top;
  adapt__cancel_top = NULL;
  return top;
}

static inline void adapt__cancel_unshield(adapt__cancel_scope *top) { adapt__cancel_top = top; }

/* 1 when *flag was set by adapt_cancel. relaxed: a hint read before each
 * chunk; the call's result (-ECANCELED) is read after the region's join,
 * which orders every worker's writes before it. */
static inline int adapt__cancel_seen(atomic_int *flag) {
  return atomic_load_explicit(flag, memory_order_relaxed) != 0;
}

/* --- Automatic grain (libadapt/src/loop.c) ---------------------------- */

/* The automatic grain after its calibration, shared by adapt_for and the
 * sequence algorithms: a chunk of n units at grain g, timed, took dt ns;
 * returns the grain brought back to about target_ns when the chunk took
 * less than half of it or more than four times it (elements that get
 * dearer or cheaper along the range), within [1, max]. A slow chunk is
 * believed only when the next one, timed too, is slow as well (*strikes
 * counts the first; *probe = 1 asks for the next chunk to be timed): an
 * interrupt must not cut the grain. One step changes the grain at most 8x
 * (*probe = 1 then too); a chunk shorter than g (a range's last) changes
 * nothing. The caller's thread; no shared state. */
size_t adapt__grain_rescale(size_t g, size_t n, uint64_t dt, uint64_t target_ns, size_t max,
                            unsigned *probe, int *strikes);

/* --- Per-call worker limit (libadapt/src/team.c): adapt_attr.max_workers -- */

/* Bound on the worker ids a team records (ADAPT_MAX_WORKERS's own bound,
 * checked in team.c). */
#define ADAPT__TEAM_MAX_IDS 4096

/* The team of one call with a worker limit: the distinct workers admitted
 * to take part in it, at most `limit` (docs/design.md, "Worker limit").
 * A worker is admitted when it takes its first piece of the call (the
 * caller when it enters the call's region); it stays a member until the
 * call returns. A call nested in a body of a limited call runs in that
 * call's team (the current team is a per-thread context, like the cancel
 * scope); a nested call with a limit of its own makes a team whose parent
 * is the current one, and a worker must be admitted to every team up the
 * chain. Lives on the caller's stack from adapt__team_enter to
 * adapt__team_leave; every piece of the call has ended before the leave. */
typedef struct adapt__team {
  struct adapt__team *parent;                    /* the enclosing call's team, or NULL */
  struct adapt__team *saved;                     /* the thread's current team before enter */
  unsigned limit;                                /* k >= 1 */
  atomic_uint count;                             /* members admitted, <= limit */
  atomic_uint members[ADAPT__TEAM_MAX_IDS / 32]; /* bit id: admitted */
} adapt__team;

/* The calling thread's current team (the innermost call with a limit it
 * runs a part of), NULL when none: adapt__team_cur, a field of the
 * thread-local block of <adapt/tasks.h> (static TLS: one load). */

/* Make t, with limit k >= 1, the calling thread's current team until
 * adapt__team_leave(t); its parent is the current team. Any thread. */
void adapt__team_enter(adapt__team *t, unsigned k);
/* Restore the current team that adapt__team_enter(t) replaced. */
void adapt__team_leave(adapt__team *t);

/* Admit worker `id` to t and every team up its chain: 1 when it is (or
 * already was) a member of all of them, 0 when one of them is full (the
 * worker may then have been admitted to the outer ones). Only on behalf of
 * a worker that is not being admitted by anyone else at the same time (the
 * worker itself, or the victim answering its one request). */
int adapt__team_join(adapt__team *t, int id);
/* 1 when worker `id` is a member of t and of every team up its chain. */
int adapt__team_member(const adapt__team *t, int id);
/* 1 when adapt__team_join(t, id) would succeed now with `extra` other
 * workers admitted to t first (a hint: other victims admit meanwhile). */
int adapt__team_room(const adapt__team *t, int id, unsigned extra);

/* --- Event trace (libadapt/src/trace.c): ADAPT_TRACE -------------------- */

struct adapt_frame;

/* 1 when the running runtime records "range" events (ADAPT_TRACE, with the
 * range category of ADAPT_TRACE_EVENTS): read once per piece. Any thread. */
int adapt__trace_ranges_on(void);

/* Record a "range" event: units [b, e) run from t0 to t1 (CLOCK_MONOTONIC
 * ns) by the worker running frame (an adapt_frame of <adapt/adaptive.h>).
 * On that worker only: it appends to the worker's own buffer. */
void adapt__trace_range(struct adapt_frame *frame, uint64_t t0, uint64_t t1, size_t b, size_t e);

#endif /* LIBADAPT_EXT_ADAPT_EXT_H */
