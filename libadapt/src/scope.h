/* Spawn scopes (private layout of the public adapt_scope). */
#ifndef LIBADAPT_SRC_SCOPE_H
#define LIBADAPT_SRC_SCOPE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <adapt/tasks.h>

struct adapt__worker;
struct adapt__spawned;

#define ADAPT__SCOPE_MAGIC 0x61647053u /* "adpS" */

typedef struct adapt__scope {
  /* Tasks spawned in this scope and not finished: incremented by the owner
   * at spawn (relaxed), decremented by whoever runs the task when it has
   * finished (release); the owner's sync waits for 0 (acquire). */
  atomic_int pending;
  struct adapt__worker *w; /* owner */
  size_t floor;            /* deque tail when the scope began */
  unsigned region;         /* 1: top-level, holds the region lock */
  uint32_t magic;
} adapt__scope;

_Static_assert(sizeof(adapt__scope) <= sizeof(adapt_scope), "adapt_scope too small");

/* Run an entry taken from a deque (owner's pop or a theft), then count it
 * done in its scope. */
void adapt__run_spawned(struct adapt__worker *w, const struct adapt__spawned *t);

/* Internal scopes (the schedulers'): no region, no checks. Open s on the
 * calling worker w; the floor is w's current deque tail. */
void adapt__scope_open(adapt__scope *s, struct adapt__worker *w);
/* Push e (its scope set to s and counted) on s's worker's deque, or run it
 * at once if the deque is full; wakes sleepers. */
void adapt__scope_push(adapt__scope *s, struct adapt__spawned *e);
/* Run s's entries still in the deque, newest first, then steal and answer
 * requests until every entry counted in s has run (pieces split off by
 * thieves included). */
void adapt__scope_wait(adapt__scope *s);

#endif /* LIBADAPT_SRC_SCOPE_H */
