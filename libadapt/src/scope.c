/* Spawn scopes: adapt_scope_begin, adapt_spawn, adapt_sync. */
#include <errno.h>

#include "debug.h"
#include "error.h"
#include "scope.h"
#include "worker.h"

void adapt__scope_open(adapt__scope *s, adapt__worker *w) {
  s->pushed = 0;
  s->local = 0;
  atomic_init(&s->remote, 0);
  atomic_init(&s->splits, 0);
  s->w = w;
  s->floor = adapt__deque_tail(&w->dq);
  s->thread = NULL;
  s->region = ADAPT__REGION_NESTED;
  s->depth = 0;
  s->magic = ADAPT__SCOPE_MAGIC;
}

int adapt_scope_begin(adapt_scope *scope) {
  adapt__error_clear();
  if (!scope) return adapt__fail(-EINVAL, "adapt_scope_begin: scope is NULL");
  adapt__scope *s = (adapt__scope *)(void *)scope;
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region);
  if (rc) return rc;
  adapt__scope_open(s, w);
  s->thread = adapt__thread_token();
  s->region = (unsigned)region;
  s->depth = adapt__tls_frames;
  return 0;
}

void adapt__run_spawned(adapt__worker *w, const adapt__spawned *t) {
  adapt__scope *s = t->scope;
  /* A spawned entry is its own context: adapt_cancel inside it never
   * reaches the call this worker happened to be running (a barrier). */
  adapt__cancel_scope barrier = {0};
  adapt__cancel_push(&barrier);
  w->nest++;
  t->run(w, t);
  w->nest--;
  adapt__cancel_pop(&barrier);
  if (!s) return;
  if (s->w == w) {
    s->local++; /* the owner's own thread */
  } else {
    /* release: pairs with the acquire load of remote in adapt__scope_wait:
     * the entry's writes are visible to the code after the wait. */
    atomic_fetch_add_explicit(&s->remote, 1, memory_order_release);
  }
}

static void run_user(adapt__worker *w, const adapt__spawned *t) {
  (void)w;
  t->fn(t->arg);
}

void adapt__scope_push(adapt__scope *s, adapt__spawned *e) {
  adapt__worker *w = s->w;
  e->scope = s;
  s->pushed++;
  if (adapt__push_entry(w, e) != 0) adapt__run_spawned(w, e); /* deque full: run it now */
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
  adapt__spawned t = {.run = run_user, .fn = fn, .arg = arg};
  adapt__scope_push(s, &t);
  return 0;
}

void adapt__scope_wait(adapt__scope *s) {
  adapt__worker *w = s->w;
  unsigned spins = 0;
  adapt__spawned t;
  for (;;) {
    /* Newest first: ours, or (lazy-bf) a range of an enclosing loop of this
     * worker pushed meanwhile, counted in that loop's scope. */
    if (adapt__deque_pop(&w->dq, s->floor, &t)) {
      adapt__run_spawned(w, &t);
      continue;
    }
    /* acquire: pairs with the release increments of remote in
     * adapt__run_spawned; then splits (see scope.h for the order). */
    unsigned remote = atomic_load_explicit(&s->remote, memory_order_acquire);
    /* relaxed: ordered after the acquire load above; increments by thieves
     * under a deque lock, visible through the completions that follow them
     * or through our adapt__deque_pop_locked. */
    unsigned splits = atomic_load_explicit(&s->splits, memory_order_relaxed);
    if (s->local + remote == s->pushed + splits) break;
    /* Our remaining entries were stolen: answer requests and help. */
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (adapt__steal_and_run(w, -1)) continue;
    adapt__pause(&spins);
  }
  s->magic = 0;
}

int adapt_sync(adapt_scope *scope) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->thread != adapt__thread_token() ||
      s->depth != adapt__tls_frames)
    return scope_error("adapt_sync", s);
  unsigned region = s->region;
  adapt__scope_wait(s);
  adapt__region_leave((int)region);
  return 0;
}
