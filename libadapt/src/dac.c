/* ADAPT_SCHED_DAC: divide and conquer over spawn/sync, as cilk_for does:
 * split [lo, hi) in halves, spawn the upper half, go on with the lower one,
 * until at most G indices are left; run them, then sync. Thieves take the
 * oldest (largest) halves. */
#include "scope.h"
#include "schedulers.h"
#include "worker.h"

static void dac_piece_run(adapt__worker *w, const adapt__spawned *t) {
  adapt__dac_range(w, t->obj, t->lo, t->hi);
}

/* One chunk of l, as its own cancel scope (a leaf of the recursion). */
static void dac_leaf(const adapt__loop *l, size_t lo, size_t hi) {
  if (adapt__loop_cancelled(l)) return;
  adapt__cancel_scope cs;
  adapt__loop_range_begin(l, &cs);
  l->body(lo, hi, l->ctx);
  adapt__loop_range_end(&cs);
}

void adapt__dac_range(adapt__worker *w, const adapt__loop *l, size_t lo, size_t hi) {
  const size_t g = l->grain;
  if (hi - lo <= g) { /* a leaf: no scope to open */
    dac_leaf(l, lo, hi);
    return;
  }
  adapt__scope s;
  adapt__scope_open(&s, w);
  while (hi - lo > g) {
    size_t mid = lo + (hi - lo) / 2;
    adapt__spawned e = {.run = dac_piece_run, .obj = (void *)l, .lo = mid, .hi = hi};
    adapt__scope_push(&s, &e);
    hi = mid;
  }
  dac_leaf(l, lo, hi);
  adapt__scope_wait(&s);
}

void adapt__for_dac(adapt__worker *w, const adapt__loop *l) {
  adapt__dac_range(w, l, l->first, l->last);
}
