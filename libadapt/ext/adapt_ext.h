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
 * (which dlopen must fit in glibc's static TLS surplus). Declare one static
 * adapt__thread_table per cache, initialised by ADAPT__THREAD_TABLE_INIT,
 * and a _Thread_local pointer `slot`; read the table as
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
 * work (another call's piece, a spawned task) pushes a barrier (NULL flag)
 * so that a cancel never reaches an unrelated call. */
typedef struct adapt__cancel_scope {
  atomic_int *flag;             /* set to 1 by adapt_cancel; NULL: barrier */
  void (*hook)(void *hook_arg); /* called once per adapt_cancel after the
                                   flag is set (the engine's stop), or NULL */
  void *hook_arg;
  struct adapt__cancel_scope *prev;
} adapt__cancel_scope;

/* The calling thread's innermost scope, NULL outside any call. Static TLS:
 * one load to read it. */
extern _Thread_local adapt__cancel_scope *adapt__cancel_top ADAPT__TLS_FAST;

static inline void adapt__cancel_push(adapt__cancel_scope *s) {
  s->prev = adapt__cancel_top;
  adapt__cancel_top = s;
}

static inline void adapt__cancel_pop(adapt__cancel_scope *s) { adapt__cancel_top = s->prev; }

/* 1 when *flag was set by adapt_cancel. relaxed: a hint read before each
 * chunk; the call's result (-ECANCELED) is read after the region's join,
 * which orders every worker's writes before it. */
static inline int adapt__cancel_seen(atomic_int *flag) {
  return atomic_load_explicit(flag, memory_order_relaxed) != 0;
}

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
