/* The pool: the threads of workers 1..n-1 and their idle loop. */
#ifndef LIBADAPT_SRC_POOL_H
#define LIBADAPT_SRC_POOL_H

struct adapt__worker;

/* Start w's thread, which runs the idle loop until shutdown: 0 or a
 * negative errno. */
int adapt__worker_start(struct adapt__worker *w);

#endif /* LIBADAPT_SRC_POOL_H */
