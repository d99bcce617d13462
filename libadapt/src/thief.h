/* Thieves: one attempt at stealing (thief.c). */
#ifndef LIBADAPT_SRC_THIEF_H
#define LIBADAPT_SRC_THIEF_H

struct adapt__worker;

/* One attempt at stealing from a victim chosen by policy, preferring
 * `prefer` (-1: none): its spawned tasks first, then a request for its
 * adaptive work. Runs the piece if one was received (w->fails back to 0).
 * Returns 1 if work was run, -1 if a request was posted and refused, -2 if
 * it was cancelled after the timeout (the idle loop backs off after a few
 * failures in a row: naps after a refusal, a longer wait for the next
 * answer: w->fails), 0 if nothing was tried or the deque steal failed. */
int adapt__steal_and_run(struct adapt__worker *w, int prefer);

#endif /* LIBADAPT_SRC_THIEF_H */
