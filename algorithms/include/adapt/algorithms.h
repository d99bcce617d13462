/* libadapt sequence algorithms, callable from C (the loops and the
 * attributes are in <adapt/loop.h>, included here).
 *
 * Every algorithm runs on the adaptive runtime (<adapt/adaptive.h>): the
 * calling thread works from the start of the sequence, idle workers steal
 * the far end of what remains, and results are merged in sequence order, so
 * results do not depend on the number of workers.
 *
 * Calling context (all functions below): any thread. On a worker inside a
 * body this is a nested parallel loop; on a thread that is not a worker the
 * call runs as a top-level region, on the workers, or alone on the calling
 * thread while another thread's region holds them (see adapt_begin).
 * Initialises the runtime lazily.
 * Errors common to all: -EINVAL NULL callback or base with count > 0, bad
 * attribute value; -EOVERFLOW count * size does not fit in size_t; the
 * runtime's errors (adapt_init, which reads and checks the environment
 * variables named below once). On error no callback was called, the outputs
 * are untouched and adapt_last_error() names the function and the argument
 * ("adapt_transform: output overlaps input").
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H
#define LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H

#include <stddef.h>
#include <adapt/adapt.h>
#include <adapt/loop.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- Sequence algorithms ---------------------------------------------- */
/*
 * Common contract of the functions below (docs/algorithms.md has the guide):
 * - Effect: the same as the sequential loop over the elements in index
 *   order, described in each comment ("sequential definition"); callbacks
 *   may run concurrently on several workers, each element exactly once
 *   (adapt_find_if: at most once), in no guaranteed order or worker.
 * - Window modes (attr->window, else env ADAPT_WINDOW=none|static|sliding,
 *   default none): static and sliding keep every worker within m elements of
 *   the oldest unfinished element, m = attr->window_size, else env
 *   ADAPT_WINDOW_SIZE, else shared cache / (2 * footprint), footprint =
 *   attr->footprint or the element bytes of the call (in_size + out_size for
 *   the transforms). Sliding-window splitter: attr->splitter, else env
 *   ADAPT_SPLITTER=local|distant|balanced, default balanced. Grain:
 *   attr->grain, else env ADAPT_GRAIN, else calibrated (chunks of ~2 µs).
 *   The environment is read by adapt_init, once: a call reads the values of
 *   the running runtime (setenv afterwards has no effect until the next
 *   start).
 *   Worker limit: attr->max_workers = k, at most k distinct workers (the
 *   caller's included) run callbacks of the call (0: all; see adapt_for).
 *   Results never depend on the mode, the splitter, the grain or the number
 *   of workers.
 * - Errors (returned before any callback runs, outputs untouched): -EINVAL
 *   NULL callback or output pointer, size 0, NULL array with count > 0,
 *   overlapping input and output where not allowed, attribute value out of
 *   its enum; -EOVERFLOW count * size does not fit in size_t; the runtime's
 *   errors (adapt_init: -EINVAL for a bad environment value). count 0:
 *   nothing is called, returns 0 after checking the arguments, without
 *   starting the runtime. Found while running: -ENOMEM, -ERANGE (see each
 *   function), -EPROTO an internal protocol error (a libadapt bug, never
 *   expected). Every error sets adapt_last_error().
 * - Range forms (*_range): the callback gets a chunk of n >= 1 consecutive
 *   elements instead of one: one indirect call per chunk, a loop the
 *   compiler can vectorise. Chunks cover the sequence exactly once, in no
 *   guaranteed order or size.
 * - Schedulers: for_each, transform, find_if and their range forms run
 *   under attr->sched (else ADAPT_SCHED) in the no-window mode; the others
 *   merge partial results in sequence order (the adaptive protocol) and
 *   return -ENOTSUP for another explicit scheduler, as do window modes with
 *   one.
 * - Context: any thread; inside a body it is a nested parallel call.
 *   Callbacks must not call adapt_finalize. ctx is shared by all workers.
 * - Not guaranteed: which worker runs which element, the order of the calls
 *   (apart from adapt_reduce's fixed grouping), the chunk sizes.
 */

/* for i in [0, count): op(base + i*size, ctx). */
ADAPT_API int adapt_for_each(void *base, size_t count, size_t size,
                             void (*op)(void *elem, void *ctx), void *ctx, const adapt_attr *attr);

/* Range form of adapt_for_each: op(first, n, ctx) on n >= 1 consecutive
 * elements starting at first; the union of the calls is the whole array,
 * each element once. Lets the caller's loop be vectorised. */
ADAPT_API int adapt_for_each_range(void *base, size_t count, size_t size,
                                   void (*op)(void *first, size_t n, void *ctx), void *ctx,
                                   const adapt_attr *attr);

/* for i in [0, count): op(in + i*in_size, out + i*out_size, ctx). in and out
 * must not overlap unless they are the same array with in_size == out_size
 * (in-place; -EINVAL otherwise). */
ADAPT_API int adapt_transform(const void *in, size_t count, size_t in_size, void *out,
                              size_t out_size,
                              void (*op)(const void *in_elem, void *out_elem, void *ctx), void *ctx,
                              const adapt_attr *attr);

/* Range form of adapt_transform: op(in_first, out_first, n, ctx) on n >= 1
 * consecutive elements. Same overlap rule. */
ADAPT_API int
adapt_transform_range(const void *in, size_t count, size_t in_size, void *out, size_t out_size,
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
 * order (preemption + reducer). out_elems is scratch memory private to the
 * call: do not keep the pointer.
 * Errors: the common ones (in must not overlap out->data's capacity; -EINVAL
 * elem_size 0, count > capacity, NULL data with capacity > 0; -EOVERFLOW
 * max_out * elem_size), -ENOMEM, -ERANGE; on error *out keeps its previous
 * elements (count unchanged; data and capacity may have changed by realloc,
 * the caller still owns data). */
ADAPT_API int adapt_transform_var(const void *in, size_t count, size_t in_size, adapt_vec *out,
                                  size_t max_out,
                                  size_t (*op)(const void *in_elem, void *out_elems, void *ctx),
                                  void *ctx, const adapt_attr *attr);

/* Range form of adapt_transform_var: op(in_first, n, out_first, ctx) gets
 * n >= 1 consecutive inputs, writes their outputs in input order at
 * out_first (room for n * max_out elements, scratch private to the call: do
 * not keep the pointer) and returns how many it wrote (more than n * max_out:
 * -ERANGE). One call per chunk: the caller's loop can be vectorised and the
 * indirect call is paid once per chunk. Errors and ownership: as
 * adapt_transform_var (-ENOMEM also when n * max_out elements cannot be
 * allocated). */
ADAPT_API int adapt_transform_var_range(const void *in, size_t count, size_t in_size,
                                        adapt_vec *out, size_t max_out,
                                        size_t (*op)(const void *in_first, size_t n,
                                                     void *out_first, void *ctx),
                                        void *ctx, const adapt_attr *attr);

/* The callbacks of the selecting algorithms (copy_if, count_if, find_if):
 * a predicate pred(elem, ctx), non-zero when the element at elem is
 * selected; the range forms' count_range / find_range(first, n, ctx),
 * which answer for the n >= 1 consecutive elements at first with a number
 * in [0, n] (more than n: the call fails with -ERANGE), as each function
 * says. */
typedef int adapt_pred(const void *elem, void *ctx);
typedef size_t adapt_range_query(const void *first, size_t n, void *ctx);

/* Stable copy_if: copies, in order, the elements of in for which pred is
 * non-zero to out (room for count elements, must not overlap in) and sets
 * *out_count. Byte-identical to the sequential loop.
 * Errors: the common ones, -ENOMEM (thieves' buffers); on error *out_count
 * is unchanged and out[0..count) holds unspecified bytes. */
ADAPT_API int adapt_copy_if(const void *in, size_t count, size_t size, void *out, size_t *out_count,
                            adapt_pred *pred, void *ctx, const adapt_attr *attr);

/* Range form of adapt_copy_if: select(in_first, n, out_first, ctx) copies,
 * in order, the elements to keep among the n >= 1 consecutive inputs at
 * in_first to out_first (room for n elements: the final place or a private
 * buffer; do not keep the pointer) and returns how many it kept (more than
 * n: -ERANGE). Result, errors and stability: as adapt_copy_if; bytes that
 * select writes beyond the count it returns are not part of the result and
 * may be overwritten. */
ADAPT_API int
adapt_copy_if_range(const void *in, size_t count, size_t size, void *out, size_t *out_count,
                    size_t (*select)(const void *in_first, size_t n, void *out_first, void *ctx),
                    void *ctx, const adapt_attr *attr);

/* *result = the number of elements for which pred is non-zero. */
ADAPT_API int adapt_count_if(const void *base, size_t count, size_t size, size_t *result,
                             adapt_pred *pred, void *ctx, const adapt_attr *attr);

/* Range form of adapt_count_if: count_range(first, n, ctx) returns how many
 * of the n >= 1 consecutive elements at first satisfy the predicate (more
 * than n: -ERANGE); *result = the sum over the calls. */
ADAPT_API int adapt_count_if_range(const void *base, size_t count, size_t size, size_t *result,
                                   adapt_range_query *count_range, void *ctx,
                                   const adapt_attr *attr);

/* *index = the smallest i with pred(base + i*size) non-zero, count if none.
 * Stops all workers early: once a match at i is known, no worker starts a
 * chunk at or after i (at most one chunk per worker is evaluated after the
 * match); every element before the returned index is evaluated once,
 * elements after it at most once. */
ADAPT_API int adapt_find_if(const void *base, size_t count, size_t size, size_t *index,
                            adapt_pred *pred, void *ctx, const adapt_attr *attr);

/* Range form of adapt_find_if: find_range(first, n, ctx) returns the
 * offset in [0, n) of the first matching element among the n >= 1
 * consecutive elements at first, or n when none matches (more than n:
 * -ERANGE). *index and the early stop: as adapt_find_if, with "chunk" for
 * the range of one call (a call may run past the returned match: it
 * examines its whole range). */
ADAPT_API int adapt_find_if_range(const void *base, size_t count, size_t size, size_t *index,
                                  adapt_range_query *find_range, void *ctx, const adapt_attr *attr);

/* Reduction with a fixed grouping, bitwise reproducible (also for floating
 * point) whatever the workers, window mode and grain:
 *   block k = elements [k*B, min((k+1)*B, count)), B = ADAPT_REDUCE_BLOCK
 *   (a build-time constant of the library, 1024 by default);
 *   v_k = identity, then accumulate(v_k, first element of block k, block
 *   length, ctx): exactly one call per block;
 *   aligned groups of 2s blocks: v[a, a+2s) = v[a, a+s) (+) v[a+s, a+2s),
 *   where x (+) y is combine(x, y, ctx) (x <- x (+) y);
 *   *result = the left fold of the maximal complete groups covering the
 *   blocks, e.g. 13 blocks: (v[0,8) (+) v[8,12)) (+) v[12,13).
 * Sequence order is kept (left operand before right), so combine needs
 * associativity only for the result to equal a plain left fold; it need not
 * be commutative. identity and *result are result_size bytes; count 0:
 * *result = identity. Errors: the common ones (NULL result, identity,
 * accumulate or combine, result_size 0), -ENOMEM; on error *result is
 * untouched. */
ADAPT_API int adapt_reduce(const void *base, size_t count, size_t size, void *result,
                           size_t result_size, const void *identity,
                           void (*accumulate)(void *acc, const void *first, size_t n, void *ctx),
                           void (*combine)(void *acc, const void *other, void *ctx), void *ctx,
                           const adapt_attr *attr);

/* Inclusive scan: out[0] = in[0]; out[i] = op(out[i-1], in[i]) for i >= 1,
 * where op(prev, elem, res, ctx) stores prev (+) elem at res (elements and
 * results have the same size). op must be associative: pieces are scanned
 * from their first element and finalised with res = op(p, local) (the
 * adaptive prefix), so floating-point results may differ from the
 * sequential run in the last bits. res may equal elem (op must read both
 * operands before writing); in == out (in place) is allowed, other overlaps
 * are -EINVAL. */
ADAPT_API int adapt_inclusive_scan(const void *in, size_t count, size_t size, void *out,
                                   void (*op)(const void *prev, const void *elem, void *res,
                                              void *ctx),
                                   void *ctx, const adapt_attr *attr);

/* Range form of adapt_inclusive_scan, with two callbacks:
 * - scan(carry, in_first, out_first, n, ctx): the prefix of n >= 1
 *   consecutive elements: out_first[0] = carry (+) in_first[0], or
 *   in_first[0] when carry is NULL (the start of a piece), then
 *   out_first[j] = out_first[j-1] (+) in_first[j]. carry points to the
 *   output just before the range (never inside it); in_first == out_first
 *   in place.
 * - add(carry, first, n, ctx): first[j] = carry (+) first[j] for n >= 1
 *   consecutive outputs (the finalisation of a stolen piece's local
 *   prefixes with the prefix before it; carry is outside the range).
 * Same result, overlap rule and errors as adapt_inclusive_scan (-EINVAL for
 * a NULL scan or add); the two callbacks must compute the same (+). */
ADAPT_API int adapt_inclusive_scan_range(const void *in, size_t count, size_t size, void *out,
                                         void (*scan)(const void *carry, const void *in_first,
                                                      void *out_first, size_t n, void *ctx),
                                         void (*add)(const void *carry, void *first, size_t n,
                                                     void *ctx),
                                         void *ctx, const adapt_attr *attr);

/* Exclusive scan (std::exclusive_scan): out[0] = *init; out[i] =
 * op(out[i-1], in[i-1]) for 1 <= i < count, where op(prev, elem, res, ctx)
 * stores prev (+) elem at res (elements, init and results have the same
 * size). init is copied before anything is written (it may point into out).
 * op must be associative: as for adapt_inclusive_scan, pieces are scanned
 * from their first element and finalised with res = op(p, local), so
 * floating-point results may differ from the sequential run in the last
 * bits. res never aliases prev; it equals elem in the finalisation. in ==
 * out (in place) is allowed, other overlaps are -EINVAL. Errors: the
 * common ones (-EINVAL also for a NULL init), -ENOMEM when the carries
 * (2 * size bytes per piece: on the heap when size > 56 bytes) cannot be
 * allocated; on error out holds unspecified values. */
ADAPT_API int
adapt_exclusive_scan(const void *in, size_t count, size_t size, void *out, const void *init,
                     void (*op)(const void *prev, const void *elem, void *res, void *ctx),
                     void *ctx, const adapt_attr *attr);

/* Range form of adapt_exclusive_scan, with two callbacks:
 * - scan(carry, in_first, out_first, n, ctx): for j in [0, n) in order,
 *   out_first[j] = *carry, then *carry = *carry (+) in_first[j] (read
 *   in_first[j] before writing out_first[j]: in place they are the same
 *   element). carry is read and written, outside the range.
 * - add(carry, first, n, ctx): first[j] = carry (+) first[j], as for
 *   adapt_inclusive_scan_range (also called with n = 1 on a carry).
 * Same result, overlap rule and errors as adapt_exclusive_scan (-EINVAL for
 * a NULL scan or add). */
ADAPT_API int adapt_exclusive_scan_range(
    const void *in, size_t count, size_t size, void *out, const void *init,
    void (*scan)(void *carry, const void *in_first, void *out_first, size_t n, void *ctx),
    void (*add)(const void *carry, void *first, size_t n, void *ctx), void *ctx,
    const adapt_attr *attr);

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_ALGORITHMS_H */
