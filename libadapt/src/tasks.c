/* Spawn/sync tasks (<adapt/tasks.h>): adapt_scope_begin, and the exported
 * adapt_spawn and adapt_sync, over the internal scopes of scope.c; the
 * child frames' adapt_fork and adapt_join (a scope of one task whose deque
 * entry is a tagged pointer to the frame, scope.h: the frame holds the
 * task; after a theft the join turns it into the scope of one task).
 *
 * The work-first fast paths (Cilk-5's THE protocol, deque.h) are inline in
 * <adapt/tasks.h>: a call adapt_spawn(...) writes the task in the tail
 * slot and publishes the tail; adapt_sync(...) pops the newest entry (one
 * store, one load, one compare), runs it if it is the scope's own task,
 * and closes the scope when every task it spawned ran on this thread.
 * Whatever they do not cover comes here: the functions below do the whole
 * job from the scope's state (a call after a partial inline sync
 * continues it): the checks and their details, a full deque, waking a
 * sleeper, a pop that races a thief, stolen entries, a top-level region.
 * adapt_scope_begin is inline too when nested (the header fills the scope
 * as scope_begin_on does, from the public thread-locals adapt__tls_dq,
 * adapt__tls_frames and adapt__team_cur); a top-level one comes here. */
#include <errno.h>
#define ADAPT__TASKS_NO_INLINE
#include <adapt/tasks.h>

#include "debug.h"
#include "error.h"
#include "idle.h"
#include "region.h"
#include "scope.h"
#include "worker.h"

/* Open s on w after entering a region of kind region. */
static inline void scope_begin_on(adapt__scope *s, adapt__worker *w, int region) {
  adapt__scope_open(s, w);
  s->thread = ADAPT__THREAD_SELF();
  s->key = adapt__tls_frames << 2 | (unsigned)region;
}

/* adapt_scope_begin on a thread outside any region (out of line). */
static ADAPT_NOINLINE int scope_begin_top(adapt__scope *s) {
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region, "adapt_scope_begin");
  if (rc) return rc;
  scope_begin_on(s, w, region);
  return 0;
}

int adapt_scope_begin(adapt_scope *scope) {
  adapt__error_clear();
  if (!scope) return adapt__fail(-EINVAL, "adapt_scope_begin: scope is NULL");
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (ADAPT__UNLIKELY(!adapt__region_is_nested())) return scope_begin_top(s);
  scope_begin_on(s, adapt__region_enter_nested(), ADAPT__REGION_NESTED);
  return 0;
}

/* Does s bear the mark of a begun scope (its magic, or the key's
 * ADAPT__KEY_BARE of an inline begin that has not pushed)? */
static inline int scope_marked(const adapt__scope *s) {
  return s->magic == ADAPT__SCOPE_MAGIC || (s->key & ADAPT__KEY_BARE);
}

/* Why scope s cannot be used by the calling thread in function fn: -EINVAL
 * with the detail (the slow path of adapt_spawn and adapt_sync). */
static ADAPT_NOINLINE int scope_error(const char *fn, const adapt__scope *s) {
  if (!s) return adapt__fail(-EINVAL, "%s: scope is NULL", fn);
  if (!scope_marked(s) || !s->thread)
    return adapt__fail(-EINVAL, "%s: scope was not begun (or is already synced)", fn);
  if (s->thread != ADAPT__THREAD_SELF())
    return adapt__fail(-EINVAL, "%s: scope was begun by another thread", fn);
  return adapt__fail(-EINVAL,
                     "%s: scopes synced out of order (a frame or scope begun after this one "
                     "is still open: end it first)",
                     fn);
}

/* Is s unusable by the calling thread (sync: also out of order)? */
static inline int scope_bad(const adapt__scope *s, int sync) {
  return ADAPT__UNLIKELY(!s || !scope_marked(s) || s->thread != ADAPT__THREAD_SELF() ||
                         (sync && adapt__scope_depth(s) != adapt__tls_frames));
}

/* adapt_spawn with the deque full: run the task now (out of line). */
static ADAPT_NOINLINE int spawn_full(adapt__scope *s, void (*fn)(void *), void *arg) {
  adapt__spawned t = {.run = NULL, .scope = s, .fn = fn, .arg = arg};
  adapt__run_spawned(s->w, &t);
  return 0;
}

/* adapt_spawn after the error-detail check: the fast path, whose only
 * calls are tail calls (no registers to save). */
static inline int spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (scope_bad(s, 0)) return scope_error("adapt_spawn", s);
  if (ADAPT__UNLIKELY(!fn)) return adapt__fail(-EINVAL, "adapt_spawn: fn is NULL");
  /* A bare scope (begun inline, nothing pushed) was begun by this thread
   * on its worker. */
  adapt__worker *w = s->key & ADAPT__KEY_BARE ? adapt__tls_worker : s->w;
  if (adapt__deque_at_once(&w->dq)) {
    adapt__run_at_once(fn, arg); /* lazy, as the inline spawn: not counted */
    return 0;
  }
  if (s->key & ADAPT__KEY_BARE)
    adapt__scope_dress((adapt__scope_layout *)(void *)s, adapt__deque_end_of(&w->dq),
                       adapt__deque_tail(&w->dq));
  s->pushed++;
  adapt__spawned *e = adapt__deque_next_slot(&w->dq);
  if (ADAPT__UNLIKELY(!e)) return spawn_full(s, fn, arg);
  e->run = NULL;
  e->split = NULL;
  e->scope = s;
  e->fn = fn;
  e->arg = arg;
  adapt__deque_publish(&w->dq);
  adapt__wake_after_push(w->solo, s->team);
  return 0;
}

/* adapt_spawn with a detail to clear first (out of line). */
static ADAPT_NOINLINE int spawn_clearing(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__error_clear();
  return spawn(scope, fn, arg);
}

void adapt__spawn_wake(adapt_scope *scope) {
  const adapt__scope *s = (const adapt__scope *)(void *)scope;
  /* The calling thread's worker is the scope's (a child frame's w is not
   * written by its fork). */
  if (!adapt__tls_dq->owner->solo) adapt__wake_for(s->team);
}

int adapt_spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  if (ADAPT__UNLIKELY(adapt__error_pending)) return spawn_clearing(scope, fn, arg);
  return spawn(scope, fn, arg);
}

/* adapt_sync's general path (out of line): e, the entry popped by the fast
 * path that is not the scope's own task (or NULL), then the wait. */
static ADAPT_NOINLINE int sync_slow(adapt__scope *s, const adapt__spawned *e) {
  int region = adapt__scope_region(s);
  if (e) {
    adapt__spawned t = *e;
    adapt__run_spawned(s->w, &t);
  }
  adapt__scope_wait(s);
  s->thread = NULL;
  s->magic = 0;
  adapt__region_leave(region);
  return 0;
}

/* adapt_sync, errors naming the function name. */
static inline int sync_named(adapt_scope *scope, const char *name) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (scope_bad(s, 1)) return scope_error(name, s);
  if (s->key & ADAPT__KEY_BARE) { /* begun inline, nothing pushed: nested */
    s->thread = NULL;
    adapt__region_leave(ADAPT__REGION_NESTED);
    return 0;
  }
  /* Fast path: the newest entry is this scope's task (nothing stolen since
   * the spawn): run it inline; done if the counts balance. */
  const adapt__spawned *e = adapt__deque_pop_slot_hot(&s->w->dq, s->floor);
  if (ADAPT__UNLIKELY(!e || e->scope != s)) return sync_slow(s, e);
  ADAPT_ASSERT_PTR_EQ((const void *)e->split, NULL);
  void (*fn)(void *) = e->fn; /* read the slot before fn may push */
  void *arg = e->arg;
  /* A spawned task is its own context: adapt_cancel inside it never
   * reaches the call this worker is running (a barrier). It runs on this
   * worker's own stack as its owner's code would: no record in w->running
   * (nothing of another worker to give back if the thread exits). */
  adapt__cancel_scope *outer = adapt__cancel_shield();
  fn(arg);
  adapt__cancel_unshield(outer);
  s->local++;
  if (ADAPT__UNLIKELY(!adapt__scope_done(s))) return sync_slow(s, NULL);
  s->thread = NULL;
  s->magic = 0;
  adapt__region_leave(adapt__scope_region(s));
  return 0;
}

int adapt_sync(adapt_scope *scope) { return sync_named(scope, "adapt_sync"); }

/* adapt_fork after the NULL checks: a region entered (nested or top-level,
 * as adapt_scope_begin), the frame filled, the slot's tagged pointer to it
 * pushed (or, on a full deque, the task run at once). */
int adapt_fork(adapt_child *child, void (*fn)(void *), void *arg) {
  adapt__error_clear();
  if (!child || !fn) return adapt__fail(-EINVAL, "adapt_fork: child or fn is NULL");
  adapt__child *c = (adapt__child *)(void *)child;
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region, "adapt_fork");
  if (rc) return rc;
  c->fn = fn; /* w, remote and splits: a thief's (adapt__deque_steal) */
  c->thread = ADAPT__THREAD_SELF();
  c->arg = arg;
  c->key = adapt__tls_frames << 2 | (unsigned)region;
  c->magic = ADAPT__CHILD_MAGIC;
  c->team = adapt__team_cur;
  adapt__spawned tagged = {.scope = (adapt__scope *)(void *)((uintptr_t)c | ADAPT__ENTRY_CHILD)};
  adapt__spawned *e = adapt__deque_at_once(&w->dq) ? NULL : adapt__deque_next_slot(&w->dq);
  if (!e) {
    /* Lazy (the deque holds its keep entries) or full: runs it now, index
     * ADAPT__CHILD_RAN. */
    adapt__run_spawned(w, &tagged);
    return 0;
  }
  c->index = adapt__deque_tail(&w->dq);
  e->scope = tagged.scope;
  adapt__deque_publish(&w->dq);
  adapt__wake_after_push(w->solo, c->team);
  return 0;
}

/* Does c bear the mark of a forked child (its magic, or the key's
 * ADAPT__KEY_BARE of an inline fork that ran its task at once)? */
static inline int child_marked(const adapt__child *c) {
  return c->magic == ADAPT__CHILD_MAGIC || (c->key & ADAPT__KEY_BARE);
}

/* Is c unusable by the calling thread's join (or joined out of order)? */
static inline int child_bad(const adapt__child *c) {
  return !c || !child_marked(c) || c->thread != ADAPT__THREAD_SELF() ||
         (c->key & ~ADAPT__KEY_BARE) >> 2 != adapt__tls_frames;
}

/* Why adapt_join cannot use c: -EINVAL with the detail (out of line). */
static ADAPT_NOINLINE int child_error(const adapt__child *c) {
  if (!c) return adapt__fail(-EINVAL, "adapt_join: child is NULL");
  if (!child_marked(c) || !c->thread)
    return adapt__fail(-EINVAL, "adapt_join: child was not forked (or is already joined)");
  if (c->thread != ADAPT__THREAD_SELF())
    return adapt__fail(-EINVAL, "adapt_join: child was forked by another thread");
  return adapt__fail(-EINVAL, "adapt_join: joined out of order (a frame or scope begun after "
                              "this child is still open: end it first)");
}

/* adapt_join's wait for a task not yet run here (out of line): pop the
 * newest entries down to the child's; run the child's task here if it is
 * still there, else (stolen) wait for the thief as a scope's sync does. */
static ADAPT_NOINLINE void join_wait(adapt__child *c) {
  adapt__worker *w = adapt__tls_dq->owner; /* the forking worker (c->w: a thief's) */
  size_t t = c->index;
  const adapt__scope *mine = (const adapt__scope *)(void *)((uintptr_t)c | ADAPT__ENTRY_CHILD);
  for (;;) {
    /* The THE pop, under the lock when it meets head. */
    adapt__spawned *e = adapt__deque_pop_slot_hot(&w->dq, t);
    if (!e) break;
    if (e->scope == mine) {
      void (*fn)(void *) = c->fn;
      void *arg = c->arg;
      adapt__run_at_once(fn, arg); /* its own context, as in the inline join */
      return;
    }
    /* An entry pushed after the fork and still here (an enclosing scope's
     * spawn): run it, as a sync runs what it pops. */
    adapt__spawned other = *e;
    adapt__run_spawned(w, &other);
  }
  /* Stolen: the thief took head past the task and read the frame's fn,
   * arg and team under the lock, which the pop took after it (acquire,
   * pairing with the thief's release in adapt__deque_unlock): nobody reads
   * them any more, and the frame becomes the scope of one task in place
   * (its w, remote and splits, at the scope's offsets, written by the
   * thief under that lock; remote is the thief's to count). */
  adapt__scope *s = (adapt__scope *)(void *)c;
  s->dq = adapt__deque_end_of(&w->dq);
  s->floor = t;
  s->pushed = 1;
  s->local = 0;
  adapt__scope_wait(s);
}

int adapt_join(adapt_child *child) {
  adapt__error_clear();
  adapt__child *c = (adapt__child *)(void *)child;
  if (ADAPT__UNLIKELY(child_bad(c))) return child_error(c);
  int region = (int)(c->key & 3u);
  /* Ran: at once by the inline fork (ADAPT__KEY_BARE), or by this
   * worker outside the join (index). */
  if (!(c->key & ADAPT__KEY_BARE) && c->index != ADAPT__CHILD_RAN) join_wait(c);
  c->thread = NULL;
  c->magic = 0;
  adapt__region_leave(region);
  return 0;
}
