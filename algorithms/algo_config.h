/* Tunables of the sequence algorithms (algorithms/): every one here, each
 * overridable with -D at build time. The environment variables (read once,
 * by adapt_init) are described in docs/algorithms.md. */
#ifndef ALGORITHMS_ALGO_CONFIG_H
#define ALGORITHMS_ALGO_CONFIG_H

#include <adapt/adaptive.h>

/* Automatic grain: the owner of a call doubles its grain, starting from 1
 * unit, while one chunk between two steal points takes less than this many
 * ns. Default 2000 (2 µs: the few ns of a steal point, a preempt point and
 * the stop check are amortised below 0.5%). */
#ifndef ADAPT_ALGO_GRAIN_TARGET_NS
#define ADAPT_ALGO_GRAIN_TARGET_NS 2000u
#endif

/* Automatic grain: the growth stops at the ADAPT_ALGO_GRAIN_STRIKES-th chunk
 * slower than the target (one page fault or interrupt does not stop it).
 * Default 2. */
#ifndef ADAPT_ALGO_GRAIN_STRIKES
#define ADAPT_ALGO_GRAIN_STRIKES 2
#endif

/* Automatic grain, once calibrated: one chunk in every this many is timed
 * again and brings the grain back to about ADAPT_ALGO_GRAIN_TARGET_NS when
 * it took over four times or under half of it (adapt__grain_rescale, as
 * adapt_for does): with elements whose cost changes along the sequence (a
 * ramp 16 times dearer at its end) chunks stay near the target, and a
 * thief's request waits about one chunk. Default 16 (two clock reads in
 * 16 chunks: under 0.1% of their time). */
#ifndef ADAPT_ALGO_GRAIN_RECHECK
#define ADAPT_ALGO_GRAIN_RECHECK 16u
#endif

/* The automatic grain never grows beyond this many units. Default 16384:
 * the cheapest element operations (fill, find, 0.5 x + 1: 0.2-0.3 ns each)
 * then reach the 2 µs target too. Each chunk ends a streaming loop and runs
 * the steal point. On the project's test machine (Zen 5, 1e6 doubles) that
 * cost 2.3-3.5% over std at 4096 elements a chunk and 1.4-1.9% at 8192-16384
 * (docs/algorithms.md, "Grain"). */
#ifndef ADAPT_ALGO_GRAIN_MAX
#define ADAPT_ALGO_GRAIN_MAX 16384u
#endif

/* Default window size: m = shared cache bytes / (ADAPT_ALGO_WINDOW_DIVISOR *
 * bytes one element touches). 2: the window's data takes half the shared
 * cache, the other half keeps the data reused across the window (gathers,
 * stencil neighbours, outputs). Default 2. */
#ifndef ADAPT_ALGO_WINDOW_DIVISOR
#define ADAPT_ALGO_WINDOW_DIVISOR 2u
#endif

/* Shared cache size assumed by the default window size when hwloc reports
 * none (a single worker, or a machine without a shared cache), bytes.
 * Default 8 MiB. */
#ifndef ADAPT_ALGO_FALLBACK_CACHE
#define ADAPT_ALGO_FALLBACK_CACHE (8u << 20)
#endif

/* adapt_reduce: elements per block. Each block is accumulated from the
 * identity by one call of the accumulate callback; block results are
 * combined along a fixed binary tree (docs/algorithms.md), so the result is
 * bitwise the same whatever the number of workers, the mode and the grain.
 * Changing it changes floating-point results. Default 1024. */
#ifndef ADAPT_REDUCE_BLOCK
#define ADAPT_REDUCE_BLOCK 1024u
#endif

/* adapt_transform_var / adapt_copy_if: first capacity of a thief's private
 * output buffer, in output elements (it doubles when full). Default 256. */
#ifndef ADAPT_VAR_BUF_MIN
#define ADAPT_VAR_BUF_MIN 256u
#endif

/* adapt_inclusive_scan: a victim finalises at least this many stolen outputs
 * with a nested parallel map (fewer: sequentially). Default 16384. */
#ifndef ADAPT_SCAN_PAR_FIXUP
#define ADAPT_SCAN_PAR_FIXUP 16384u
#endif

/* Bytes of algorithm state kept in a work descriptor after the engine's own
 * fields. Default 128. */
#ifndef ADAPT_SEQ_ACC_BYTES
#define ADAPT_SEQ_ACC_BYTES 128u
#endif

/* Each tunable's least value, checked at compile time. */
#define ADAPT_ALGO_AT_LEAST(name, least)                                                           \
  _Static_assert((name) >= (least), #name " must be at least " #least)
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_GRAIN_TARGET_NS, 100);
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_GRAIN_STRIKES, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_GRAIN_MAX, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_GRAIN_RECHECK, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_WINDOW_DIVISOR, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_ALGO_FALLBACK_CACHE, 4096);
ADAPT_ALGO_AT_LEAST(ADAPT_REDUCE_BLOCK, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_SCAN_PAR_FIXUP, 1);
ADAPT_ALGO_AT_LEAST(ADAPT_VAR_BUF_MIN, 1);
_Static_assert(ADAPT_SEQ_ACC_BYTES % 16 == 0 && ADAPT_SEQ_ACC_BYTES + 96 <= ADAPT_WORK_MAX,
               "ADAPT_SEQ_ACC_BYTES must be a multiple of 16 leaving room for the engine fields");

#endif /* ALGORITHMS_ALGO_CONFIG_H */
