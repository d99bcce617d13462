/* Fault injection for tests/fault: the allocation functions,
 * pthread_create and the thieves' membarrier, wrapped at link time (tests/fault/module.mk links with
 * -Wl,--wrap=...), fail on demand.
 *
 * What is counted: the calls made by the objects linked with the wrap
 * options, i.e. the driver and every member of libadapt.a (runtime and
 * algorithms). Allocations made inside other libraries (hwloc, libc's own
 * use of malloc, e.g. for thread stacks or FILE buffers) are not counted
 * and never fail. */
#ifndef TESTS_FAULT_FAULT_INJECT_H
#define TESTS_FAULT_FAULT_INJECT_H

/* How an armed allocation fault behaves. */
typedef enum fault_mode {
  FAULT_ONCE, /* only the k-th allocation fails (a transient failure) */
  FAULT_FROM, /* the k-th and every later one fail (memory exhausted) */
  FAULT_EVERY /* the k-th, (k+p)-th, (k+2p)-th... fail (transient failures;
                  p: fault_alloc_arm_every) */
} fault_mode;

/* From now on, the k-th call (k >= 1) of malloc, calloc, realloc,
 * posix_memalign, aligned_alloc or strdup fails (and, FAULT_FROM, every
 * later one), on any thread, until fault_disarm. Resets the counts. */
void fault_alloc_arm(unsigned long k, fault_mode mode);
/* fault_alloc_arm(k, FAULT_EVERY) with period p >= 1: k = 1..p reach every
 * allocation of a run, each failing alone in its stretch of p calls. */
void fault_alloc_arm_every(unsigned long k, unsigned long p);

/* From now on, the k-th call of pthread_create (k >= 1) fails with EAGAIN,
 * until fault_disarm. Resets the counts. */
void fault_thread_arm(unsigned long k);

/* From now on, the thieves' membarrier (libadapt's adapt__membarrier, as
 * called by the deque's steal: deque.c, thieves_enter) fails as the k-th
 * allocation would under fault_alloc_arm(k, mode), or every p-th from the
 * k-th (p >= 1, mode FAULT_EVERY), until fault_disarm. The sleepers' call
 * (idle.c, in the same object as the function) is not wrapped. Resets
 * the counts. */
void fault_barrier_arm(unsigned long k, fault_mode mode, unsigned long p);

/* Thieves' membarrier calls counted since the last arm. */
unsigned long fault_barriers_seen(void);

/* Stop failing (the counts are kept for the functions below). */
void fault_disarm(void);

/* Allocation calls counted since the last arm. */
unsigned long fault_allocs_seen(void);

/* Failures injected since the last arm (allocations and thread creations). */
unsigned long fault_injected(void);

/* Blocks allocated through the wrappers and not yet freed, since the start
 * of the process: equal before and after a run when nothing leaked. */
long fault_live_blocks(void);

#endif /* TESTS_FAULT_FAULT_INJECT_H */
