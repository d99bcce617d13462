/* Regions: the span from a thread's first adapt_begin, adapt_scope_begin
 * or adapt_for to its matching end, during which the runtime is not
 * finalized. A top-level region takes worker 0's place if it is free, and
 * otherwise runs alone on the thread's own (solo) worker. */
#ifndef LIBADAPT_SRC_REGION_H
#define LIBADAPT_SRC_REGION_H

#include "rt.h"

struct adapt__worker;

/* Enter a region (adapt_begin, adapt_scope_begin, adapt_for). Nested (the
 * calling thread is inside a region, or is a worker thread): *w is its
 * worker. Top-level: start the runtime if it is not running, then take
 * worker 0's place if no other region holds it, else run on the thread's
 * own solo worker (a region never waits for another one: a thread started
 * and joined by a body may run loops); finalize waits until the region
 * leaves. Either way the thread's frame count is incremented. 0 and
 * *region (ADAPT__REGION_*, rt.h), or adapt_init's errors, or -ENOMEM (no
 * solo worker); on error nothing is entered. fn: the public call (a static
 * string), named on stderr if the thread exits before the region ends
 * (the region is then closed and its place given back). */
static inline int adapt__region_enter(struct adapt__worker **w, int *region, const char *fn);
/* The top-level half of adapt__region_enter (out of line). */
int adapt__region_start(struct adapt__worker **w, int *region, const char *fn);
/* Close what adapt__region_enter opened (region: the kind it gave). */
static inline void adapt__region_leave(int region);
/* The top-level half of adapt__region_leave (out of line). */
void adapt__region_end(int region);

/* Would adapt__region_enter be nested (the calling thread is inside a
 * region, or is a worker thread)? */
static inline int adapt__region_is_nested(void) {
  return adapt__tls_frames != 0 || adapt__tls_pool_thread;
}

/* The nested case of adapt__region_enter alone, when adapt__region_is_nested
 * (a few thread-local accesses, no call): the frame count incremented, the
 * calling thread's worker returned. */
static inline struct adapt__worker *adapt__region_enter_nested(void) {
  adapt__tls_frames++;
  return adapt__tls_worker;
}

/* Inline: the nested case (every adapt_scope_begin below the top of a
 * recursion) is adapt__region_enter_nested. */
static inline int adapt__region_enter(struct adapt__worker **w, int *region, const char *fn) {
  if (ADAPT__UNLIKELY(!adapt__region_is_nested())) return adapt__region_start(w, region, fn);
  *w = adapt__region_enter_nested();
  *region = ADAPT__REGION_NESTED;
  return 0;
}

static inline void adapt__region_leave(int region) {
  if (region == ADAPT__REGION_NESTED) {
    adapt__tls_frames--;
    return;
  }
  adapt__region_end(region);
}

#endif /* LIBADAPT_SRC_REGION_H */
