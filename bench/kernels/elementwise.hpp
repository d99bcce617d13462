/* The element bodies of bench_window's overhead and callgrind sections
 * (x = x * 0.999 + 0.5 per element, as adapt_for_each / adapt_transform
 * callbacks and as their range forms) and the inclusive scan of its scan
 * section. Every body is out of line: inlined into a timing loop, the
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

/* res = prev + elem on int64_t: the op of adapt_inclusive_scan. */
void scan_add(const void *prev, const void *elem, void *res, void *ctx);
/* The sequential prefix calling scan_add through a pointer (the library
 * cannot inline it either). */
void scan_seq(const int64_t *x, int64_t *y, size_t n);

#endif /* BENCH_KERNELS_ELEMENTWISE_HPP */
