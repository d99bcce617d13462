/* libadapt loops and sequence algorithms, callable from C.
 *
 * Every algorithm runs on the adaptive runtime (<adapt/adaptive.h>): the
 * calling thread works from the start of the sequence, idle workers steal
 * the far end of what remains, and results are merged in sequence order, so
 * results do not depend on the number of workers.
 *
 * Calling context (all functions below): any thread. On a worker inside a
 * body this is a nested parallel loop; on a thread that is not a worker the
 * call runs as a top-level region, serialised with other top-level regions
 * (see adapt_begin). Initialises the runtime lazily.
 * Errors common to all: -EINVAL NULL callback or base with count > 0, bad
 * attribute value; -EOVERFLOW count * size does not fit in size_t; the
 * runtime's errors (adapt_init). On error no callback was called and the
 * outputs are untouched.
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H
#define LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H

#include <stddef.h>
#include <adapt/adapt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Locality modes for caches shared by the workers (paper §2.2). */
typedef enum adapt_window_mode {
  ADAPT_WINDOW_DEFAULT = 0, /* ADAPT_WINDOW env, else ADAPT_WINDOW_NONE */
  ADAPT_WINDOW_NONE,        /* thieves take any part of the sequence */
  ADAPT_WINDOW_STATIC,      /* chunks of m elements, one after the other */
  ADAPT_WINDOW_SLIDING      /* all workers within m elements of the oldest unfinished one */
} adapt_window_mode;

/* Splitters of the sliding window (paper §3.3). */
typedef enum adapt_window_splitter {
  ADAPT_SPLITTER_DEFAULT = 0, /* ADAPT_SPLITTER env, else BALANCED */
  ADAPT_SPLITTER_LOCAL,       /* give work next to the owner first */
  ADAPT_SPLITTER_DISTANT,     /* give work at the end of the window first */
  ADAPT_SPLITTER_BALANCED     /* equal pieces over both sides */
} adapt_window_splitter;

/* Loop scheduler. */
typedef enum adapt_sched {
  ADAPT_SCHED_DEFAULT = 0, /* ADAPT_SCHED env, else ADAPTIVE */
  ADAPT_SCHED_ADAPTIVE     /* request/splitter protocol (the default) */
} adapt_sched;

/* Attributes of one call. NULL or zero-initialised: defaults. */
typedef struct adapt_attr {
  size_t grain;        /* iterations per steal point and smallest stolen piece;
                          0: ADAPT_GRAIN env, else chosen automatically from
                          the measured time per chunk */
  adapt_sched sched;
  adapt_window_mode window;
  size_t window_size;  /* m, in elements; 0: ADAPT_WINDOW_SIZE env, else from
                          the shared cache size and the footprint */
  adapt_window_splitter splitter;
  size_t footprint;    /* bytes one element touches (for the default window
                          size); 0: the element size(s) of the call */
} adapt_attr;

/* Parallel range loop: calls body(b, e, ctx) on disjoint sub-ranges whose
 * union is exactly [first, last), each index once, possibly concurrently on
 * several workers. Returns when every call has returned.
 * Errors: -EINVAL NULL body, first > last, bad attr. first == last: 0, no
 * call. Not guaranteed: the order of the calls, which worker runs which
 * sub-range, the sizes of the sub-ranges. */
int adapt_for(size_t first, size_t last,
              void (*body)(size_t begin, size_t end, void *ctx), void *ctx,
              const adapt_attr *attr);

/* --- Sequence algorithms ---------------------------------------------- */

/* op(elem) for each of the count elements of size bytes at base. */
int adapt_for_each(void *base, size_t count, size_t size,
                   void (*op)(void *elem, void *ctx), void *ctx, const adapt_attr *attr);

/* Range form of adapt_for_each: op(first, n, ctx) on n consecutive elements
 * starting at first; lets the caller's loop be vectorised. */
int adapt_for_each_range(void *base, size_t count, size_t size,
                         void (*op)(void *first, size_t n, void *ctx), void *ctx,
                         const adapt_attr *attr);

/* out[i] = op(in[i]): op(in_elem, out_elem, ctx). in and out must not
 * overlap unless they are the same array with in_size == out_size
 * (-EINVAL otherwise). */
int adapt_transform(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
                    void (*op)(const void *in_elem, void *out_elem, void *ctx), void *ctx,
                    const adapt_attr *attr);

/* Range form of adapt_transform: op(in_first, out_first, n, ctx). */
int adapt_transform_range(const void *in, size_t count, size_t in_size, void *out,
                          size_t out_size,
                          void (*op)(const void *in_first, void *out_first, size_t n, void *ctx),
                          void *ctx, const adapt_attr *attr);

/* A growable output array. Set elem_size (and optionally give data with its
 * capacity, malloc'd: the library may realloc it); count elements are kept
 * and results are appended after them. Free data with free(). */
typedef struct adapt_vec {
  void *data;
  size_t count;     /* elements in use */
  size_t capacity;  /* elements allocated */
  size_t elem_size; /* bytes per element, > 0 */
} adapt_vec;

/* Variable-output transform: for each input element in order, op writes 0 to
 * max_out elements of out->elem_size bytes at out_elems and returns how many
 * it wrote (> max_out: the call fails with -ERANGE). The outputs are appended
 * to *out contiguously in exactly the sequential order, whatever the number
 * of workers. Thieves write into their own buffers; the owner merges them in
 * order (preemption + reducer). Errors: the common ones, -ENOMEM, -ERANGE;
 * on error *out keeps its previous elements (count unchanged). */
int adapt_transform_var(const void *in, size_t count, size_t in_size,
                        adapt_vec *out, size_t max_out,
                        size_t (*op)(const void *in_elem, void *out_elems, void *ctx), void *ctx,
                        const adapt_attr *attr);

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H */
