/* Spawn scopes: adapt_scope_begin, adapt_spawn, adapt_sync. */
#include <errno.h>

#include "debug.h"
#include "scope.h"
#include "worker.h"

void adapt__scope_open(adapt__scope *s, adapt__worker *w) {
  atomic_init(&s->pending, 0);
  s->w = w;
  s->floor = adapt__deque_tail(&w->dq);
  s->region = 0;
  s->magic = ADAPT__SCOPE_MAGIC;
}

int adapt_scope_begin(adapt_scope *scope) {
  if (!scope) return -EINVAL;
  int rc = adapt__ensure();
  if (rc) return rc;
  adapt__scope *s = (adapt__scope *)(void *)scope;
  adapt__worker *w;
  int region = adapt__region_enter(&w);
  adapt__scope_open(s, w);
  s->region = (unsigned)region;
  return 0;
}

void adapt__run_spawned(adapt__worker *w, const adapt__spawned *t) {
  adapt__scope *s = t->scope;
  w->nest++;
  t->run(w, t);
  w->nest--;
  /* release: pairs with the acquire load of pending in adapt__scope_wait:
   * the entry's writes are visible to the code after the wait. */
  if (s) atomic_fetch_sub_explicit(&s->pending, 1, memory_order_release);
}

static void run_user(adapt__worker *w, const adapt__spawned *t) {
  (void)w;
  t->fn(t->arg);
}

void adapt__scope_push(adapt__scope *s, adapt__spawned *e) {
  adapt__worker *w = s->w;
  e->scope = s;
  /* relaxed: the decrement that matters is the release in run_spawned. */
  atomic_fetch_add_explicit(&s->pending, 1, memory_order_relaxed);
  if (adapt__deque_push(&w->dq, e) != 0) {
    adapt__run_spawned(w, e); /* deque full: run it now */
    return;
  }
  /* seq_cst: with the seq_cst store of tail in push, the waker half of the
   * Dekker pair of the idle protocol (idle.c). */
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0) adapt__wake_all();
}

int adapt_spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || !fn || s->magic != ADAPT__SCOPE_MAGIC || s->w != adapt__self()) return -EINVAL;
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
    /* acquire: pairs with the release decrement in adapt__run_spawned. */
    if (atomic_load_explicit(&s->pending, memory_order_acquire) == 0) break;
    /* Our remaining entries were stolen: answer requests and help. */
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (adapt__steal_and_run(w, -1)) continue;
    adapt__pause(&spins);
  }
  s->magic = 0;
}

int adapt_sync(adapt_scope *scope) {
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->w != adapt__self()) return -EINVAL;
  unsigned region = s->region;
  adapt__scope_wait(s);
  adapt__region_leave((int)region);
  return 0;
}
