/* Debug-only assertions that print both operands, and small helpers.
 * ADAPT_DEBUG=1 at build time (-DADAPT_DEBUG=1) enables the assertions;
 * sanitizer builds enable them too (see Makefile). */
#ifndef LIBADAPT_SRC_DEBUG_H
#define LIBADAPT_SRC_DEBUG_H

#include <stdio.h>
#include <stdlib.h>

#ifndef ADAPT_DEBUG
#define ADAPT_DEBUG 0
#endif

#define ADAPT__ASSERT_OP(a, op, b, fmt)                                                            \
  do {                                                                                             \
    if (ADAPT_DEBUG && !((a)op(b))) {                                                              \
      fprintf(stderr, "libadapt: %s:%d: assertion %s %s %s failed: " fmt " vs " fmt "\n",          \
              __FILE__, __LINE__, #a, #op, #b, (a), (b));                                          \
      abort();                                                                                     \
    }                                                                                              \
  } while (0)

/* Integer comparisons (printed as long long). */
#define ADAPT_ASSERT_EQ(a, b) ADAPT__ASSERT_OP((long long)(a), ==, (long long)(b), "%lld")
#define ADAPT_ASSERT_NE(a, b) ADAPT__ASSERT_OP((long long)(a), !=, (long long)(b), "%lld")
#define ADAPT_ASSERT_LT(a, b) ADAPT__ASSERT_OP((long long)(a), <, (long long)(b), "%lld")
#define ADAPT_ASSERT_LE(a, b) ADAPT__ASSERT_OP((long long)(a), <=, (long long)(b), "%lld")
/* Pointer comparisons. */
#define ADAPT_ASSERT_PTR_EQ(a, b) ADAPT__ASSERT_OP((const void *)(a), ==, (const void *)(b), "%p")
#define ADAPT_ASSERT_PTR_NE(a, b) ADAPT__ASSERT_OP((const void *)(a), !=, (const void *)(b), "%p")

#define ADAPT_LIKELY(x) __builtin_expect(!!(x), 1)
#define ADAPT_UNLIKELY(x) __builtin_expect(!!(x), 0)
/* Keep a function out of line (a fast path's cold half). */
#define ADAPT_NOINLINE __attribute__((noinline))

#endif /* LIBADAPT_SRC_DEBUG_H */
