/* Per-call worker limit (adapt_attr.max_workers): the teams of
 * adapt_ext.h. A team counts its distinct members; a worker's bit is set
 * once, by the worker itself or by the victim that answers its request, so
 * no two threads admit the same worker at once. */
#include <string.h>

#include <errno.h>

#include <adapt/loop.h>

#include "../ext/adapt_ext.h"
#include "config.h"
#include "error.h"
#include "region.h"
#include "worker.h"

_Static_assert(ADAPT_MAX_WORKERS <= ADAPT__TEAM_MAX_IDS, "a team records at most 4096 worker ids");

void adapt__team_enter(adapt__team *t, unsigned k) {
  t->parent = adapt__team_cur;
  t->saved = adapt__team_cur;
  t->limit = k;
  atomic_init(&t->count, 0);
  for (size_t i = 0; i < sizeof t->members / sizeof t->members[0]; i++)
    atomic_init(&t->members[i], 0);
  adapt__team_cur = t;
}

void adapt__team_leave(adapt__team *t) { adapt__team_cur = t->saved; }

static int member_one(const adapt__team *t, int id) {
  /* relaxed: the bit is set by the worker itself or by the victim that
   * admitted it before replying (the reply's release/acquire pair orders
   * it); a stale 0 only makes the caller count the worker again, which
   * can refuse it but never admits more than the limit. */
  return (atomic_load_explicit(&t->members[(unsigned)id / 32u], memory_order_relaxed) >>
          ((unsigned)id % 32u)) &
         1u;
}

int adapt__team_member(const adapt__team *t, int id) {
  for (; t; t = t->parent)
    if (id < 0 || !member_one(t, id)) return 0;
  return 1;
}

int adapt__team_room(const adapt__team *t, int id, unsigned extra) {
  if (id < 0) return 0;
  for (; t; t = t->parent, extra = 0) {
    if (member_one(t, id)) continue;
    /* relaxed: a hint (see adapt__team_join for the decision). */
    if (atomic_load_explicit(&t->count, memory_order_relaxed) + extra >= t->limit) return 0;
  }
  return 1;
}

int adapt__team_join(adapt__team *t, int id) {
  if (id < 0 || id >= ADAPT__TEAM_MAX_IDS) return 0;
  if (t->parent && !adapt__team_join(t->parent, id)) return 0;
  if (member_one(t, id)) return 1;
  /* relaxed: only the atomicity of the count matters (at most limit
   * increments succeed); the members' work is ordered by the protocol that
   * hands them their piece. */
  unsigned c = atomic_load_explicit(&t->count, memory_order_relaxed);
  do {
    if (c >= t->limit) return 0;
  } while (!atomic_compare_exchange_weak_explicit(&t->count, &c, c + 1, memory_order_relaxed,
                                                  memory_order_relaxed));
  atomic_fetch_or_explicit(&t->members[(unsigned)id / 32u], 1u << ((unsigned)id % 32u),
                           memory_order_relaxed);
  return 1;
}

int adapt_with_workers(unsigned max_workers, void (*fn)(void *ctx), void *ctx) {
  adapt__error_clear();
  if (!fn) return adapt__fail(-EINVAL, "adapt_with_workers: fn is NULL");
  if (max_workers == 0) {
    fn(ctx);
    return 0;
  }
  /* A region, as a loop body's: the calls fn makes are nested, and the
   * caller has its worker, the team's first member (adapt_begin's join for
   * a loop). No cancel scope: fn's adapt_cancel goes to the enclosing
   * call. */
  adapt__worker *wk;
  int region, rc = adapt__region_enter(&wk, &region, "adapt_with_workers");
  if (rc) return rc;
  adapt__team team;
  adapt__team_enter(&team, max_workers);
  if (!wk->solo) adapt__team_join(&team, wk->id);
  fn(ctx);
  adapt__team_leave(&team);
  adapt__region_leave(region);
  return 0;
}
