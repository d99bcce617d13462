/* Spawn/sync tasks (<adapt/tasks.h>): adapt_scope_begin, adapt_spawn,
 * adapt_sync, with their checks, over the internal scopes of scope.c.
 *
 * The work-first fast path (Cilk-5's THE protocol, deque.h): a nested
 * adapt_scope_begin touches a few thread-locals and reads the deque's tail;
 * adapt_spawn writes its entry in the next slot and publishes the tail;
 * adapt_sync pops the newest entry (one store, one load, one compare), runs
 * it inline if it is the scope's own task, and returns when the scope's
 * counts balance. Everything else (a pop that races a thief, stolen or
 * split entries, a full deque, a top-level region) takes the general path
 * of scope.c and region.c. */
#include <errno.h>
#include <adapt/tasks.h>

#include "error.h"
#include "idle.h"
#include "region.h"
#include "scope.h"
#include "worker.h"

int adapt_scope_begin(adapt_scope *scope) {
  adapt__error_clear();
  if (!scope) return adapt__fail(-EINVAL, "adapt_scope_begin: scope is NULL");
  adapt__scope *s = (adapt__scope *)(void *)scope;
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region, "adapt_scope_begin");
  if (rc) return rc;
  adapt__scope_open(s, w);
  s->thread = adapt__thread_token();
  s->region = (unsigned)region;
  s->depth = adapt__tls_frames;
  return 0;
}

static void run_user(adapt__worker *w, const adapt__spawned *t) {
  (void)w;
  t->fn(t->arg);
}

/* adapt__run_spawned for a task of s that its owner w popped itself. */
static inline void run_own(adapt__worker *w, adapt__scope *s, void (*fn)(void *), void *arg) {
  /* A spawned task is its own context: adapt_cancel inside it never
   * reaches the call this worker is running (a barrier). */
  adapt__cancel_scope barrier = {0};
  adapt__cancel_push(&barrier);
  if (w->nest < ADAPT_MAX_NEST) w->running[w->nest] = 0;
  w->nest++;
  fn(arg);
  w->nest--;
  adapt__cancel_pop(&barrier);
  s->local++;
}

/* Why scope s cannot be used by the calling thread in function fn: -EINVAL
 * with the detail (the slow path of adapt_spawn and adapt_sync). */
static int scope_error(const char *fn, const adapt__scope *s) {
  if (!s) return adapt__fail(-EINVAL, "%s: scope is NULL", fn);
  if (s->magic != ADAPT__SCOPE_MAGIC)
    return adapt__fail(-EINVAL, "%s: scope was not begun (or is already synced)", fn);
  if (s->thread != adapt__thread_token())
    return adapt__fail(-EINVAL, "%s: scope was begun by another thread", fn);
  return adapt__fail(-EINVAL,
                     "%s: scopes synced out of order (a frame or scope begun after this one "
                     "is still open: end it first)",
                     fn);
}

int adapt_spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->thread != adapt__thread_token())
    return scope_error("adapt_spawn", s);
  if (!fn) return adapt__fail(-EINVAL, "adapt_spawn: fn is NULL");
  adapt__worker *w = s->w;
  s->pushed++;
  adapt__spawned *e = adapt__deque_next_slot(&w->dq);
  if (ADAPT__UNLIKELY(!e)) { /* deque full: run it now */
    adapt__spawned t = {.run = run_user, .scope = s, .fn = fn, .arg = arg};
    adapt__run_spawned(w, &t);
    return 0;
  }
  e->run = run_user;
  e->split = NULL;
  e->scope = s;
  e->fn = fn;
  e->arg = arg;
  adapt__deque_publish(&w->dq);
  adapt__wake_after_push(w->solo);
  return 0;
}

int adapt_sync(adapt_scope *scope) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->thread != adapt__thread_token() ||
      s->depth != adapt__tls_frames)
    return scope_error("adapt_sync", s);
  unsigned region = s->region;
  adapt__worker *w = s->w;
  /* Fast path: the newest entry is this scope's task (nothing stolen since
   * the spawn): run it inline; done if the counts balance. */
  const adapt__spawned *e = adapt__deque_pop_slot(&w->dq, s->floor);
  if (e && e->scope == s && e->run == run_user) {
    run_own(w, s, e->fn, e->arg); /* reads the slot before fn may push */
    if (adapt__scope_done(s)) {
      s->magic = 0;
      adapt__region_leave((int)region);
      return 0;
    }
  } else if (e) {
    adapt__spawned t = *e;
    adapt__run_spawned(w, &t);
  }
  adapt__scope_wait(s);
  adapt__region_leave((int)region);
  return 0;
}
