/* adapt_cancel and adapt_cancelled: the calling thread's innermost parallel
 * call is the top of its cancel-scope stack (adapt_ext.h). */
#include <errno.h>
#include <stdatomic.h>

#include <adapt/loop.h>

#include "../ext/adapt_ext.h"

/* The innermost cancellation scope of the calling thread's innermost
 * context, or NULL: a barrier (a NULL top, adapt__cancel_shield), or a
 * scope pushed before the task the thread's inline adapt_join or
 * adapt_sync is running (adapt__cancel_scope.tasks). */
static adapt__cancel_scope *cancel_current(void) {
  adapt__cancel_scope *s = adapt__cancel_top;
  return s && s->tasks == adapt__tls_tasks ? s : NULL;
}

int adapt_cancel(void) {
  adapt__error_clear();
  adapt__cancel_scope *s = cancel_current();
  if (!s) return adapt__fail(-EPERM, "adapt_cancel: not called from a body of a parallel call");
  /* relaxed: workers poll the flag as a hint (adapt__cancel_seen); the
   * caller learns the outcome after the region's join, which orders this
   * store before its read. */
  atomic_store_explicit(s->flag, 1, memory_order_relaxed);
  if (s->hook) s->hook(s->hook_arg);
  return 0;
}

int adapt_cancelled(void) {
  adapt__cancel_scope *s = cancel_current();
  return s && adapt__cancel_seen(s->flag);
}
