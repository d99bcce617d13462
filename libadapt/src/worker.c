/* Workers: creation and release of a worker object (worker.h). */
#include "worker.h"

#include <stdlib.h>
#include <string.h>

size_t adapt__spawn_keep(int n) {
  /* With n == 1 (one worker, or a region's solo worker) no thief can reach
   * the worker, and every task runs at once. */
  return adapt__rt.spawn_keep == 0 ? SIZE_MAX : n == 1 ? 0 : adapt__rt.spawn_keep;
}

adapt__worker *adapt__worker_new(int id, int n) {
  adapt__worker *w = aligned_alloc(ADAPT_CACHE_LINE, sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->id = id;
  w->round = 1; /* the zeroed refusals are stamped 0: none is current */
  w->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1) ^ adapt__now_ns();
  size_t bytes = sizeof(adapt__req) * (size_t)n;
  w->req = aligned_alloc(ADAPT_CACHE_LINE,
                         (bytes + ADAPT_CACHE_LINE - 1) / ADAPT_CACHE_LINE * ADAPT_CACHE_LINE);
  if (!w->req) {
    free(w);
    return NULL;
  }
  memset(w->req, 0, bytes);
  w->refused = calloc((size_t)n, sizeof *w->refused);
  if (!w->refused || adapt__deque_init(&w->dq) != 0) {
    free(w->refused);
    free(w->req);
    free(w);
    return NULL;
  }
  w->dq.owner = w;
  w->dq.keep = adapt__spawn_keep(n);
  for (int i = 0; i < n; i++) atomic_init(&w->req[i].state, ADAPT__REQ_IDLE);
  atomic_init(&w->nreq, 0);
  atomic_init(&w->has_work, 0);
  atomic_init(&w->sleeping, 0);
  adapt__stats_clear(&w->stats);
  return w;
}

void adapt__worker_free(adapt__worker *w) {
  if (!w) return;
  adapt__trace_free(w);
  adapt__deque_fini(&w->dq);
  free(w->near);
  free(w->refused);
  free(w->req);
  free(w);
}
