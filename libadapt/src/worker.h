/* Workers: the layout of one worker (its frame stack, request slots,
 * deque, counters and trace), and its creation and release. */
#ifndef LIBADAPT_SRC_WORKER_H
#define LIBADAPT_SRC_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "config.h"
#include "deque.h"
#include "request.h"
#include "rt.h"
#include "stats.h"
#include "trace.h"

struct adapt__frame;
struct adapt__theft;
struct adapt__lazy_td;

typedef struct adapt__worker {
  /* --- Owner only: frame stack, pool, random state (hot, one thread) --- */
  _Alignas(ADAPT_CACHE_LINE) int id;
  unsigned depth;   /* published frames */
  unsigned serving; /* inside adapt__serve: no re-entry */
  unsigned floor;   /* frames[0 .. floor-1] are being reduced: not split */
  unsigned nest;    /* stolen or spawned work running on this stack (not
                       the scope's own task adapt_sync runs inline) */
  uint64_t rng;
  struct adapt__theft *pool; /* free theft records (records.h) */
  int *near;                 /* workers sharing this one's closest shared cache */
  int nnear;
  pthread_t thread;
  int has_thread;      /* 1 for workers 1..n-1 */
  int solo;            /* 1: a thread's own worker for regions started while the
                          pool is busy (never a victim, never a thief) */
  uint64_t idle_since; /* idle loop: start of the current idle period, 0 if none */
  unsigned pubgen;     /* publications so far (the generation in has_work) */
  unsigned round;      /* idle round: the refusals stamped with it are current */
  /* Per victim: what refused our last requests (idle.c): its has_work value
   * (a worker limit, or ADAPT_REFUSED_SLEEP answers "nothing to split" in a
   * row) and the head index of its deque, each valid while its round is
   * `round`. */
  struct adapt__refusal *refused;
  /* Victim side: 1 once this worker answered a request "nothing to split"
   * (adapt__serve) since its last adapt__regrown: a range that grows back
   * without a publication then bumps has_work's generation. */
  int refused_out;
  unsigned fails;    /* idle loop: failed requests in a row (pool.c back-off) */
  int looking;       /* counted in adapt__rt.idle (a pool worker in its idle
                        loop, not running work: pool.c, thief.c end_idle) */
  unsigned rechecks; /* idle loop: timed sleeps on "nothing to split" refusals
                        that timed out since the last piece run (idle.c) */
  struct adapt__lazy_td *postponed_oldest; /* lazy-bf: private deque of postponed */
  struct adapt__lazy_td *postponed_newest; /* ranges, on this worker's stack */
  struct adapt__frame *frames[ADAPT_MAX_DEPTH];
  /* Work of other workers running on this stack, by nesting level (nest
   * before the run): the theft record of a stolen piece, or the scope of a
   * spawned entry stolen from another worker (tagged by bit 0), NULL for
   * this worker's own entries. Read at the exit of a region's thread that
   * exits inside it (region.c), so that no owner waits for it forever. */
  uintptr_t running[ADAPT_MAX_NEST];
  adapt__trace_buf trace;

  /* --- Written by thieves (post and cancel), read by the owner's poll --- */
  _Alignas(ADAPT_CACHE_LINE) atomic_uint nreq;

  /* --- Written by the owner, read by thieves choosing a victim and by
   * sleepers: the number of published frames in the low 8 bits
   * (ADAPT__HW_DEPTH), the generation of the last publication above them
   * (adapt__hw_value), so that a sleeper tells a new frame from the ones
   * that refused it. seq_cst (see adapt__idle_sleep). `sleeping`: 1 while
   * this worker is in adapt__idle_sleep's check or asleep (seq_cst: read by
   * adapt__wake_for). `joining`: 1 while the owner naps at a spawn join
   * (adapt__join_nap; seq_cst: read by adapt__join_wake after a stolen
   * entry of its scope completes). */
  _Alignas(ADAPT_CACHE_LINE) atomic_int has_work;
  atomic_int sleeping;
  atomic_int joining;

  /* --- Counters: written by the owner (relaxed), read by anyone --- */
  _Alignas(ADAPT_CACHE_LINE) adapt__stats stats;

  /* --- Request slots, one per thief, each on its own line --- */
  adapt__req *req;

  /* --- Spawned tasks (THE deque: own cache-line groups inside) --- */
  adapt__deque dq;
} adapt__worker;

/* A refusal recorded by a thief (worker.h `refused`, idle.c). */
typedef struct adapt__refusal {
  int hw;            /* the victim's has_work when all its frames refused us */
  unsigned hw_round; /* w->round when recorded */
  int hw_soft;       /* 1: hw refused for "nothing to split", 0: a worker limit */
  int recheck;       /* 1: hw's refusal expired by a timed sleep (idle.c), not
                        asked again yet */
  size_t head;       /* the victim's deque head whose entry refused us */
  unsigned head_round;
  int soft_hw;         /* the victim's has_work in its last "nothing to split" answers */
  unsigned soft_round; /* w->round when soft_hw was recorded */
  unsigned soft_n;     /* such answers in a row with that value */
} adapt__refusal;

/* 1 if hw, victim v's has_work value, is the one that refused w in w's
 * current idle round (owner of w: w->refused is its own). */
static inline int adapt__refused_hw(const adapt__worker *w, int v, int hw) {
  const adapt__refusal *r = &w->refused[v];
  return r->hw_round == w->round && r->hw == hw;
}
/* 1 if h, victim v's deque head index, is the one whose entry refused w in
 * w's current idle round (owner of w). */
static inline int adapt__refused_head(const adapt__worker *w, int v, size_t h) {
  const adapt__refusal *r = &w->refused[v];
  return r->head_round == w->round && r->head == h;
}

_Static_assert(ADAPT_MAX_DEPTH < 256, "has_work keeps the depth in 8 bits");
/* The published frames counted in a has_work value. */
#define ADAPT__HW_DEPTH(v) ((v)&0xff)
/* w's has_work value for its current depth and generation (owner). */
static inline int adapt__hw_value(const adapt__worker *w) {
  return (int)(((w->pubgen & 0x7fffffu) << 8) | w->depth);
}

/* Make the calling thread act as w (NULL: none), for the library and for
 * the inline adapt_scope_begin (adapt__tls_dq). */
static inline void adapt__set_self(adapt__worker *w) {
  adapt__tls_dq = w ? adapt__deque_end_of(&w->dq) : NULL;
  adapt__set_identity(w, w && !w->solo ? w->id : -1);
}

/* The lazy spawns' threshold (adapt__deque.keep) of a worker of a pool of
 * n (1: no thief can reach it) under the current ADAPT_SPAWN_KEEP. */
size_t adapt__spawn_keep(int n);

/* A worker with id `id` and one request slot per worker of n; NULL on
 * ENOMEM. */
adapt__worker *adapt__worker_new(int id, int n);
/* Free w (NULL: nothing), its trace buffer, deque and slots. */
void adapt__worker_free(adapt__worker *w);

#endif /* LIBADAPT_SRC_WORKER_H */
