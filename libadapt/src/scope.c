/* Internal spawn scopes (scope.h): opening one, pushing and running its
 * entries, waiting for them (the machinery under adapt_scope_begin,
 * adapt_spawn, adapt_sync and the loop schedulers). */
#include "scope.h"

#include "frame.h"
#include "idle.h"
#include "thief.h"
#include "worker.h"

/* A child frame's entry its own worker took outside the frame's join (a
 * fork on a full deque, or the wait of an enclosing scope): run the task
 * here in the frame's team, uncounted, and mark the frame: its join then
 * has nothing to wait for (out of line). */
static ADAPT_NOINLINE void run_child_here(adapt__worker *w, adapt__child *c) {
  void (*fn)(void *) = c->fn;
  void *arg = c->arg;
  c->index = ADAPT__CHILD_RAN;
  /* As adapt__run_spawned for the owner's own entry: a barrier, the
   * call's team, no running record. */
  adapt__cancel_scope *outer = adapt__cancel_shield();
  adapt__team *team = adapt__team_cur;
  adapt__team_cur = c->team;
  if (w->nest < ADAPT_MAX_NEST) w->running[w->nest] = 0;
  w->nest++;
  fn(arg);
  w->nest--;
  adapt__team_cur = team;
  adapt__cancel_unshield(outer);
}

void adapt__run_spawned(adapt__worker *w, const adapt__spawned *t) {
  adapt__scope *s = t->scope;
  /* Only the slot's scope field of a child's entry was written. */
  adapt__child *c = adapt__entry_child(t);
  if (ADAPT__UNLIKELY(c != NULL)) {
    run_child_here(w, c);
    return;
  }
  /* A spawned entry is its own context: adapt_cancel inside it never
   * reaches the call this worker happened to be running (a barrier). */
  adapt__cancel_scope *outer = adapt__cancel_shield();
  /* And in its call's team: calls nested in it inherit its worker limit. */
  adapt__team *team = adapt__team_cur;
  adapt__team_cur = s ? s->team : NULL;
  /* bit 0: a scope (theft records are at least 2-aligned too) */
  if (w->nest < ADAPT_MAX_NEST) w->running[w->nest] = s && s->w != w ? (uintptr_t)s | 1u : 0;
  w->nest++;
  if (t->run)
    t->run(w, t);
  else
    t->fn(t->arg); /* a user task (adapt_spawn) */
  w->nest--;
  adapt__team_cur = team;
  adapt__cancel_unshield(outer);
  if (!s) return;
  if (s->w == w) {
    s->local++; /* the owner's own thread */
  } else {
    /* release: pairs with the acquire load of remote in adapt__scope_wait:
     * the entry's writes are visible to the code after the wait. */
    adapt__worker *owner = s->w; /* s may be gone once remote is counted */
    atomic_fetch_add_explicit(&s->remote, 1, memory_order_release);
    adapt__join_wake(owner);
  }
}

void adapt__scope_push(adapt__scope *s, adapt__spawned *e) {
  adapt__worker *w = s->w;
  e->scope = s;
  s->pushed++;
  if (adapt__push_entry(w, e) != 0) adapt__run_spawned(w, e); /* deque full: run it now */
}

/* adapt__scope_done for adapt__join_nap. */
static int scope_done_cb(void *s) { return adapt__scope_done(s); }

void adapt__scope_wait(adapt__scope *s) {
  adapt__worker *w = s->w;
  unsigned spins = 0, fails = 0;
  adapt__spawned t;
  for (;;) {
    /* Newest first: ours, or (lazy-bf) a range of an enclosing loop of this
     * worker pushed meanwhile, counted in that loop's scope. */
    if (adapt__deque_pop(&w->dq, s->floor, &t)) {
      adapt__run_spawned(w, &t);
      continue;
    }
    if (adapt__scope_done(s)) break;
    /* Our remaining entries were stolen: answer requests and help. */
    if (atomic_load_explicit(&w->nreq, memory_order_relaxed)) adapt__serve(w);
    int got = adapt__steal_and_run(w, -1);
    if (got > 0) {
      fails = 0;
      continue;
    }
    /* Nothing to help with: back off as an idle thief does (naps after a
     * few refused requests in a row), woken by the completion; only with
     * no published frame (a nap would leave requests for them unanswered
     * until it ends: thieves post no wake-up). */
    if (got < 0 && ++fails > ADAPT_BACKOFF_FAILS && w->depth == 0)
      adapt__join_nap(w, fails, scope_done_cb, s);
    else
      adapt__pause(&spins);
  }
  s->magic = 0;
}
