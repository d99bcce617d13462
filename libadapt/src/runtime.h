/* The runtime's life cycle (runtime.c): adapt_init, adapt_finalize, and
 * the lazy start of the other entry points. */
#ifndef LIBADAPT_SRC_RUNTIME_H
#define LIBADAPT_SRC_RUNTIME_H

/* Start the runtime if it is not running (lazy init). 0 or negative errno. */
int adapt__ensure(void);
/* adapt__ensure for a region that found the runtime closed: waits for an
 * init or a finalize under way to end (takes the init lock), then starts
 * the runtime if it is down. 0 or negative errno. Not inside a region. */
int adapt__ensure_wait(void);
/* Outside regions: adapt__pin (rt.h), starting the runtime first if it is
 * not running. 0 (then call adapt__unpin), or adapt_init's errors. */
int adapt__pin_start(void);

#endif /* LIBADAPT_SRC_RUNTIME_H */
