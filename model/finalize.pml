/* Model (i): liveness of finalize while other threads keep starting
 * top-level regions (region.c: region_start, wait_closing,
 * adapt__region_leave; runtime.c: finalize, wait_regions), checked as
 * non-progress cycles under weak fairness (pan -l -f): every cycle of the
 * system must pass the finalize's progress label, i.e. each finalize
 * completes, whatever the region threads do.
 *
 * NREG threads start regions forever: region_start (the runtime down and
 * not CLOSING: init it; CLOSING and not admitted: wait_closing, which
 * returns when CLOSING is cleared or the finalize admits the waiters;
 * else one step adds the region to the count), then the region's leave
 * (one step: subtract, and wake the waiting finalize when the count is 0;
 * model (f) checks that Dekker pair and the wait itself). One thread
 * finalizes forever: set CLOSING; while regions run, wait (regions_done),
 * and on a timeout with regions waiting in wait_closing: the first such
 * timeout of a closing admits them (one region each), each later one
 * refuses those waiting then (region_start returns -ESHUTDOWN: the thread
 * goes on to its next region); once the count is 0 one step clears OPEN
 * and CLOSING, the teardown, progress; the runtime is started again by the
 * next region. A model has no clock: a timeout may come at any step.
 *
 * SEEDED_BUG 1: region_start ignores CLOSING (new regions join the count
 * while a finalize waits: the unbounded wait of issue 38, item 4).
 * SEEDED_BUG 2: every timeout admits the waiting regions, none refuses
 * them (the admission before the fix): two threads whose regions overlap
 * and each outlast the admission period are let in in turn, and the count
 * never reaches 0.
 * (A lost wake-up of the finalize is no liveness bug here: its wait is
 * timed and looks at the count again; model (f) checks the wake-up.) */

#ifndef NREG
#define NREG 2
#endif
#if NREG < 1 || NREG > 3
#error "finalize.pml models 1 <= NREG <= 3 region threads"
#endif

bool up, closing;
byte count;            /* running regions */
byte waiting;          /* regions in wait_closing */
bit admit_gen;         /* bumped by an admission: a region waits through at most
                        * one (more with seeded bug 2, where two alias: fewer
                        * admissions, the cycle is still there) */
bit refuse_gen;        /* bumped by a refusal */
bool admit_done;       /* this closing admitted (cleared by the teardown) */
bool fin_wait;         /* the finalize waits on regions_done */
bool woken;            /* regions_done signalled */

proctype region(byte id) {
  bit gen, rgen;
  bool admitted;
  do
  :: admitted = 0;
     do                                        /* region_start */
     :: atomic { !up && !closing -> up = 1 }   /* adapt__ensure_wait: init */
     :: atomic {
#if SEEDED_BUG == 1
          up ->
#else
          up && (!closing || admitted) ->
#endif
          count++; break }
     :: atomic { up && closing && !admitted -> gen = admit_gen; rgen = refuse_gen; waiting++ };
        if                                     /* wait_closing */
        :: atomic { !closing -> waiting-- }
        :: atomic { admit_gen != gen -> waiting--; admitted = 1 }
        :: atomic { admit_gen == gen && refuse_gen != rgen -> waiting--; goto refused }
        fi
     od;
     atomic {                                  /* the region's leave */
       count--;
       if :: count == 0 && fin_wait -> woken = 1 :: else -> skip fi
     };
refused:
     skip
  od
}

proctype finalizer() {
  do
  :: atomic { up -> closing = 1 };
     do                                        /* wait_regions, then the close */
     :: atomic { count == 0 -> up = 0; closing = 0; admit_done = 0; break }
     :: atomic { count > 0 -> fin_wait = 1; woken = 0 };
        if
        :: woken -> skip                       /* regions_done */
        :: true -> skip                        /* a timeout: look at the count again */
#if SEEDED_BUG == 2
        :: atomic { waiting > 0 -> admit_gen = 1 - admit_gen }   /* each timeout admits */
#else
        :: atomic { waiting > 0 && !admit_done -> admit_done = 1; admit_gen = 1 - admit_gen }
        :: atomic { waiting > 0 && admit_done -> refuse_gen = 1 - refuse_gen }
#endif
        fi;
        fin_wait = 0
     od;
progress:
     skip
  od
}

init {
  byte i = 0;
  atomic {
    do
    :: i < NREG -> run region(i); i++
    :: else -> break
    od;
    run finalizer()
  }
}
