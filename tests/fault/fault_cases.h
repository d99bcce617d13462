/* What the fault driver's harness (fault_driver.c) shares with its cases:
 * the runtime's (fault_runtime.c) and the algorithms' (fault_algos.c). A
 * case is a void function run under an armed fault (the harness arms,
 * disarms and checks threads and leaks around it); it makes its calls,
 * checks each result with fault_expect_rc and the helpers below, and
 * reports through cmocka's fail_msg (main thread) or fault_bad() (bodies,
 * callbacks). The variables and helpers shared between the files have the
 * fault_ prefix, the cases the sc_ one. */
#ifndef TESTS_FAULT_FAULT_CASES_H
#define TESTS_FAULT_FAULT_CASES_H

#include <adapt/adaptive.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

enum {
  K_MAX = 50,  /* k = 1..K_MAX */
  WORKERS = 4, /* on 2 cores: thieves are always around */
  N_MAX = 1 << 16,
  VAR_MAX_OUT = 3,
};

/* --- The run being checked (set by the harness) -------------------------- */

extern const char *fault_cur_name;     /* the case's name, for the messages */
extern unsigned long fault_cur_k;      /* the fault's k, for the messages */
extern unsigned long fault_run_errors; /* documented errors returned in this run */

/* Fails the run: `what` returned rc (with the fault's k and mode). */
void fault_fail_run(const char *what, int rc);

/* rc must be 0 or one of the codes ok (0-terminated list; a documented
 * error counts in fault_run_errors and must have an adapt_last_error detail),
 * else the run fails. Returns rc. */
int fault_expect_rc(const char *what, int rc, const int *ok);
/* fault_expect_rc of the call f(...), named by f. */
#define FAULT_CALL(ok, f, ...) fault_expect_rc(#f, f(__VA_ARGS__), ok)
extern const int fault_ok_none[];    /* {0}: no error allowed */
extern const int fault_ok_nomem[];   /* -ENOMEM */
extern const int fault_ok_latency[]; /* -ENOMEM, -ENODATA */

/* Counts a problem found inside a body or callback (any thread); the
 * harness fails the run when the count is not 0 after it. */
void fault_bad(void);

/* --- Inputs, outputs and per-index visit counts -------------------------- */

extern size_t fault_n_elems;            /* elements per call (scaled for the sanitizers) */
extern atomic_uchar fault_marks[N_MAX]; /* visits per index */
extern uint64_t fault_in[N_MAX];        /* fault_in[i] = i */
extern uint64_t fault_out[N_MAX];       /* the calls' outputs */
extern affine fault_scan_in[N_MAX];     /* fault_scan_in[i] = fault_affine_of(i) */
extern char fault_trace_path[128];      /* the trace file of the init case */

/* One more visit of index i (relaxed: read after the call's join). */
void fault_mark(size_t i);
/* Sets the visits of [0, fault_n_elems) to 0. */
void fault_clear_marks(void);
/* Fails the run unless every index of [0, n) was visited `want` times. */
void fault_check_marks(const char *what, size_t n, unsigned want);
/* A few ns of work for index i, so that idle workers find something to
 * steal (steals allocate theft records) before the owner is done. */
void fault_burn(size_t i);
/* A loop body: mark and burn each index of [b, e). */
void fault_mark_body(size_t b, size_t e, void *ctx);
/* adapt_for_each's op and adapt_for_each_range's: one more visit of the
 * atomic_uchar elements. */
void fault_op_mark(void *elem, void *ctx);
void fault_op_mark_range(void *first, size_t n, void *ctx);
/* adapt_transform's op: *b = 3 * *a + 1 (uint64_t). */
void fault_op_f3(const void *a, void *b, void *ctx);
/* Fails the run unless fault_out[i] = 3 * fault_in[i] + 1 for every i <
 * fault_n_elems. */
void fault_check_out_f3(const char *what);
/* The scans' data: affine maps (kernels.h). */
affine fault_affine_of(uint64_t i);

/* --- The cases ------------------------------------------------------------ */

/* fault_runtime.c: the runtime's entry points. */
void sc_init(void);     /* adapt_init with a trace, a loop, adapt_try_finalize */
void sc_lazy(void);     /* each entry point starting the runtime lazily */
void sc_for_all(void);  /* adapt_for with every scheduler, nested */
void sc_tasks(void);    /* spawn/sync: a tree of tasks, loops at some leaves */
void sc_adaptive(void); /* a user adaptive task, its reducer checks order */
void sc_queries(void);  /* statistics, topology, identity, cancellation */
void sc_solo(void);     /* regions run alone while another holds the workers */

/* fault_algos.c: the sequence algorithms, in each window mode. */
void sc_algo_map(void);    /* for_each, transform, count_if, find_if, scans */
void sc_algo_var(void);    /* transform_var, copy_if */
void sc_algo_reduce(void); /* adapt_reduce's documented grouping */

#endif /* TESTS_FAULT_FAULT_CASES_H */
