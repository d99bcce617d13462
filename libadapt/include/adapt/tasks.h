/* libadapt spawn/sync tasks: nested and recursive fork-join parallelism
 * (fib, nqueens, divide and conquer), on per-worker THE-protocol deques.
 *
 * A sketch (return codes left out; docs/guide.md has the whole program, the
 * example "fib", compiled and run by make test):
 *
 *   struct fib { int n; long r; };
 *   long fib(int n);
 *   static void fib_task(void *p) { struct fib *f = p; f->r = fib(f->n); }
 *   long fib(int n) {
 *     if (n < 2) return n;
 *     struct fib a = {n - 1};
 *     adapt_scope s;
 *     adapt_scope_begin(&s);
 *     adapt_spawn(&s, fib_task, &a);       // may run on another worker
 *     long b = fib(n - 2);                  // meanwhile, here
 *     adapt_sync(&s);                       // a.r is ready
 *     return a.r + b;
 *   }
 *
 * Spawned tasks are pushed on the calling worker's deque (child stealing:
 * the caller continues, thieves take the oldest task); adapt_sync runs the
 * scope's tasks still in the deque, newest first, then steals other work
 * until the scope's stolen tasks have finished. A thief looks at a victim's
 * spawned tasks first (no help from the victim needed), then posts a steal
 * request for its adaptive work (loops and algorithms), which the victim
 * refuses while a spawned task waits in its deque (the thief then takes the
 * task, even one spawned after the request was posted): both kinds
 * coexist, and each may nest the other. */
#ifndef LIBADAPT_INCLUDE_ADAPT_TASKS_H
#define LIBADAPT_INCLUDE_ADAPT_TASKS_H

#include <adapt/adapt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A spawn scope; allocate it yourself (on the stack). Private content. */
typedef struct adapt_scope {
  void *adapt_priv[7];
} adapt_scope;

/* Open a scope on the calling thread. On a thread that is not a worker it
 * is a top-level region until the matching adapt_sync: on worker 0's place,
 * or alone on the calling thread while another thread's region holds the
 * workers (see adapt_begin). Scopes and frames nest properly: sync an inner
 * scope (end an inner frame) before its outer one. Initialises the runtime
 * lazily. Errors: -EINVAL NULL scope; -ENOMEM; -ESHUTDOWN a top-level
 * scope refused by a finalize under way (see adapt_finalize); adapt_init's
 * errors.
 * A thread that exits with the scope open: see adapt_begin (the region is
 * closed and its place given back; stderr names adapt_scope_begin). */
ADAPT_API int adapt_scope_begin(adapt_scope *scope);

/* Spawn fn(arg): it runs, on this or another worker, before adapt_sync(scope)
 * returns. arg is owned by the caller and must stay valid until then. When
 * the deque is full the task runs at once, inside this call.
 * Errors: -EINVAL NULL scope or fn, scope not begun or begun by another
 * thread. Calling context: the thread that began the scope. */
ADAPT_API int adapt_spawn(adapt_scope *scope, void (*fn)(void *arg), void *arg);

/* Wait for every task spawned in the scope (running some of them, and other
 * work, meanwhile) and close the scope. Errors (nothing is waited for):
 * -EINVAL NULL scope, scope not begun, begun by another thread, or synced
 * out of order (a frame or scope begun after it is still open).
 * Calling context: the thread that began the scope. */
ADAPT_API int adapt_sync(adapt_scope *scope);

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_TASKS_H */
