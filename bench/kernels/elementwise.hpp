/* The element bodies of bench_window's overhead and callgrind sections
 * (x = x * 0.999 + 0.5 per element, as adapt_for_each / adapt_transform
 * callbacks and as their range forms; a predicate, a variable-output op and
 * a double sum as the callbacks of count_if, find_if, copy_if,
 * transform_var and inclusive_scan and of their range forms) and the
 * inclusive scan of its scan section. Every body is out of line: inlined into a timing loop, the
 * compiler could optimise the plain loop across passes, which the library
 * calls cannot.
 *
 * Thread-safety: pure functions of their arguments.
 */
#ifndef BENCH_KERNELS_ELEMENTWISE_HPP
#define BENCH_KERNELS_ELEMENTWISE_HPP

#include <stddef.h>
#include <stdint.h>

void ew_each(void *elem, void *ctx);
void ew_each_range(void *first, size_t n, void *ctx);
void ew_transform(const void *in, void *out, void *ctx);
void ew_transform_range(const void *in, void *out, size_t n, void *ctx);

/* The predicate: the integer part of *x is odd (x[i] = i: every other
 * element). Range forms: count, first match (n if none), stable copy. */
int ew_odd(const void *elem, void *ctx);
size_t ew_count_range(const void *first, size_t n, void *ctx);
size_t ew_copy_range(const void *in, size_t n, void *out, void *ctx);
/* A predicate that never holds (find_if over the whole array). */
int ew_negative(const void *elem, void *ctx);
size_t ew_find_negative_range(const void *first, size_t n, void *ctx);
/* Variable output: (int64_t)x % 3 copies of x * 0.5 (0, 1 or 2 outputs). */
size_t ew_var(const void *in, void *out, void *ctx);
size_t ew_var_range(const void *in, size_t n, void *out, void *ctx);
/* Double sums: the op of adapt_inclusive_scan and the two callbacks of its
 * range form (scan from carry, or from the first element when carry is
 * NULL; add carry to a range). */
void ew_sum(const void *prev, const void *elem, void *res, void *ctx);
void ew_sum_scan(const void *carry, const void *in, void *out, size_t n, void *ctx);
void ew_sum_add(const void *carry, void *first, size_t n, void *ctx);
/* The exclusive scan's range callback: out[i] = *carry, *carry += in[i]. */
void ew_sum_xscan(void *carry, const void *in, void *out, size_t n, void *ctx);

/* res = prev + elem on int64_t: the op of adapt_inclusive_scan. */
void scan_add(const void *prev, const void *elem, void *res, void *ctx);
/* The sequential prefix calling scan_add through a pointer (the library
 * cannot inline it either). */
void scan_seq(const int64_t *x, int64_t *y, size_t n);

#endif /* BENCH_KERNELS_ELEMENTWISE_HPP */
