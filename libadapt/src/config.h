/* libadapt tunables: every one here, each overridable with -D at build time.
 * Runtime-adjustable ones also have an environment variable (docs/guide.md). */
#ifndef LIBADAPT_SRC_CONFIG_H
#define LIBADAPT_SRC_CONFIG_H

#include <adapt/adaptive.h>

/* Bytes of a cache line: alignment of every group of fields written by a
 * different thread. Default 64 (x86-64, most ARM). */
#ifndef ADAPT_CACHE_LINE
#define ADAPT_CACHE_LINE 64
#endif

/* Largest number of workers. Default 256. */
#ifndef ADAPT_MAX_WORKERS
#define ADAPT_MAX_WORKERS 256
#endif

/* Published frames per worker (nesting depth); deeper frames run
 * sequentially, unpublished. Default 64. */
#ifndef ADAPT_MAX_DEPTH
#define ADAPT_MAX_DEPTH 64
#endif

/* Idle spin before a worker sleeps, µs (env ADAPT_SPIN_US). Default 200. */
#ifndef ADAPT_SPIN_US_DEFAULT
#define ADAPT_SPIN_US_DEFAULT 200u
#endif

/* How long a thief waits for its victim to reach a steal point before it
 * cancels the request, µs (env ADAPT_STEAL_TIMEOUT_US). Default 50. */
#ifndef ADAPT_STEAL_TIMEOUT_US_DEFAULT
#define ADAPT_STEAL_TIMEOUT_US_DEFAULT 50u
#endif

/* Failed steal requests in a row (refused, or cancelled after the timeout)
 * after which an idle worker naps between two attempts. Default 4. */
#ifndef ADAPT_BACKOFF_FAILS
#define ADAPT_BACKOFF_FAILS 4u
#endif

/* First nap of an idle worker backing off, µs; each further failed request
 * doubles it up to ADAPT_BACKOFF_MAX_US. A wake-up (publication, new work,
 * a range grown back, finalize) ends a nap early. Default 20. */
#ifndef ADAPT_BACKOFF_MIN_US
#define ADAPT_BACKOFF_MIN_US 20u
#endif

/* Longest nap of an idle worker backing off, µs. Default 500. */
#ifndef ADAPT_BACKOFF_MAX_US
#define ADAPT_BACKOFF_MAX_US 500u
#endif

/* "Nothing to split" answers in a row, with the same has_work value, after
 * which a thief counts a victim as refusing it: it asks it no more and may
 * sleep until that value changes (a publication, or a range grown back:
 * adapt__regrown) or its sleep times out (ADAPT_REFUSED_RECHECK_MAX_US).
 * Default 4. */
#ifndef ADAPT_REFUSED_SLEEP
#define ADAPT_REFUSED_SLEEP 4u
#endif

/* Longest sleep of an idle worker whose only work in sight refused it
 * "nothing to split", µs: the first such sleep lasts ADAPT_BACKOFF_MAX_US,
 * each further one twice as long up to this bound, and after each the
 * worker asks the refusing victims again (a splitter may change its mind
 * with no new publication: user state, time). It bounds how long such a
 * splitter waits for a thief; a piece run resets the doubling. Default
 * 10000 (10 ms). */
#ifndef ADAPT_REFUSED_RECHECK_MAX_US
#define ADAPT_REFUSED_RECHECK_MAX_US 10000u
#endif

/* Most workers for which a push to a deque pays no fence and a worker
 * falling asleep in a region calls membarrier(2) instead (idle.c,
 * "asymmetric Dekker pair"). Each such sleep interrupts every core running
 * a thread of the process (an IPI: 1-2 µs on bare metal, about 14 µs in
 * this team's KVM guests), and workers woken together that find nothing
 * fall asleep together: the interrupts grow as the workers squared. With
 * more workers, or where membarrier is missing (a kernel before 4.14, a
 * seccomp filter), pushes fence instead and sleeps cost others nothing.
 * Default 8 (a guess: no machine of the team has more than 2 cores). */
#ifndef ADAPT_MEMBARRIER_MAX_WORKERS
#define ADAPT_MEMBARRIER_MAX_WORKERS 8
#endif

/* Longest sleep of an idle worker whose membarrier(2) call failed although
 * the process registered for it, µs: a push may then have missed it. Default
 * 1000 (1 ms). */
#ifndef ADAPT_SLEEP_UNFENCED_US
#define ADAPT_SLEEP_UNFENCED_US 1000u
#endif

/* Automatic grain: target duration of one chunk between two steal points, ns.
 * Default 2000 (2 µs: per-chunk costs of a few ns amortised below 0.5%). */
#ifndef ADAPT_GRAIN_TARGET_NS
#define ADAPT_GRAIN_TARGET_NS 2000u
#endif

/* Automatic grain never grows beyond this many iterations. Default 65536. */
#ifndef ADAPT_GRAIN_MAX
#define ADAPT_GRAIN_MAX 65536u
#endif

/* Automatic grain after calibration: one chunk in this many is timed, and
 * the grain is rescaled when that chunk took less than a quarter or more
 * than four times ADAPT_GRAIN_TARGET_NS (loops whose cost per iteration
 * changes along the range). Default 16. */
#ifndef ADAPT_GRAIN_PROBE
#define ADAPT_GRAIN_PROBE 16u
#endif

/* Steal round-trip samples kept per worker for the latency statistics.
 * Default 1024; a power of two. */
#ifndef ADAPT_RTT_SAMPLES
#define ADAPT_RTT_SAMPLES 1024u
#endif

/* Theft records allocated at once when a worker's pool is empty. Default 32. */
#ifndef ADAPT_THEFT_BLOCK
#define ADAPT_THEFT_BLOCK 32u
#endif

/* Spin iterations between two sched_yield() calls in a wait loop when there
 * are more workers than processing units (and 16x this otherwise). Default 64. */
#ifndef ADAPT_YIELD_SPINS
#define ADAPT_YIELD_SPINS 64u
#endif

/* Spin iterations on a busy deque lock between two sched_yield() calls (the
 * holder may have been preempted when there are more workers than cores).
 * Default 256. */
#ifndef ADAPT_LOCK_SPINS
#define ADAPT_LOCK_SPINS 256u
#endif

/* Spawned tasks a worker's deque holds; a spawn on a full deque runs the
 * task at once. Default 8192. */
#ifndef ADAPT_DEQUE_CAP
#define ADAPT_DEQUE_CAP 8192u
#endif

/* Lazy spawns (env ADAPT_SPAWN_KEEP): entries a worker's deque must hold
 * for thieves before adapt_spawn and adapt_fork run their task at once
 * instead of pushing it (the lazy-scheduling paper's DF2-LS threshold; 0:
 * every task is pushed). A worker no thief can reach runs every task at
 * once unless it is 0. Default 2. */
#ifndef ADAPT_SPAWN_KEEP_DEFAULT
#define ADAPT_SPAWN_KEEP_DEFAULT 2u
#endif

/* Nested runs of stolen work on one worker's stack (joins and syncs that
 * steal while they wait); beyond it a waiting worker only spins.
 * Default 200. */
#ifndef ADAPT_MAX_NEST
#define ADAPT_MAX_NEST 200u
#endif

/* While a finalize waits for running regions, new top-level regions wait
 * for it; the first time this many milliseconds pass without the regions
 * ending, the finalize lets the waiting ones in (one region each: one of
 * them may be what a running body waits for, e.g. a thread it joins), at
 * each later time it fails those waiting (-ESHUTDOWN). Default 20. */
#ifndef ADAPT_FINALIZE_ADMIT_MS
#define ADAPT_FINALIZE_ADMIT_MS 20
#endif

/* Events kept per worker by the trace (ADAPT_TRACE=file). Default 1<<20. */
#ifndef ADAPT_TRACE_MAX_EVENTS
#define ADAPT_TRACE_MAX_EVENTS (1u << 20)
#endif

/* Largest default grain of the non-adaptive schedulers (iterations): the
 * grain is min(this, n / (8 P)), as cilk_for chooses it. */
#ifndef ADAPT_SCHED_GRAIN_MAX
#define ADAPT_SCHED_GRAIN_MAX 2048u
#endif

_Static_assert(ADAPT_CACHE_LINE >= 16 && (ADAPT_CACHE_LINE & (ADAPT_CACHE_LINE - 1)) == 0,
               "ADAPT_CACHE_LINE must be a power of two >= 16");
_Static_assert(ADAPT_MAX_WORKERS >= 1 && ADAPT_MAX_WORKERS <= 4096,
               "ADAPT_MAX_WORKERS out of range");
_Static_assert(ADAPT_MAX_DEPTH >= 2, "ADAPT_MAX_DEPTH must allow one nested frame");
_Static_assert((ADAPT_RTT_SAMPLES & (ADAPT_RTT_SAMPLES - 1)) == 0,
               "ADAPT_RTT_SAMPLES must be a power of two");
_Static_assert(ADAPT_GRAIN_MAX >= 1 && ADAPT_GRAIN_TARGET_NS >= 100, "automatic grain bounds");
_Static_assert(ADAPT_WORK_MAX % 16 == 0, "ADAPT_WORK_MAX must keep 16-byte alignment");
_Static_assert(ADAPT_THEFT_BLOCK >= 1, "ADAPT_THEFT_BLOCK must be >= 1");
_Static_assert(ADAPT_FINALIZE_ADMIT_MS >= 1 && ADAPT_FINALIZE_ADMIT_MS <= 1000,
               "ADAPT_FINALIZE_ADMIT_MS must be 1..1000");
_Static_assert(ADAPT_SCHED_GRAIN_MAX >= 1, "ADAPT_SCHED_GRAIN_MAX must be >= 1");
_Static_assert(ADAPT_GRAIN_PROBE >= 2, "ADAPT_GRAIN_PROBE must be >= 2");
_Static_assert(ADAPT_DEQUE_CAP >= 2 && ADAPT_MAX_NEST >= 2, "deque capacity and nesting");
_Static_assert(ADAPT_SPAWN_KEEP_DEFAULT < ADAPT_DEQUE_CAP,
               "ADAPT_SPAWN_KEEP_DEFAULT: below the deque capacity");
_Static_assert(ADAPT_LOCK_SPINS >= 1, "ADAPT_LOCK_SPINS must be >= 1");
_Static_assert(ADAPT_BACKOFF_MIN_US >= 1 && ADAPT_BACKOFF_MIN_US <= ADAPT_BACKOFF_MAX_US &&
                   ADAPT_BACKOFF_MAX_US <= 1000000u,
               "nap bounds: 1 <= ADAPT_BACKOFF_MIN_US <= ADAPT_BACKOFF_MAX_US <= 1 s");
_Static_assert(ADAPT_REFUSED_SLEEP >= 1, "ADAPT_REFUSED_SLEEP must be >= 1");
_Static_assert(ADAPT_REFUSED_RECHECK_MAX_US >= ADAPT_BACKOFF_MAX_US &&
                   ADAPT_REFUSED_RECHECK_MAX_US <= 1000000u,
               "ADAPT_BACKOFF_MAX_US <= ADAPT_REFUSED_RECHECK_MAX_US <= 1 s");
_Static_assert(ADAPT_MEMBARRIER_MAX_WORKERS >= 0, "ADAPT_MEMBARRIER_MAX_WORKERS must be >= 0");
_Static_assert(ADAPT_SLEEP_UNFENCED_US >= 1 && ADAPT_SLEEP_UNFENCED_US <= 1000000u,
               "1 <= ADAPT_SLEEP_UNFENCED_US <= 1 s");

#endif /* LIBADAPT_SRC_CONFIG_H */
