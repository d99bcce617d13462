/* ADAPT_SCHED_HYBRID and ADAPT_SCHED_STATIC: partitions earmarked for
 * workers (A. Handleman, A. G. Rattew, I-T. A. Lee and T. B. Schardl, "A
 * Hybrid Scheduling Scheme for Parallel Loops", IPDPS 2021).
 *
 * The worker starting the loop pushes one splittable entry for it and runs
 * its own claim sequence. A thief w that finds the entry gets a copy of the
 * claim sequence for itself (entry kept) if w's own partition is still
 * free, and drops the entry otherwise (it then steals ordinary work, like
 * the halves of partitions being run). Claims are fetch_or on one flag per
 * partition, so each partition runs once. Partition r is always the same
 * range of a loop of a given size, so a worker gets the same indices loop
 * after loop when it arrives in time (loop affinity).
 *   hybrid: R = 2^k >= P partitions, Algorithm 3's claim sequence, each
 *           partition run as divide and conquer (thieves can balance it);
 *   static: R = P blocks; a thief claims only its own block; the starting
 *           worker runs its own, then every block nobody has claimed; one
 *           body call per block. */
#include "idle.h"
#include "scope.h"
#include "schedulers.h"
#include "worker.h"

typedef struct hybrid_loop {
  const adapt__loop *l;
  unsigned R;
  int is_static;
  atomic_uchar A[ADAPT_MAX_WORKERS]; /* claim flags, R used */
} hybrid_loop;

_Static_assert((ADAPT_MAX_WORKERS & (ADAPT_MAX_WORKERS - 1)) == 0,
               "hybrid partitions: ADAPT_MAX_WORKERS must be a power of 2");

unsigned adapt__hybrid_partitions(int nworkers) {
  unsigned r = 1;
  while (r < (unsigned)nworkers) r <<= 1;
  return r;
}

int adapt__hybrid_claim(atomic_uchar *A, unsigned i, unsigned w) {
  /* relaxed: only the atomicity of the RMW matters (one claimer per flag);
   * the loop's data is read-only and completion is counted by the scope. */
  return atomic_fetch_or_explicit(&A[i ^ w], 1, memory_order_relaxed) == 0;
}

unsigned adapt__hybrid_run(atomic_uchar *A, unsigned R, unsigned w,
                           void (*work)(unsigned r, void *arg), void *arg) {
  if (!adapt__hybrid_claim(A, 0, w)) return 0;
  work(w, arg);
  unsigned n = 1, i = 1;
  while (i < R) {
    if (adapt__hybrid_claim(A, i, w)) {
      work(i ^ w, arg);
      n++;
      i++;
    } else {
      i += i & (0u - i); /* skip by the least significant set bit */
    }
  }
  return n;
}

/* Bounds of partition r of R over [first, last): sizes differ by <= 1. */
static void part_bounds(const adapt__loop *l, unsigned R, unsigned r, size_t *lo, size_t *hi) {
  size_t n = l->last - l->first, q = n / R, rem = n % R;
  *lo = l->first + q * r + (r < rem ? r : rem);
  *hi = *lo + q + (r < rem ? 1 : 0);
}

typedef struct part_ctx {
  adapt__worker *w;
  hybrid_loop *h;
} part_ctx;

static void run_partition(unsigned r, void *arg) {
  part_ctx *c = arg;
  size_t lo, hi;
  part_bounds(c->h->l, c->h->R, r, &lo, &hi);
  if (lo == hi) return;
  const adapt__loop *l = c->h->l;
  if (c->h->is_static) {
    if (adapt__loop_cancelled(l)) return;
    adapt__cancel_scope cs;
    adapt__loop_range_begin(l, &cs);
    l->body(lo, hi, l->ctx);
    adapt__loop_range_end(&cs);
  } else
    adapt__dac_range(c->w, c->h->l, lo, hi);
}

static void claim_and_run(adapt__worker *w, hybrid_loop *h, int starter) {
  part_ctx c = {w, h};
  unsigned me = (unsigned)w->id;
  if (!h->is_static) {
    adapt__hybrid_run(h->A, h->R, me, run_partition, &c);
    return;
  }
  if (adapt__hybrid_claim(h->A, 0, me)) run_partition(me, &c);
  if (!starter) return;
  for (unsigned r = 0; r < h->R; r++) /* blocks whose worker did not come */
    if (adapt__hybrid_claim(h->A, r, 0)) run_partition(r, &c);
}

static void piece_run(adapt__worker *w, const adapt__spawned *t) { claim_and_run(w, t->obj, 0); }

static int entry_split(const adapt__spawned *t, int thief, adapt__spawned *piece) {
  hybrid_loop *h = t->obj;
  if ((unsigned)thief >= h->R) return ADAPT__SPLIT_DROP;
  /* relaxed: a hint; the claim decides. */
  if (atomic_load_explicit(&h->A[thief], memory_order_relaxed)) return ADAPT__SPLIT_DROP;
  *piece = (adapt__spawned){.run = piece_run, .scope = t->scope, .obj = h};
  return ADAPT__SPLIT_KEEP;
}

static void partitioned(adapt__worker *w, const adapt__loop *l, int is_static) {
  int P = adapt__rt.nworkers;
  hybrid_loop h;
  h.l = l;
  h.is_static = is_static;
  h.R = is_static ? (unsigned)P : adapt__hybrid_partitions(P);
  for (unsigned r = 0; r < h.R; r++) atomic_init(&h.A[r], 0);
  adapt__scope s;
  adapt__scope_open(&s, w);
  size_t floor = adapt__deque_tail(&w->dq);
  adapt__spawned e = {.split = entry_split, .scope = &s, .obj = &h};
  int pushed = P > 1 && adapt__push_entry(w, &e) == 0;
  claim_and_run(w, &h, 1);
  adapt__spawned out;
  /* Under the lock: every copy handed to a thief is counted in s. */
  if (pushed) adapt__deque_pop_locked(&w->dq, floor, &out);
  adapt__scope_wait(&s);
}

void adapt__for_hybrid(adapt__worker *w, const adapt__loop *l) { partitioned(w, l, 0); }

void adapt__for_static(adapt__worker *w, const adapt__loop *l) { partitioned(w, l, 1); }
