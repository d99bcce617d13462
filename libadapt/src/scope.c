/* Spawn scopes: adapt_scope_begin, adapt_spawn, adapt_sync. */
#include <errno.h>

#include "debug.h"
#include "scope.h"
#include "worker.h"

int adapt_scope_begin(adapt_scope *scope) {
  if (!scope) return -EINVAL;
  int rc = adapt__ensure();
  if (rc) return rc;
  adapt__scope *s = (adapt__scope *)(void *)scope;
  adapt__worker *w;
  s->region = (unsigned)adapt__region_enter(&w);
  atomic_init(&s->pending, 0);
  s->w = w;
  s->floor = adapt__deque_tail(&w->dq);
  s->magic = ADAPT__SCOPE_MAGIC;
  return 0;
}

void adapt__run_spawned(adapt__worker *w, const adapt__spawned *t) {
  w->nest++;
  t->fn(t->arg);
  w->nest--;
  /* release: pairs with the acquire load of pending in adapt_sync: the
   * task's writes are visible to the code after the sync. */
  atomic_fetch_sub_explicit(&t->scope->pending, 1, memory_order_release);
}

int adapt_spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || !fn || s->magic != ADAPT__SCOPE_MAGIC || s->w != adapt__self()) return -EINVAL;
  adapt__worker *w = s->w;
  /* relaxed: the decrement that matters is the release in run_spawned. */
  atomic_fetch_add_explicit(&s->pending, 1, memory_order_relaxed);
  adapt__spawned t = {fn, arg, s};
  if (adapt__deque_push(&w->dq, &t) != 0) {
    adapt__run_spawned(w, &t); /* deque full: run it now */
    return 0;
  }
  /* seq_cst: with the seq_cst store of tail in push, the waker half of the
   * Dekker pair of the idle protocol (idle.c). */
  if (atomic_load_explicit(&adapt__rt.sleepers, memory_order_seq_cst) > 0) adapt__wake_all();
  return 0;
}

int adapt_sync(adapt_scope *scope) {
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->w != adapt__self()) return -EINVAL;
  adapt__worker *w = s->w;
  unsigned spins = 0;
  adapt__spawned t;
  for (;;) {
    if (adapt__deque_pop(&w->dq, s->floor, &t)) { /* newest first: our own */
      ADAPT_ASSERT_PTR_EQ(t.scope, s);
      adapt__run_spawned(w, &t);
      continue;
    }
    /* acquire: pairs with the release decrement in adapt__run_spawned. */
    if (atomic_load_explicit(&s->pending, memory_order_acquire) == 0) break;
    /* Our remaining tasks were stolen: answer requests and help. */
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    if (adapt__steal_and_run(w, -1)) continue;
    adapt__pause(&spins);
  }
  s->magic = 0;
  adapt__region_leave((int)s->region);
  return 0;
}
