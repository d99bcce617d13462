/* Spawn/sync tasks (<adapt/tasks.h>): adapt_scope_begin, adapt_spawn,
 * adapt_sync, with their checks, over the internal scopes of scope.c. */
#include <errno.h>
#include <adapt/tasks.h>

#include "error.h"
#include "region.h"
#include "scope.h"
#include "worker.h"

int adapt_scope_begin(adapt_scope *scope) {
  adapt__error_clear();
  if (!scope) return adapt__fail(-EINVAL, "adapt_scope_begin: scope is NULL");
  adapt__scope *s = (adapt__scope *)(void *)scope;
  adapt__worker *w;
  int region;
  int rc = adapt__region_enter(&w, &region, "adapt_scope_begin");
  if (rc) return rc;
  adapt__scope_open(s, w);
  s->thread = adapt__thread_token();
  s->region = (unsigned)region;
  s->depth = adapt__tls_frames;
  return 0;
}

static void run_user(adapt__worker *w, const adapt__spawned *t) {
  (void)w;
  t->fn(t->arg);
}

/* Why scope s cannot be used by the calling thread in function fn: -EINVAL
 * with the detail (the slow path of adapt_spawn and adapt_sync). */
static int scope_error(const char *fn, const adapt__scope *s) {
  if (!s) return adapt__fail(-EINVAL, "%s: scope is NULL", fn);
  if (s->magic != ADAPT__SCOPE_MAGIC)
    return adapt__fail(-EINVAL, "%s: scope was not begun (or is already synced)", fn);
  if (s->thread != adapt__thread_token())
    return adapt__fail(-EINVAL, "%s: scope was begun by another thread", fn);
  return adapt__fail(-EINVAL,
                     "%s: scopes synced out of order (a frame or scope begun after this one "
                     "is still open: end it first)",
                     fn);
}

int adapt_spawn(adapt_scope *scope, void (*fn)(void *), void *arg) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->thread != adapt__thread_token())
    return scope_error("adapt_spawn", s);
  if (!fn) return adapt__fail(-EINVAL, "adapt_spawn: fn is NULL");
  adapt__spawned t = {.run = run_user, .fn = fn, .arg = arg};
  adapt__scope_push(s, &t);
  return 0;
}

int adapt_sync(adapt_scope *scope) {
  adapt__error_clear();
  adapt__scope *s = (adapt__scope *)(void *)scope;
  if (!s || s->magic != ADAPT__SCOPE_MAGIC || s->thread != adapt__thread_token() ||
      s->depth != adapt__tls_frames)
    return scope_error("adapt_sync", s);
  unsigned region = s->region;
  adapt__scope_wait(s);
  adapt__region_leave((int)region);
  return 0;
}
