/* libadapt spawn/sync tasks: nested and recursive fork-join parallelism
 * (fib, nqueens, divide and conquer), on per-worker THE-protocol deques.
 *
 * A sketch (return codes left out; docs/guide.md has the whole program, the
 * example "fib", compiled and run by make test):
 *
 *   struct fib { int n; long r; };
 *   long fib(int n);
 *   static void fib_task(void *p) { struct fib *f = p; f->r = fib(f->n); }
 *   long fib(int n) {
 *     if (n < 2) return n;
 *     struct fib a = {n - 1};
 *     adapt_scope s;
 *     adapt_scope_begin(&s);
 *     adapt_spawn(&s, fib_task, &a);       // pushed for thieves, or run now
 *     long b = fib(n - 2);                  // meanwhile, here
 *     adapt_sync(&s);                       // a.r is ready
 *     return a.r + b;
 *   }
 *
 * Spawned tasks are pushed on the calling worker's deque (child stealing:
 * the caller continues, thieves take the oldest task) while it holds fewer
 * than ADAPT_SPAWN_KEEP (default 2) of them; else, and on a worker no
 * thief can reach, a spawn runs its task at once (lazy spawns, the
 * lazy-scheduling paper's DF2-LS: thieves still find the tasks nearest
 * the root, and a recursion pays about a function call per task where no
 * thief is hungry; ADAPT_SPAWN_KEEP=0 pushes every task); adapt_sync runs the
 * scope's tasks still in the deque, newest first, then steals other work
 * until the scope's stolen tasks have finished. A thief looks at a victim's
 * spawned tasks first (no help from the victim needed), then posts a steal
 * request for its adaptive work (loops and algorithms), which the victim
 * refuses while a spawned task waits in its deque (the thief then takes the
 * task, even one spawned after the request was posted): both kinds
 * coexist, and each may nest the other.
 *
 * A recursion that spawns one child and syncs it may use a child frame,
 * a scope of exactly one task with cheaper inline paths:
 *
 *     adapt_child c;
 *     adapt_fork(&c, fib_task, &a);         // begin + spawn
 *     long b = fib(n - 2);
 *     adapt_join(&c);                       // sync: a.r is ready */
#ifndef LIBADAPT_INCLUDE_ADAPT_TASKS_H
#define LIBADAPT_INCLUDE_ADAPT_TASKS_H

#include <stddef.h>
#include <adapt/adapt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A spawn scope; allocate it yourself (on the stack). Private content. */
typedef struct adapt_scope {
  void *adapt_priv[8];
} adapt_scope;

/* Open a scope on the calling thread. On a thread that is not a worker it
 * is a top-level region until the matching adapt_sync: on worker 0's place,
 * or alone on the calling thread while another thread's region holds the
 * workers (see adapt_begin). Scopes and frames nest properly: sync an inner
 * scope (end an inner frame) before its outer one. Initialises the runtime
 * lazily. Errors: -EINVAL NULL scope; -ENOMEM; -ESHUTDOWN a top-level
 * scope refused by a finalize under way (see adapt_finalize); adapt_init's
 * errors.
 * A thread that exits with the scope open: see adapt_begin (the region is
 * closed and its place given back; stderr names adapt_scope_begin).
 * A call `adapt_scope_begin(...)` is the inline fast path below (a macro)
 * when nested in a region of the calling thread; the function itself does
 * the same out of line. Not guaranteed: that a successful call empties
 * adapt_last_error() (the inline path leaves it as it was). */
ADAPT_API int adapt_scope_begin(adapt_scope *scope);

/* Spawn fn(arg): it runs, on this or another worker, before adapt_sync(scope)
 * returns. arg is owned by the caller and must stay valid until then. When
 * the worker's deque already holds ADAPT_SPAWN_KEEP entries for thieves,
 * on a worker no thief can reach, or when the deque is full, the task runs
 * at once, inside this call (still its own cancellation context). Not
 * guaranteed: whether fn runs before or after the code that follows the
 * spawn (a task must not wait for its spawner's later work). fn must not
 * throw (C++: adapt::task_group carries a task's exception to its wait).
 * Errors: -EINVAL NULL scope or fn, scope not begun or begun by another
 * thread. Calling context: the thread that began the scope.
 * A call `adapt_spawn(...)` is the inline fast path below (a macro); the
 * function itself (its address, dlsym) does the same out of line. Not
 * guaranteed: that a scope never begun (uninitialised bytes, not zeroed)
 * is told from a begun one (the inline path checks the beginning thread
 * only); that a successful call empties adapt_last_error() (the inline
 * path leaves it as it was). */
ADAPT_API int adapt_spawn(adapt_scope *scope, void (*fn)(void *arg), void *arg);

/* Wait for every task spawned in the scope (running some of them, and other
 * work, meanwhile) and close the scope. Errors (nothing is waited for):
 * -EINVAL NULL scope, scope not begun, begun by another thread, or synced
 * out of order (a frame or scope begun after it is still open).
 * Calling context: the thread that began the scope.
 * As adapt_spawn: a call is the inline fast path below, the function is
 * exported too, and the same two things are not guaranteed. */
ADAPT_API int adapt_sync(adapt_scope *scope);

/* A child-task frame: a scope of exactly one task, for the recursions that
 * spawn one child and sync it (fib, divide and conquer), at the
 * work-first cost. Allocate it yourself (on the stack). Private content. */
typedef struct adapt_child {
  void *adapt_priv[8];
} adapt_child;

/* Fork fn(arg) in child: adapt_scope_begin and adapt_spawn in one call,
 * the frame itself being the scope (scopes, frames and children nest
 * alike: join an inner child before an outer scope or child is synced).
 * fn(arg) runs, on this or another worker, before adapt_join(child)
 * returns, at once inside this call as adapt_spawn's task may (the frame
 * then stays open until the join); arg is owned by the caller and must
 * stay valid until then.
 * Errors (nothing forked): -EINVAL NULL child or fn; adapt_scope_begin's.
 * Calling context: any thread (a top-level region as adapt_scope_begin).
 * A call is an inline fast path (a macro) when nested in a region of the
 * calling thread; the function does the same out of line. Not guaranteed:
 * that a successful call empties adapt_last_error(). */
ADAPT_API int adapt_fork(adapt_child *child, void (*fn)(void *arg), void *arg);

/* Wait for the child's task (running it here when no thief took it; other
 * work meanwhile when one did) and close the frame. Errors (nothing waited
 * for): as adapt_sync's (child not forked or already joined, forked by
 * another thread, joined out of order). Calling context: the forking
 * thread. A call is an inline fast path (a macro); not guaranteed: as
 * adapt_fork, and that a frame never forked (uninitialised bytes) is told
 * from a forked one. */
ADAPT_API int adapt_join(adapt_child *child);

/* --- Inline fast paths ------------------------------------------------------
 * Layout public for the inline functions below only: the fields are not
 * API and may change with ADAPT_VERSION_MINOR. Work-first THE protocol
 * (Cilk-5; docs/design.md, "Spawned tasks"): adapt_scope_begin, nested,
 * fills the scope from thread-locals (no call); adapt_spawn runs the task
 * at once when the deque holds its keep entries (adapt__spawn_at_once),
 * else writes it in the deque's tail slot and publishes the tail; adapt_sync
 * closes a scope whose pushed tasks all ran here, or pops one (the
 * tail decremented, the head loaded and compared: no fence while no thief
 * is announced, adapt__deque_take), runs it under a cancellation barrier,
 * and closes the scope when its counts balance. Anything else (a full
 * deque, a theft, a sleeping worker to wake, a top-level scope, a check
 * that fails) calls the exported function, which does the whole job. The
 * atomics are GCC/Clang __atomic builtins on plain fields (C++ includes
 * this header; the library's side of the same fields is C11 atomics of the
 * same size). adapt_sync and adapt_join are always inlined: the work-first
 * path is compiled into the caller. */

struct adapt__worker;
struct adapt__scope;

/* Tiny helpers of the inline paths, inlined before the compiler sizes
 * the paths (its inlining of them into the caller depends on that). */
#if defined(__GNUC__) || defined(__clang__)
#define ADAPT__PART static inline __attribute__((always_inline))
#else
#define ADAPT__PART static inline
#endif

/* The deque's capacity (entries; the library asserts its ADAPT_DEQUE_CAP
 * equals it). */
#define ADAPT__DEQUE_CAP 8192u

/* A deque entry (64 bytes): a spawned user task (run NULL), a piece of a
 * loop, or a splittable loop entry. */
typedef struct adapt__spawned {
  /* Runs the entry on worker w (after the owner's pop or a theft); NULL
   * for a user task: fn(arg). */
  void (*run)(struct adapt__worker *w, const struct adapt__spawned *t);
  /* NULL: a thief takes the entry whole. Else called by a thief (worker id
   * `thief`) under the deque lock; returns ADAPT__SPLIT_* (deque.h). */
  int (*split)(const struct adapt__spawned *t, int thief, struct adapt__spawned *piece);
  /* Counts the entry's completion; NULL: not counted. */
  struct adapt__scope *scope;
  void (*fn)(void *); /* user task */
  void *arg;
  void *obj;     /* runtime entries: loop, loop frame, partitions */
  size_t lo, hi; /* runtime entries: a range */
} adapt__spawned;

/* The owner's end of a worker's deque (the library's adapt__deque from its
 * tail on). Owner thread only, except tail (read by thieves). */
typedef struct adapt__deque_end {
  size_t tail;                 /* atomic: next index to push */
  adapt__spawned *slots;       /* ADAPT__DEQUE_CAP entries, index mod capacity */
  size_t limit;                /* a push below it needs no look at the head */
  const int *sleepers;         /* atomic: idle workers asleep (runtime-wide) */
  struct adapt__worker *owner; /* the worker whose deque it is */
  size_t keep;                 /* a spawn runs its task at once while tail - head >= keep */
} adapt__deque_end;

/* The deque's head (atomic: the thieves' end) is ADAPT__DEQUE_HEAD_GAP
 * bytes before its tail, on the cache line before (the library asserts
 * it): the inline pops read it at a fixed offset, with no pointer to
 * load. */
#define ADAPT__DEQUE_HEAD_GAP 64
ADAPT__PART const size_t *adapt__deque_head(const adapt__deque_end *d) {
  return (const size_t *)(const void *)((const char *)d - ADAPT__DEQUE_HEAD_GAP);
}

/* The deque's thieves' word (atomic), on the head's cache line,
 * ADAPT__DEQUE_THIEVES_GAP bytes before its tail (the library asserts it):
 * the thieves between their announcement and their withdrawal in the low
 * bits (a permanent 1 where pops must always fence), the announcements so
 * far above them. A thief's announcement adds ADAPT__THIEVES_ENTER, its
 * withdrawal subtracts 1. */
#define ADAPT__DEQUE_THIEVES_GAP 56
#define ADAPT__THIEVES_COUNT ((size_t)0xffff)
#define ADAPT__THIEVES_ENTER ((size_t)0x10001)
ADAPT__PART const size_t *adapt__deque_thieves(const adapt__deque_end *d) {
  return (const size_t *)(const void *)((const char *)d - ADAPT__DEQUE_THIEVES_GAP);
}

/* The owner's pop of entry t = tail - 1 (inline adapt_sync, adapt_join;
 * the library's pops): nonzero if it won; 0, with the entry put back (tail
 * t + 1), if a thief may be taking it (the caller then calls the library,
 * which decides under the deque's lock). No fence while no thief is
 * announced: a thief announces itself in the deque's word, then calls
 * membarrier(2), before it touches the head (libadapt/src/deque.c,
 * "Announced thieves"); else, or if the word changed meanwhile, the THE
 * protocol's seq_cst pair. */
ADAPT__PART int adapt__deque_take(adapt__deque_end *d, size_t t) {
  const size_t *word = adapt__deque_thieves(d);
  /* acquire: pairs with a thief's release withdrawal (thieves_leave,
   * deque.c): the stores of head of its steals are visible to the load of
   * head below. */
  size_t before = __atomic_load_n(word, __ATOMIC_ACQUIRE);
  /* A relaxed store, a compiler barrier, an acquire load of head (no later
   * load moves above it): the owner half of an asymmetric Dekker pair with
   * the announcing thief's membarrier, which orders these accesses for the
   * CPU unless the second load of the word sees the announcement. */
  __atomic_store_n(&d->tail, t, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  size_t h = __atomic_load_n(adapt__deque_head(d), __ATOMIC_ACQUIRE);
  if (__builtin_expect(__atomic_load_n(word, __ATOMIC_RELAXED) != before ||
                           (before & ADAPT__THIEVES_COUNT) != 0,
                       0)) {
    /* seq_cst store then seq_cst load: the owner half of the THE Dekker
     * pair (pairs with the thief's seq_cst increment of head and load of
     * tail). */
    __atomic_store_n(&d->tail, t, __ATOMIC_SEQ_CST);
    h = __atomic_load_n(adapt__deque_head(d), __ATOMIC_SEQ_CST);
  }
  if (__builtin_expect(h <= t, 1)) return 1;
  /* release: pairs with a thief's seq_cst load of tail (the slot, and a
   * child's frame, written before the push's store, stay visible). */
  __atomic_store_n(&d->tail, t + 1, __ATOMIC_RELEASE);
  return 0;
}

/* adapt__scope_layout.magic of an open scope. */
#define ADAPT__SCOPE_MAGIC 0x61647053u /* "adpS" */
/* A bit of the key (above any frame count << 2: a frame takes 64 bytes of
 * stack, and 2^28 of them do not fit) that stands for the magic in two
 * states only the inline paths create: a scope begun inline that has not
 * pushed yet (only thread, counts and key written: its first push writes
 * the rest, adapt__scope_dress), and a child frame whose fork ran the task
 * at once (only thread and key written: the join just closes it). */
#define ADAPT__KEY_BARE (1u << 30)

/* The scope (the library's adapt__scope, same offsets). */
typedef struct adapt__scope_layout {
  struct adapt__worker *w;
  adapt__deque_end *dq; /* w's deque */
  size_t floor;         /* the deque's tail when the scope began */
  const void *thread;   /* the beginning thread (ADAPT__THREAD_SELF); NULL when closed */
  unsigned pushed;      /* adapt_spawn calls */
  unsigned local;       /* of those, run by the owner */
  unsigned key;         /* frame count at the beginning << 2 | region kind (0: nested),
                           + ADAPT__KEY_BARE until the first push of an inline begin */
  unsigned magic;
  struct adapt__team *team;
  unsigned remote, splits; /* atomic: written by other workers */
} adapt__scope_layout;

/* The library's public thread-locals: static TLS (initial-exec). */
#if defined(__GNUC__) || defined(__clang__)
#define ADAPT__TLS_PUBLIC __attribute__((tls_model("initial-exec"), visibility("default")))
#else
#define ADAPT__TLS_PUBLIC
#endif
#ifdef __cplusplus
#define ADAPT__ATOMIC_INT int
#else
#define ADAPT__ATOMIC_INT _Atomic int
#endif
/* A cancellation scope (adapt_cancel stops the innermost one). A barrier
 * is a NULL top (adapt__cancel_shield, adapt_ext.h), not a scope. */
typedef struct adapt__cancel_scope {
  ADAPT__ATOMIC_INT *flag;      /* set to 1 by adapt_cancel; never NULL */
  void (*hook)(void *hook_arg); /* called once per adapt_cancel after the
                                   flag is set (the engine's stop), or NULL */
  void *hook_arg;
  struct adapt__cancel_scope *prev;
  /* adapt__tls_tasks when pushed (adapt__cancel_push): adapt_cancel and
   * adapt_cancelled take a scope whose count differs from the thread's
   * for a barrier (a child task runs inline above it). */
  unsigned tasks;
} adapt__cancel_scope;
/* The calling thread's state the inline paths read and write, one
 * thread-local block (static TLS: one offset for all its fields), each
 * field named by a macro below. Written by the calling thread only. */
typedef struct adapt__tls_block {
  /* adapt__tls_frames: its open frames and scopes (a stolen piece does
   * not count). */
  unsigned frames;
  /* adapt__tls_dq: its worker's deque end (NULL: no worker). */
  adapt__deque_end *dq;
  /* adapt__team_cur: its current team (the innermost call with a worker
   * limit; NULL: none). */
  struct adapt__team *team;
  /* adapt__cancel_top: its innermost cancellation scope. */
  adapt__cancel_scope *cancel_top;
  /* adapt__tls_tasks: the tasks its inline adapt_join and adapt_sync are
   * running (their cancellation barrier, one add and one subtract). Not next
   * to frames: the join's two stores would be merged into vector code. */
  unsigned tasks;
  /* adapt__tls_loop: which nested adapt_for calls of its region run
   * inline (<adapt/loop.h>). On a worker no thief can reach (a one-worker
   * pool, or its solo worker), while it runs a region: ADAPT__LOOP_LAZY
   * (lazy DF, DF2 and BF run as a plain loop), with ADAPT__LOOP_DEFAULT
   * when the nested default scheduler is lazy. On a worker thieves can
   * reach, while it runs a region or as a pool thread: from
   * ADAPT__LOOP_THR_SHIFT on, each adapt_sched value's threshold code (1
   * lazy DF, 2 lazy DF2, 3 lazy-bf, the nested default's if it is one of
   * them, else 0): those loops run inline until the deque looks hungry; from
   * ADAPT__LOOP_SPLIT_SHIFT on, 8 x the worker count. 0 elsewhere. */
  unsigned loop;
  /* adapt__tls_loop_grain: ADAPT_GRAIN for those loops (0: unset). */
  size_t loop_grain;
} adapt__tls_block;
extern __thread adapt__tls_block adapt__tls ADAPT__TLS_PUBLIC;
#define adapt__tls_frames (adapt__tls.frames)
#define adapt__tls_tasks (adapt__tls.tasks)
#define adapt__tls_dq (adapt__tls.dq)
#define adapt__team_cur (adapt__tls.team)
#define adapt__cancel_top (adapt__tls.cancel_top)
#define adapt__tls_loop (adapt__tls.loop)
#define adapt__tls_loop_grain (adapt__tls.loop_grain)
/* adapt__tls_loop's bits: lazy loops run plain; so do loops resolved to
 * the default (nested) scheduler. */
#define ADAPT__LOOP_LAZY 1u
#define ADAPT__LOOP_DEFAULT 2u
/* adapt__tls_loop on a worker thieves can reach: from ADAPT__LOOP_THR_SHIFT
 * on, 2 bits per adapt_sched value (ADAPT_SCHED_COUNT of them): the
 * threshold code of the hunger check its nested loops run inline with (0:
 * not inline; <adapt/loop.h>, ADAPT__LOOP_BF); from ADAPT__LOOP_SPLIT_SHIFT
 * on, the default grain's divisor, 8 x the worker count (at most
 * ADAPT__LOOP_SPLIT_MAX). */
#define ADAPT__LOOP_THR_SHIFT 2u
#define ADAPT__LOOP_SPLIT_SHIFT 20u
#define ADAPT__LOOP_SPLIT_MAX 4095u

/* The calling thread's identity: its thread pointer (one instruction)
 * where the compiler has it, else the address of a thread-local. */
#if (defined(__x86_64__) || defined(__aarch64__)) &&                                               \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 11))
#define ADAPT__THREAD_SELF() ((const void *)__builtin_thread_pointer())
#else
#define ADAPT__THREAD_SELF() ((const void *)&adapt__tls_frames)
#endif

/* Wake a sleeping worker for the task adapt__spawn_inline or
 * adapt__fork_inline published (scope: the scope or the child frame; its
 * team is read, not its w). */
ADAPT_API void adapt__spawn_wake(adapt_scope *scope);

/* The end of an inline push of entry t (slot and frame written): publish
 * it, then wake a sleeper if there is one (scope: as adapt__spawn_wake's).
 * No fence: the sleeper's membarrier makes up for it (libadapt/src/idle.c,
 * "asymmetric Dekker pair"); where the runtime cannot use it, the deque's
 * limit is 0 and every push is the library's, which fences. */
static inline void adapt__push_end(adapt__deque_end *d, size_t t, adapt_scope *scope) {
  /* release: pairs with the thief's seq_cst load of tail (adapt__deque_steal),
   * which then sees the slot and a child's frame. */
  __atomic_store_n(&d->tail, t + 1, __ATOMIC_RELEASE);
  /* A compiler barrier between that store and the load of sleepers: the
   * pusher half of the asymmetric Dekker pair with the sleeper's increment
   * of sleepers and membarrier (idle.c), which orders them for the CPU. */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  /* relaxed: ordered by the pair above. */
  if (__builtin_expect(__atomic_load_n(d->sleepers, __ATOMIC_RELAXED) > 0, 0))
    adapt__spawn_wake(scope);
}

/* Lazy spawns (the lazy-scheduling paper's DF2-LS; docs/design.md,
 * "Spawned tasks"): does the deque, its tail t, already hold its keep
 * entries for thieves? Then a spawn or fork runs its task at once instead
 * of pushing it. */
ADAPT__PART int adapt__spawn_at_once(const adapt__deque_end *d, size_t t) {
  /* relaxed: a hint only (a stale head costs a push that was not needed or
   * a task run here that a thief could have taken; a failing thief's
   * head one past t reads as full). */
  return t - __atomic_load_n(adapt__deque_head(d), __ATOMIC_RELAXED) >= d->keep;
}

/* Run a spawned task fn(arg) on the calling thread, as its own context:
 * the count of inline tasks makes every cancellation scope pushed before
 * it a barrier while it runs (adapt__cancel_scope.tasks). With no scope
 * pushed there is nothing to shield (the scopes fn pushes record the
 * thread's count, unchanged), and no count. */
ADAPT__PART void adapt__run_at_once(void (*fn)(void *arg), void *arg) {
  if (__builtin_expect(adapt__cancel_top == 0, 1)) {
    fn(arg);
    return;
  }
  adapt__tls_tasks++;
  fn(arg);
  adapt__tls_tasks--;
}

/* The fields of a bare scope (ADAPT__KEY_BARE) that its first push needs,
 * written then: the worker and deque end d (the calling thread's), the
 * floor t (d's tail: every entry pushed since the begin is gone, or an
 * enclosing scope's), the team, the counts of other workers, the magic. */
static inline void adapt__scope_dress(adapt__scope_layout *s, adapt__deque_end *d, size_t t) {
  s->w = d->owner;
  s->dq = d;
  s->floor = t;
  s->team = adapt__team_cur;
  s->magic = ADAPT__SCOPE_MAGIC;
  s->key -= ADAPT__KEY_BARE;
  /* relaxed: no other worker sees the scope before a spawn publishes it. */
  __atomic_store_n(&s->remote, 0u, __ATOMIC_RELAXED);
  __atomic_store_n(&s->splits, 0u, __ATOMIC_RELAXED);
}

/* Nested in a region of this thread (a frame count above 0 implies its
 * worker, as the library's nested begin assumes): the frame count, the
 * thread, the counts and the key of a bare scope; else the function. */
static inline int adapt__scope_begin_inline(adapt_scope *scope) {
  unsigned f = adapt__tls_frames;
  if (__builtin_expect(!scope || f == 0, 0)) return (adapt_scope_begin)(scope);
  adapt__scope_layout *s = (adapt__scope_layout *)(void *)scope;
  adapt__tls_frames = f + 1;
  s->thread = ADAPT__THREAD_SELF();
  s->pushed = 0;
  s->local = 0;
  s->key = (f + 1) * 4u + ADAPT__KEY_BARE; /* a nested region (kind 0) */
  return 0;
}

static inline int adapt__spawn_inline(adapt_scope *scope, void (*fn)(void *arg), void *arg) {
  adapt__scope_layout *s = (adapt__scope_layout *)(void *)scope;
  if (__builtin_expect(!s || s->thread != ADAPT__THREAD_SELF() || !fn, 0))
    return (adapt_spawn)(scope, fn, arg);
  adapt__deque_end *d = adapt__tls_dq; /* the scope's: it was begun on this thread */
  /* relaxed: only the owner writes tail. */
  size_t t = __atomic_load_n(&d->tail, __ATOMIC_RELAXED);
  if (__builtin_expect(adapt__spawn_at_once(d, t), 1)) {
    adapt__run_at_once(fn, arg); /* not counted: the scope has nothing to wait for */
    return 0;
  }
  if (__builtin_expect(t >= d->limit, 0)) return (adapt_spawn)(scope, fn, arg);
  if (s->key & ADAPT__KEY_BARE) adapt__scope_dress(s, d, t);
  adapt__spawned *e = &d->slots[t % ADAPT__DEQUE_CAP];
  e->run = 0;
  e->split = 0;
  e->scope = (struct adapt__scope *)(void *)s;
  e->fn = fn;
  e->arg = arg;
  s->pushed++;
  adapt__push_end(d, t, scope);
  return 0;
}

ADAPT__PART int adapt__sync_inline(adapt_scope *scope) {
  adapt__scope_layout *s = (adapt__scope_layout *)(void *)scope;
  unsigned f = adapt__tls_frames;
  if (__builtin_expect(!s || s->thread != ADAPT__THREAD_SELF(), 0)) return (adapt_sync)(scope);
  if (__builtin_expect(s->key == f * 4u + ADAPT__KEY_BARE, 1)) {
    /* Nothing pushed (the lazy spawns ran their tasks at once). */
    s->thread = 0;
    adapt__tls_frames = f - 1;
    return 0;
  }
  if (__builtin_expect(s->key != f << 2, 0)) return (adapt_sync)(scope);
  if (__builtin_expect(s->local == s->pushed, 1)) {
    /* Every pushed task ran here (none was stolen): nothing to wait for. */
    s->thread = 0;
    s->magic = 0;
    adapt__tls_frames--;
    return 0;
  }
  adapt__deque_end *d = s->dq;
  /* relaxed: only the owner writes tail. */
  size_t t = __atomic_load_n(&d->tail, __ATOMIC_RELAXED);
  if (__builtin_expect(t <= s->floor, 0)) return (adapt_sync)(scope);
  t--;
  /* The entry is the scope's (the owner wrote the slot; thieves only read
   * it), and no thief may be taking it; else the library decides. */
  adapt__spawned *e = &d->slots[t % ADAPT__DEQUE_CAP];
  if (__builtin_expect(e->scope != (struct adapt__scope *)(void *)s || !adapt__deque_take(d, t), 0))
    return (adapt_sync)(scope);
  void (*fn)(void *) = e->fn; /* read the slot before fn may push */
  void *arg = e->arg;
  /* A spawned task is its own context: adapt_cancel inside it never
   * reaches the call this thread is running. */
  adapt__run_at_once(fn, arg);
  if (__builtin_expect(++s->local != s->pushed, 0)) return (adapt_sync)(scope);
  /* Every task ran here: none was stolen, nothing to wait for. */
  s->thread = 0;
  s->magic = 0;
  adapt__tls_frames--;
  return 0;
}

/* adapt__child_layout.magic of an open child frame. */
#define ADAPT__CHILD_MAGIC 0x61647043u /* "adpC" */
/* adapt__child_layout.index of a frame whose task already ran on the
 * forking thread outside its join (a fork on a full deque, or a wait of an
 * enclosing scope that popped it): tail never reaches it + 1. */
#define ADAPT__CHILD_RAN ((size_t)-2)

/* The tag of a child frame's deque entry: the slot's scope field holds the
 * frame's address | ADAPT__ENTRY_CHILD, and nothing else of the slot is
 * written (a thief reads fn, arg and team from the frame). */
#define ADAPT__ENTRY_CHILD ((size_t)1)

/* A child frame (the library's adapt__child, same offsets). w, team and
 * remote are at the scope's offsets (a thief runs the task as one of a
 * scope's, counting it in remote); after a theft the join turns the frame
 * into a scope of one task in place (its fn and arg are then the scope's
 * dq, pushed and local). The fork leaves w, remote and splits unwritten:
 * only a theft needs them, and the thief writes them under the deque's
 * lock before it runs the task. */
typedef struct adapt__child_layout {
  struct adapt__worker *w; /* the forking worker (written by a thief) */
  void (*fn)(void *);
  size_t index;       /* the task's deque index, or ADAPT__CHILD_RAN */
  const void *thread; /* the forking thread (ADAPT__THREAD_SELF); NULL when joined */
  void *arg;
  unsigned key; /* as adapt__scope_layout.key, + ADAPT__KEY_BARE when the task ran at once */
  unsigned magic;
  struct adapt__team *team;
  unsigned remote, splits; /* atomic: written by a thief */
} adapt__child_layout;

/* adapt_fork nested in a region: the frame count, the frame, and the
 * slot's one tagged pointer to it (no copy of the task into the slot). */
static inline int adapt__fork_inline(adapt_child *child, void (*fn)(void *arg), void *arg) {
  unsigned f = adapt__tls_frames;
  adapt__deque_end *d = adapt__tls_dq;
  /* f > 0: nested in a region, d is its worker's (as in the begin). */
  if (__builtin_expect(!child || !fn || f == 0, 0)) return (adapt_fork)(child, fn, arg);
  /* relaxed: only the owner writes tail. */
  size_t t = __atomic_load_n(&d->tail, __ATOMIC_RELAXED);
  adapt__child_layout *c = (adapt__child_layout *)(void *)child;
  if (__builtin_expect(adapt__spawn_at_once(d, t), 1)) {
    /* Lazy: the task runs now in the frame, which stays open until the
     * join closes it (nothing of the frame is published). */
    adapt__tls_frames = f + 1;
    c->thread = ADAPT__THREAD_SELF();
    c->key = (f + 1) * 4u + ADAPT__KEY_BARE; /* a nested region (kind 0); no magic */
    adapt__run_at_once(fn, arg);
    return 0;
  }
  if (__builtin_expect(t >= d->limit, 0)) return (adapt_fork)(child, fn, arg);
  adapt__tls_frames = f + 1;
  /* plain stores: no other worker sees the frame before the release store
   * of tail (adapt__push_end) publishes it. w,
   * remote and splits are left to a thief (adapt__child_layout). */
  c->fn = fn;
  c->index = t;
  c->thread = ADAPT__THREAD_SELF();
  c->arg = arg;
  c->key = (f + 1) << 2; /* a nested region (kind 0) */
  c->magic = ADAPT__CHILD_MAGIC;
  c->team = adapt__team_cur;
  d->slots[t % ADAPT__DEQUE_CAP].scope =
      (struct adapt__scope *)(void *)((size_t)(void *)c | ADAPT__ENTRY_CHILD);
  adapt__push_end(d, t, (adapt_scope *)(void *)child);
  return 0;
}

/* adapt_join, checked as adapt_sync (thread, frame count): a child whose
 * task ran at once (ADAPT__KEY_BARE) is closed; a pushed one whose task
 * is still the newest entry of the deque (tail == index + 1: the join is in
 * order and nothing popped it; a task run outside the join has index
 * ADAPT__CHILD_RAN) and wins the THE pop runs it here from the frame and
 * is closed; else the function. */
ADAPT__PART int adapt__join_inline(adapt_child *child) {
  adapt__child_layout *c = (adapt__child_layout *)(void *)child;
  unsigned f = adapt__tls_frames;
  if (__builtin_expect(!c || c->thread != ADAPT__THREAD_SELF(), 0)) return (adapt_join)(child);
  if (__builtin_expect(c->key != f * 4u + ADAPT__KEY_BARE, 0)) {
    if (__builtin_expect(c->key != f << 2, 0)) return (adapt_join)(child);
    size_t t = c->index;
    adapt__deque_end *d = adapt__tls_dq;
    /* relaxed: only the owner writes tail. */
    if (__builtin_expect(__atomic_load_n(&d->tail, __ATOMIC_RELAXED) != t + 1, 0))
      return (adapt_join)(child);
    if (__builtin_expect(!adapt__deque_take(d, t), 0))
      return (adapt_join)(child); /* a thief may be taking it: the library decides */
    /* A task is its own context, as in adapt__sync_inline. */
    adapt__run_at_once(c->fn, c->arg);
  }
  c->thread = 0; /* joined (magic stays: the function tells it apart) */
  adapt__tls_frames = f - 1;
  return 0;
}

#ifndef ADAPT__TASKS_NO_INLINE
#define adapt_scope_begin(scope) adapt__scope_begin_inline(scope)
#define adapt_spawn(scope, fn, arg) adapt__spawn_inline(scope, fn, arg)
#define adapt_sync(scope) adapt__sync_inline(scope)
#define adapt_fork(child, fn, arg) adapt__fork_inline(child, fn, arg)
#define adapt_join(child) adapt__join_inline(child)
#endif

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_TASKS_H */
