/* libadapt: adaptive work-stealing runtime (Kaapi-style).
 *
 * This header: runtime life cycle, worker identity, errors, topology and
 * statistics. The low-level adaptive API (begin, splitter, reply, steal
 * point, preempt point, reducer, end) is in <adapt/adaptive.h>; the loops
 * and their schedulers in <adapt/loop.h>; the sequence algorithms in
 * <adapt/algorithms.h>; spawn/sync tasks in <adapt/tasks.h>.
 *
 * Error convention: functions that can fail return 0 on success or a
 * negative errno value (-EINVAL, -ENOMEM, ...); adapt_strerror() turns it
 * into a message, adapt_last_error() says which function and argument.
 */
#ifndef LIBADAPT_INCLUDE_ADAPT_ADAPT_H
#define LIBADAPT_INCLUDE_ADAPT_ADAPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of these headers (semantic versioning; the shared library's real
 * name is libadapt.so.MAJOR.MINOR.PATCH, its soname libadapt.so.MAJOR, and
 * libadapt.so.0.MINOR while MAJOR is 0).
 * ADAPT_VERSION_HEX is comparable: 0xMMmmpp. adapt_version() gives the
 * version of the library actually loaded at run time. Until 1.0 a minor
 * version may break the ABI (0.3: adapt_seq_kernel grew thief_parts; 0.4:
 * adapt_attr grew max_workers and adapt_scope a pointer; 0.5: adapt_scope
 * grew a pointer, <adapt/tasks.h> inlines spawn and sync over its layout;
 * 0.6: the deque end names its owner, adapt_scope_begin is inline; 0.7:
 * adapt_child, adapt_fork and adapt_join). */
#define ADAPT_VERSION_MAJOR 0
#define ADAPT_VERSION_MINOR 8
#define ADAPT_VERSION_PATCH 0
#define ADAPT_VERSION_HEX                                                                          \
  ((ADAPT_VERSION_MAJOR << 16) | (ADAPT_VERSION_MINOR << 8) | ADAPT_VERSION_PATCH)

/* Marks the declarations the shared library exports; everything else in it
 * is hidden (built with -fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define ADAPT_API __attribute__((visibility("default")))
#else
#define ADAPT_API
#endif

/* Victim selection of an idle worker. */
typedef enum adapt_victim_policy {
  ADAPT_VICTIM_DEFAULT = 0, /* ADAPT_VICTIM env, else ADAPT_VICTIM_CACHE */
  ADAPT_VICTIM_RANDOM,      /* uniform among the other workers */
  ADAPT_VICTIM_CACHE        /* first the workers sharing the smallest cache */
} adapt_victim_policy;

/* Which of a victim's nested splittable frames answers a request first. */
typedef enum adapt_steal_order {
  ADAPT_STEAL_DEFAULT = 0, /* ADAPT_STEAL_ORDER env, else OUTER */
  ADAPT_STEAL_OUTER,       /* outermost first: breadth-first thefts */
  ADAPT_STEAL_INNER        /* innermost first */
} adapt_steal_order;

/* Runtime configuration. Zero-initialise, then set what you need; every
 * field left at 0 takes the environment's value, then the built-in default
 * (docs/guide.md, "Configuration", has the table of every variable). */
typedef struct adapt_config {
  int workers;                   /* number of workers; env ADAPT_WORKERS; default: the PUs
                                    the starting thread may run on, at most the
                                    cgroups' CPU limit (see adapt_init) */
  int bind;                      /* 1 bind, -1 do not bind; env ADAPT_BIND=0|1; default 1 */
  adapt_victim_policy victim;    /* env ADAPT_VICTIM=random|cache */
  adapt_steal_order steal_order; /* env ADAPT_STEAL_ORDER=outer|inner */
  unsigned spin_us;              /* idle spin before sleeping, µs (<= 10^7); env ADAPT_SPIN_US */
  unsigned steal_timeout_us;     /* a thief's wait for one reply, µs (<= 10^7);
                                    env ADAPT_STEAL_TIMEOUT_US */
  int stats;                     /* 1: print the stats table at exit (0 or 1); env ADAPT_STATS=1 */
  const char *trace_file;        /* event trace CSV written at finalize ("": none);
                                    env ADAPT_TRACE, ADAPT_TRACE_EVENTS */
} adapt_config;

/* Start the runtime: one worker per processing unit found by hwloc among
 * those the calling thread may run on (its affinity mask at this call:
 * taskset, numactl, an MPI launcher's or a batch system's binding), at
 * most as many as the process's cgroups' CPU bandwidth limit allows
 * (cpu.max, cpu.cfs_quota_us; rounded up), or
 * cfg->workers / ADAPT_WORKERS workers (more workers than PUs is supported);
 * the calling thread is worker 0, and worker i is bound to the i-th of
 * those PUs mod their number unless binding is disabled (unbound workers
 * inherit the calling thread's mask). Worker 0 gets the calling thread's
 * mask back at adapt_finalize.
 * cfg NULL: defaults and environment.
 * Optional: every entry point initialises lazily with cfg NULL.
 * Topology: hwloc loads the machine's once per process (and again when the
 * HWLOC_* environment changes); each start copies it and reads the calling
 * thread's binding anew. The loaded topology stays in memory until exit.
 * Configuration: every ADAPT_* environment variable (the loop and algorithm
 * defaults ADAPT_GRAIN, ADAPT_SCHED, ADAPT_WINDOW, ADAPT_WINDOW_SIZE,
 * ADAPT_SPLITTER included) is read and checked here, once per call that
 * starts the runtime, also when a cfg field overrides it; changing the
 * environment later has no effect on the running runtime. Each bad value
 * is printed on stderr, one line each: libadapt: bad value NAME="value"
 * (expected ...), at each adapt_init call; a lazy start by another entry
 * point that fails again on the same values does not print them again.
 * While the runtime runs (from any thread, a worker inside a region
 * included): returns 0 without changing anything when cfg is NULL or every
 * non-zero field of cfg equals the running configuration (the environment
 * is not read again), else -EBUSY (nothing is changed; adapt_finalize
 * first to change the configuration).
 * Errors: -EINVAL bad cfg field or environment value, -EBUSY (above),
 * -ENOMEM, -ENODEV hwloc cannot load the topology, -EAGAIN a thread could
 * not be created (nothing is left running); adapt_last_error() names the
 * field or variable.
 * Context: any thread. Thread-safe (concurrent first calls start one
 * runtime).
 * fork(): the child, which has only the forking thread, abandons its copy
 * of the runtime (its memory is not freed) and starts one of its own at its
 * next entry point, with the CPUs the forking thread had before the runtime
 * bound it; the regions that the parent's other threads were running do
 * not exist in the child, and its exit does not wait for them. A fork from
 * inside a region (a body) leaves the child the copy as it is: it may only
 * exec or _exit.
 * Not guaranteed: that the environment is read at all when the runtime
 * already runs; the order in which bad values are printed. */
ADAPT_API int adapt_init(const adapt_config *cfg);

/* Stop the workers, join their threads, free the runtime, write the trace
 * and (ADAPT_STATS=1) print the statistics. Idempotent; a later call of any
 * entry point starts a new runtime.
 * Called from a thread that is not inside a region while other threads run
 * regions: waits until none runs. Top-level regions that start meanwhile
 * wait for the finalize; the first time that the running regions have not
 * ended 20 ms into a wait, the finalize lets those waiting then in, one
 * region each (a thread that a body joins may so still run loops, and
 * adapt_init there returns 0 on the running runtime); it does so once. At
 * each later 20 ms the regions waiting then fail: their call (adapt_for,
 * adapt_begin, adapt_scope_begin, the algorithms) returns -ESHUTDOWN, and
 * adapt_last_error() says a finalize is under way; the caller may start
 * the region again once the finalize has returned. So regions that other
 * threads keep starting delay a finalize by at most the time of the
 * regions running or let in, not without bound. A region that waited
 * until the teardown starts a new runtime. Two
 * threads may finalize together: one tears down, both return once it is
 * done. A finalize from a thread that a running body waits for never
 * returns (that region cannot end). Called from inside a region (a body): does nothing and
 * reports it on stderr; see adapt_try_finalize. */
ADAPT_API void adapt_finalize(void);

/* adapt_finalize that reports: 0 done (or nothing to do), -EBUSY called from
 * inside a parallel region (nothing is changed; adapt_last_error() says
 * so). */
ADAPT_API int adapt_try_finalize(void);

/* Number of workers of the running runtime (initialises it lazily); at
 * least 1. Thread-safe. */
ADAPT_API int adapt_num_workers(void);

/* 0..n-1 on a worker thread (worker 0 is the thread that initialised the
 * runtime, or a foreign thread while it runs a region on the workers), -1
 * elsewhere, also in a region that a thread runs alone because another
 * thread's region holds the workers (see adapt_begin). */
ADAPT_API int adapt_worker_id(void);

/* How many workers are idle now: pool workers in their idle loop (looking
 * for work, backing off or asleep), not running any work. For a parallel
 * call nested in a region (a body, a task, a stolen piece), 0 says that
 * no other worker is free to join it now: it may as well run
 * sequentially (the C++ front end's algorithms that pay for their
 * parallel path do, <adapt/stl.hpp>).
 * Inside a region or on a worker thread: the count, 0..n-1 (the caller is
 * never counted; 0 with one worker, and in a region the calling thread
 * runs alone, adapt_worker_id() -1). Outside regions, where a call starts
 * a region of its own: the workers that region would get, n-1 when the
 * pool is free, 0 while another thread's region holds it (the call would
 * run alone, see adapt_begin) or when the runtime is not running (it is
 * not started).
 * Any thread, any time; thread-safe; cheap inside a region (one relaxed
 * load), one lock outside. Sets no error.
 * Not guaranteed: the value is a snapshot, stale as soon as it is read (a
 * worker counted idle may take other work, a busy one finish), and the
 * counts move at steals, not at every iteration; workers waiting at a
 * join (which steal too) are not counted. */
ADAPT_API int adapt_idle_workers(void);

/* Version of the library loaded at run time, as ADAPT_VERSION_HEX spells it
 * (0xMMmmpp); compare with ADAPT_VERSION_HEX of the headers compiled
 * against. Thread-safe, no initialisation needed. */
ADAPT_API unsigned adapt_version(void);

/* The same as a static string "MAJOR.MINOR.PATCH". Never NULL. */
ADAPT_API const char *adapt_version_string(void);

/* Message for a return code of this library (0 or negative errno): a
 * specific text for every code the library returns; another negative errno
 * value gets the system's text (e.g. a trace file that cannot be written).
 * Never NULL. The string is static, or for codes the library does not
 * return kept in a thread-local buffer valid until the next adapt_strerror
 * call on this thread. Thread-safe, no initialisation needed; does not
 * change adapt_last_error(). */
ADAPT_API const char *adapt_strerror(int err);

/* Detail of the last failed call of the calling thread: which function and
 * which argument, field or variable, e.g. "adapt_transform: output overlaps
 * input", "adapt_init: ADAPT_GRAIN=\"0\": expected an integer
 * 1..18446744073709551615". Every function of the library that returns an
 * error code sets it when it fails with -EINVAL, -ENOTSUP, -EBUSY, -E2BIG,
 * -EOVERFLOW, -ERANGE or -EPROTO (and with most other codes), and empties it
 * when it succeeds (the inline fast paths of adapt_spawn and adapt_sync leave
 * it unchanged, <adapt/tasks.h>); the other functions (adapt_strerror, adapt_last_error,
 * adapt_worker_id, ...) leave it unchanged. A failure of a lazy start has
 * the detail of adapt_init. Errors found by other workers while an
 * algorithm runs are reported to the calling thread.
 * Returns "" when the last such call succeeded, or before any. Never NULL;
 * the string is thread-local and valid until the next libadapt call on this
 * thread. Thread-safe, no initialisation needed.
 * Not guaranteed: the exact wording (it is meant for people, not for
 * parsing); details are truncated to 255 bytes. */
ADAPT_API const char *adapt_last_error(void);

/* --- Topology ----------------------------------------------------------- */

/* Size in bytes of the largest cache shared by all workers (the last-level
 * cache of one socket on a multicore), 0 if the workers share no cache or
 * hwloc reports none. Used by the window algorithms for their default
 * window size. Initialises lazily. */
ADAPT_API size_t adapt_shared_cache_size(void);

/* Size in bytes of the smallest cache that worker a and worker b share (a
 * may equal b: its L1), 0 if none or bad ids. */
ADAPT_API size_t adapt_cache_shared_by(int a, int b);

/* OS index of the processing unit worker w is bound to (one of those its
 * runtime's starting thread could run on, see adapt_init), -1 if unbound or
 * bad id. */
ADAPT_API int adapt_worker_pu(int w);

/* --- Statistics --------------------------------------------------------- */

typedef struct adapt_worker_stats {
  uint64_t requests_posted;  /* steal requests this worker posted as a thief */
  uint64_t requests_served;  /* requests answered by this worker (ok or fail) */
  uint64_t requests_timeout; /* requests this worker cancelled after the timeout */
  uint64_t steals;           /* successful thefts made by this worker */
  uint64_t splits;           /* splitter calls that gave at least one piece */
  uint64_t preemptions;      /* thieves this worker preempted */
  uint64_t reductions;       /* reducer calls made by this worker */
  uint64_t regions;          /* splittable frames begun by this worker */
  uint64_t idle_ns;          /* time spent looking for work or sleeping, ns */
  uint64_t sleeps;           /* times this worker went to sleep */
} adapt_worker_stats;

/* Copy worker w's counters into *out. Errors: -EINVAL bad w or NULL out,
 * -ESRCH runtime not running. Values read while a region runs are
 * approximate (each counter is exact, the set is not a snapshot). */
ADAPT_API int adapt_stats_get(int w, adapt_worker_stats *out);

/* Zero every counter and the steal latency samples: adapt_stats_get then
 * counts from this call (a reset is never lost to a worker's concurrent
 * update; a latency sample stored meanwhile may remain). Any thread, any
 * time; does nothing when the runtime is not running. */
ADAPT_API void adapt_stats_reset(void);

/* Median and 90th percentile of the steal round trip (request posted to
 * reply received, successful steals only) over the recent samples of all
 * workers, in ns. Errors: -ENODATA no sample, -EINVAL NULL pointer. */
ADAPT_API int adapt_stats_steal_latency(double *median_ns, double *p90_ns);

/* Print the per-worker table to f (stderr if NULL). */
ADAPT_API void adapt_stats_print(FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* LIBADAPT_INCLUDE_ADAPT_ADAPT_H */
