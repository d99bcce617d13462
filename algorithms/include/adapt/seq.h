/* libadapt sequence engine: the adaptive protocol behind every algorithm of
 * <adapt/algorithms.h>, open to algorithms of your own (the C++ front end
 * <adapt/stl.hpp> is built on it).
 *
 * A call processes the units [0, n) (an element, or a block of elements:
 * your choice) by calling a kernel on contiguous chunks. The calling thread
 * is the master: it processes the sequence from the front. Idle workers
 * steal pieces from the far end (or, in the window modes, only within m
 * units of the oldest unfinished unit), and pieces are merged back into
 * their victim in sequence order, each merge joining a thief's partial
 * result right after its victim's. Every piece has a state of
 * kernel->state_size bytes (your partial result; all zero for a new stolen
 * piece, the master's copied from *state), so a kernel that merges states
 * associatively gets the sequential result whatever the number of workers,
 * the window mode, the grain or the steals.
 *
 * Window modes, window size, splitter and grain come from the attribute, as
 * for the sequence algorithms (<adapt/algorithms.h>, common contract); the
 * default window size uses unit_bytes as the footprint of one unit.
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_SEQ_H
#define LIBADAPT_INCLUDE_ADAPT_SEQ_H

#include <stddef.h>
#include <adapt/adapt.h>
#include <adapt/loop.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of per-piece state a kernel may ask for; the state is aligned to
 * ADAPT_SEQ_STATE_ALIGN bytes. */
#define ADAPT_SEQ_STATE_MAX 64
#define ADAPT_SEQ_STATE_ALIGN 16
/* Largest adapt_seq_kernel.thief_parts. */
#define ADAPT_SEQ_THIEF_PARTS_MAX 8

/* One running call (opaque; valid during the callbacks of that call). */
typedef struct adapt_seq adapt_seq;

typedef struct adapt_seq_kernel {
  /* Process units [b, e) of the piece whose state is `state`. The piece has
   * already processed the units from its first one up to b (none on the
   * first call for a piece). Called on any worker, concurrently for
   * different pieces; never concurrently for one piece. Required. */
  void (*run)(adapt_seq *s, void *state, size_t b, size_t e, void *ctx);
  /* Merge a thief's partial result into its victim's, on the victim's
   * thread: the thief processed [tb, te), which directly follows what the
   * victim has processed; afterwards `state` must stand for both and
   * thief_state must hold nothing that needs releasing (it is dropped).
   * Never called for a piece that processed nothing (te == tb: stolen, then
   * cut off by a stop before its first chunk); its all-zero state is
   * dropped, as by discard. NULL: nothing to merge (see maps below). */
  void (*merge)(adapt_seq *s, void *state, void *thief_state, size_t tb, size_t te, void *ctx);
  /* Release what a thief's state holds without merging it: called instead
   * of merge for pieces cut off by adapt_seq_stop or a cancel (not for a
   * piece that processed nothing). NULL: nothing to release. */
  void (*discard)(adapt_seq *s, void *thief_state, void *ctx);
  /* Bytes of state, 0..ADAPT_SEQ_STATE_MAX. */
  size_t state_size;
  /* Split ratio, 0..ADAPT_SEQ_THIEF_PARTS_MAX: when a piece gives work from
   * its own range to k thieves, it keeps one part and each thief gets
   * thief_parts parts (0 and 1: equal shares, the right choice for a kernel
   * whose stolen units cost what the master's cost). Meant for two-pass
   * kernels, whose stolen units cost a second pass once merged while the
   * master finishes its own units in one (a scan: a stolen piece only sums
   * its blocks, whose outputs wait for the prefix). With 2, the master
   * reaches a lone thief's piece when the thief has done about half of it
   * and takes the rest back in one pass (preemption), so that the stolen
   * share, and the second pass, shrink from about n/2 to n/3 of n units on
   * 2 workers. Applies to the splits of a piece's own range (in the window
   * modes, not to the master's free units after the stolen area); maps
   * (no merge, no discard) run as loops and ignore it. */
  unsigned thief_parts;
} adapt_seq_kernel;

/* Run kernel k over the units [0, n) on the calling thread and the idle
 * workers. *state (state_size bytes, may be NULL when 0) is the master's
 * initial state; on return (0 or an error found while running) it holds
 * the master's final state, into which every piece that ran was merged or
 * discarded. name: the function named by adapt_last_error() (NULL:
 * "adapt_seq_run"). unit_bytes: the bytes one unit touches, for the
 * default window size (attr->footprint overrides it).
 * Maps: a kernel with neither merge nor discard runs under attr->sched (else
 * ADAPT_SCHED) in the no-window mode, its run() getting the master's state,
 * shared by every worker and read-only (a 1:1 map keeps no partial
 * result); other kernels need the adaptive protocol (explicit other sched:
 * -ENOTSUP before anything runs).
 * Errors (nothing ran, *state untouched): -EINVAL NULL k or k->run,
 * state_size above ADAPT_SEQ_STATE_MAX, NULL state with state_size > 0,
 * unit_bytes 0, thief_parts above ADAPT_SEQ_THIEF_PARTS_MAX, a bad
 * attribute; -ENOTSUP as above; adapt_init's errors.
 * While running: the first error given to adapt_seq_stop; -ECANCELED (a
 * callback called adapt_cancel). n == 0: returns 0, nothing called.
 * Calling context: any thread; inside a body it is a nested call.
 * Not guaranteed: chunk sizes, which worker runs which piece, the number
 * of pieces. */
ADAPT_API int adapt_seq_run(const char *name, size_t n, size_t unit_bytes,
                            const adapt_seq_kernel *k, void *ctx, void *state,
                            const adapt_attr *attr);

/* From a callback: units at or after `at` need not be processed (workers
 * check before each chunk: at most one more chunk per worker starts past
 * it); err != 0 makes adapt_seq_run return err (the first one wins).
 * A piece that does not directly follow its victim's processed units any
 * more (the victim stopped before it) is discarded; others are merged,
 * even when some of their units lie past the limit (chunks that were
 * running when the limit dropped): a kernel whose result must end at the
 * limit trims it. Thread-safe. */
ADAPT_API void adapt_seq_stop(adapt_seq *s, size_t at, int err);

/* The current limit (n when nothing stopped the call); a relaxed read. */
ADAPT_API size_t adapt_seq_limit(const adapt_seq *s);

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_SEQ_H */
