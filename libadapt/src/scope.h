/* Spawn scopes (private layout of the public adapt_scope). */
#ifndef LIBADAPT_SRC_SCOPE_H
#define LIBADAPT_SRC_SCOPE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <adapt/tasks.h>
#include "worker.h"

struct adapt__worker;
struct adapt__spawned;

/* Counting (no read-modify-write for entries the owner runs itself): the
 * scope is complete when local + remote == pushed + splits.
 *   pushed, local: owner thread only (entries it pushed / it ran itself);
 *   remote: +1 (release) by another worker after running one of them;
 *   splits: +1 (relaxed, under the victim's deque lock) by a thief for each
 *           piece split off a loop entry counted here.
 * The wait loads remote (acquire) before splits: a piece's split happens
 * before its parent entry completes (the parent's owner removes its loop
 * entry under the lock first), so a visible completion brings the splits
 * of its pieces with it and no outstanding piece goes unseen. Counters are
 * unsigned and compared modulo 2^32 (at most a deque's worth outstanding). */
typedef struct adapt__scope {
  /* --- Owner thread (the inline adapt_spawn/adapt_sync of <adapt/tasks.h>
   * read and write them: same offsets as adapt__scope_layout) --- */
  struct adapt__worker *w; /* owner */
  adapt__deque_end *dq;    /* &w->dq's owner end */
  size_t floor;            /* deque tail when the scope began */
  const void *thread;      /* the beginning thread (ADAPT__THREAD_SELF); NULL: closed */
  unsigned pushed;
  unsigned local;
  unsigned key; /* adapt_scope_begin: the thread's frame count then << 2
                               | the kind of region entered (adapt__region_enter) */
  uint32_t magic;
  /* The team of the call (worker limit) when the scope was opened, or
   * NULL: a thief takes an entry of the scope only once admitted to it
   * (adapt__deque_steal), and runs it in that team. */
  struct adapt__team *team;
  /* --- Other workers --- */
  atomic_uint remote;
  atomic_uint splits;
} adapt__scope;

_Static_assert(sizeof(adapt__scope) <= sizeof(adapt_scope), "adapt_scope too small");
_Static_assert(sizeof(adapt_child) == sizeof(adapt_scope), "adapt_child is a scope");
/* A child frame (adapt_child; the layout of <adapt/tasks.h>'s
 * adapt__child_layout): a scope of one task whose deque entry is only a
 * tagged pointer to the frame (ADAPT__ENTRY_CHILD in the slot's scope
 * field). w, thread, key, magic, team, remote and splits are at the
 * scope's offsets: a thief runs the task as one of the scope's (under the
 * deque's lock it reads fn, arg and team and writes w, remote and splits,
 * which the fork leaves unwritten; then it counts it in remote), the
 * checks are the scope's, and after a theft the join turns the frame into
 * the scope of one task in place (dq, floor, pushed and local over fn,
 * index and arg; the thief no longer reads them: see adapt_join). */
typedef struct adapt__child {
  struct adapt__worker *w;
  void (*fn)(void *);
  size_t index; /* the task's deque index, or ADAPT__CHILD_RAN */
  const void *thread;
  void *arg;
  unsigned key;
  uint32_t magic; /* ADAPT__CHILD_MAGIC while forked */
  struct adapt__team *team;
  atomic_uint remote;
  atomic_uint splits; /* 0: a child has no loop entry */
} adapt__child;

_Static_assert(sizeof(adapt__child) == sizeof(adapt_child), "adapt_child is a child frame");
/* The offsets shared with <adapt/tasks.h> and between the two frames, one
 * row per field (the child's field, the scope's at the same offset): the
 * scope's is adapt__scope_layout's, the child's adapt__child_layout's. */
#define ADAPT__SAME_AT(A, f, B, g)                                                                 \
  _Static_assert(offsetof(A, f) == offsetof(B, g), #A "." #f " is not at " #B "." #g)
#define ADAPT__FRAME_ROW(f, g)                                                                     \
  ADAPT__SAME_AT(adapt__scope, g, adapt__scope_layout, g);                                         \
  ADAPT__SAME_AT(adapt__child, f, adapt__child_layout, f);                                         \
  ADAPT__SAME_AT(adapt__child, f, adapt__scope, g);
ADAPT__FRAME_ROW(w, w)
ADAPT__FRAME_ROW(fn, dq)
ADAPT__FRAME_ROW(index, floor)
ADAPT__FRAME_ROW(thread, thread)
ADAPT__FRAME_ROW(arg, pushed)
ADAPT__FRAME_ROW(key, key)
ADAPT__FRAME_ROW(magic, magic)
ADAPT__FRAME_ROW(team, team)
ADAPT__FRAME_ROW(remote, remote)
ADAPT__FRAME_ROW(splits, splits)
ADAPT__SAME_AT(adapt__scope, local, adapt__scope_layout, local); /* in the child's arg */
#undef ADAPT__FRAME_ROW
#undef ADAPT__SAME_AT

/* The child frame whose entry e is, or NULL (any other entry). */
static inline adapt__child *adapt__entry_child(const struct adapt__spawned *e) {
  uintptr_t p = (uintptr_t)(void *)e->scope;
  return p & ADAPT__ENTRY_CHILD ? (adapt__child *)(void *)(p - ADAPT__ENTRY_CHILD) : NULL;
}

/* The region kind of s (adapt__region_enter) and its frame count. */
static inline int adapt__scope_region(const adapt__scope *s) { return (int)(s->key & 3u); }
static inline unsigned adapt__scope_depth(const adapt__scope *s) {
  return (s->key & ~ADAPT__KEY_BARE) >> 2;
}

/* Run an entry taken from a deque (owner's pop or a theft), then count it
 * done in its scope. */
void adapt__run_spawned(struct adapt__worker *w, const struct adapt__spawned *t);

/* Internal scopes (the schedulers'): no region, no checks. Open s on the
 * calling worker w; the floor is w's current deque tail. */
static inline void adapt__scope_open(adapt__scope *s, struct adapt__worker *w) {
  s->pushed = 0;
  s->local = 0;
  atomic_init(&s->remote, 0);
  atomic_init(&s->splits, 0);
  s->w = w;
  s->dq = adapt__deque_end_of(&w->dq);
  s->floor = adapt__deque_tail(&w->dq);
  s->thread = NULL;
  s->key = ADAPT__REGION_NESTED;
  s->magic = ADAPT__SCOPE_MAGIC;
  s->team = adapt__team_cur;
}
/* Has every entry counted in s run (pieces split off by thieves included)?
 * The owner's check, in the order scope.h's counting comment requires. */
static inline int adapt__scope_done(adapt__scope *s) {
  /* acquire: pairs with the release increments of remote in
   * adapt__run_spawned; then splits (see the counting comment above). */
  unsigned remote = atomic_load_explicit(&s->remote, memory_order_acquire);
  /* relaxed: ordered after the acquire load above; increments by thieves
   * under a deque lock, visible through the completions that follow them
   * or through the owner's adapt__deque_pop_locked. */
  unsigned splits = atomic_load_explicit(&s->splits, memory_order_relaxed);
  return s->local + remote == s->pushed + splits;
}
/* Push e (its scope set to s and counted) on s's worker's deque, or run it
 * at once if the deque is full; wakes sleepers. */
void adapt__scope_push(adapt__scope *s, struct adapt__spawned *e);
/* Run s's entries still in the deque, newest first, then steal and answer
 * requests until every entry counted in s has run (pieces split off by
 * thieves included). */
void adapt__scope_wait(adapt__scope *s);

#endif /* LIBADAPT_SRC_SCOPE_H */
