/* ADAPT_SCHED_LOOPFRAME: loop frames with on-the-fly splitting (see
 * loopframe.h for the protocol). The loop's owner pushes a splittable entry
 * for its frame and claims chunks of G from the front; a thief takes the
 * upper part of what is left and runs it as a frame of its own, which other
 * thieves may split in turn. Every piece is counted in the scope of the
 * worker that started the loop, which waits for all of them. */
#include "loopframe.h"

#include "debug.h"
#include "idle.h"
#include "scope.h"
#include "schedulers.h"
#include "worker.h"

void adapt__lf_init(adapt__loopframe *f, size_t lo, size_t hi, size_t g, adapt__deque *dq) {
  atomic_init(&f->start, lo);
  atomic_init(&f->end, hi);
  f->grain = g;
  f->dq = dq;
}

int adapt__lf_next(adapt__loopframe *f, size_t *b, size_t *e) {
  /* relaxed: only the owner writes start. */
  size_t s = atomic_load_explicit(&f->start, memory_order_relaxed);
  size_t ns = f->grain > SIZE_MAX - s ? SIZE_MAX : s + f->grain;
  /* seq_cst store then seq_cst load: the owner half of the Dekker pair with
   * the thief's seq_cst store of end and load of start in adapt__lf_split. */
  atomic_store_explicit(&f->start, ns, memory_order_seq_cst);
  size_t en = atomic_load_explicit(&f->end, memory_order_seq_cst);
  if (ADAPT_LIKELY(ns <= en && s < ns)) {
    *b = s;
    *e = ns;
    return 1;
  }
  /* Last chunk, or a thief is moving end: decide under the lock, where end
   * is stable (thieves write it only while holding it). */
  adapt__deque_lock(f->dq);
  en = atomic_load_explicit(&f->end, memory_order_relaxed);
  if (s >= en) {
    adapt__deque_unlock(f->dq);
    return 0;
  }
  if (en - s > f->grain) en = s + f->grain;
  /* relaxed: read by thieves under the lock we hold. */
  atomic_store_explicit(&f->start, en, memory_order_relaxed);
  adapt__deque_unlock(f->dq);
  *b = s;
  *e = en; /* the partial last chunk runs here, not after the sync */
  return 1;
}

int adapt__lf_split(adapt__loopframe *f, size_t *lo, size_t *hi) {
  /* seq_cst: with the stores below, orders our reads after any claim the
   * owner published (pairs with its seq_cst store of start). */
  size_t s = atomic_load_explicit(&f->start, memory_order_seq_cst);
  /* relaxed: end is written only by thieves, under the lock we hold. */
  size_t e = atomic_load_explicit(&f->end, memory_order_relaxed);
  if (s >= e) return ADAPT__SPLIT_DROP;
  size_t r = e - s, g = f->grain;
  size_t m = r > g ? s + (r / 2 > g ? r / 2 : g) : s;
  /* seq_cst store then seq_cst load: the thief half of the Dekker pair
   * (pairs with the owner's seq_cst store of start and load of end). */
  atomic_store_explicit(&f->end, m, memory_order_seq_cst);
  size_t s2 = atomic_load_explicit(&f->start, memory_order_seq_cst);
  if (s2 > m) { /* the owner's claim crossed m: back off */
    atomic_store_explicit(&f->end, e, memory_order_relaxed);
    return ADAPT__SPLIT_FAIL;
  }
  *lo = m;
  *hi = e;
  return s2 < m ? ADAPT__SPLIT_KEEP : ADAPT__SPLIT_LAST;
}

static void lf_run_range(adapt__worker *w, const adapt__loop *l, adapt__scope *root, size_t lo,
                         size_t hi);

static int lf_entry_split(const adapt__spawned *t, int thief, adapt__spawned *piece);

/* A piece taken by a thief: run it as a loop frame of the thief's own. */
static void lf_piece_run(adapt__worker *w, const adapt__spawned *t) {
  lf_run_range(w, t->obj, t->scope, t->lo, t->hi);
}

static int lf_entry_split(const adapt__spawned *t, int thief, adapt__spawned *piece) {
  (void)thief;
  adapt__loopframe *f = t->obj;
  size_t lo, hi;
  int r = adapt__lf_split(f, &lo, &hi);
  if (r == ADAPT__SPLIT_KEEP || r == ADAPT__SPLIT_LAST) {
    *piece = (adapt__spawned){
        .run = lf_piece_run, .scope = t->scope, .obj = (void *)t->arg, .lo = lo, .hi = hi};
  }
  return r;
}

static void lf_run_range(adapt__worker *w, const adapt__loop *l, adapt__scope *root, size_t lo,
                         size_t hi) {
  adapt__loopframe f;
  adapt__lf_init(&f, lo, hi, l->grain, &w->dq);
  size_t floor = adapt__deque_tail(&w->dq);
  /* The entry: obj is the frame, arg the loop (pieces carry the loop). */
  adapt__spawned e = {.split = lf_entry_split, .scope = root, .arg = (void *)l, .obj = &f};
  int pushed = hi - lo > l->grain && adapt__push_entry(w, &e) == 0;
  void (*const body)(size_t, size_t, void *) = l->body;
  void *const ctx = l->ctx;
  adapt__cancel_scope cs;
  adapt__loop_range_begin(l, &cs);
  size_t b, en;
  /* After a cancel the chunks are still claimed (thieves see them gone),
   * not run. */
  while (adapt__lf_next(&f, &b, &en))
    if (!adapt__loop_cancelled(l)) body(b, en, ctx);
  adapt__loop_range_end(&cs);
  adapt__spawned out;
  /* Under the lock: every split of our entry has happened before (and
   * counted its piece in root). The entry may already be gone (removed by
   * the thief that took the last part). */
  if (pushed) adapt__deque_pop_locked(&w->dq, floor, &out);
}

void adapt__for_loopframe(adapt__worker *w, const adapt__loop *l) {
  adapt__scope root;
  adapt__scope_open(&root, w);
  lf_run_range(w, l, &root, l->first, l->last);
  adapt__scope_wait(&root);
}
