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
 * and on a timeout with regions waiting in wait_closing admit them (one
 * region each); once the count is 0 one step clears OPEN and CLOSING, the
 * teardown, progress; the runtime is started again by the next region.
 *
 * The admissions are bounded: at most ADMITS timeouts admit regions per
 * finalize (the code admits at each ADAPT_FINALIZE_ADMIT_MS timeout, and a
 * model has no clock). Without the bound (-DUNBOUNDED) spin finds the
 * cycle that remains: two threads whose regions overlap and each outlast
 * the admission period are admitted in turn, and the count never reaches
 * 0: the bound in time of adapt_finalize holds for regions shorter than
 * that period (docs/reliability.md).
 *
 * SEEDED_BUG 1: region_start ignores CLOSING (new regions join the count
 * while a finalize waits: the unbounded wait of issue 38, item 4).
 * (A lost wake-up of the finalize is no liveness bug here: its wait is
 * timed and looks at the count again; model (f) checks the wake-up.) */

#ifndef NREG
#define NREG 2
#endif
#ifndef ADMITS
#define ADMITS 1
#endif
#if NREG < 1 || NREG > 3
#error "finalize.pml models 1 <= NREG <= 3 region threads"
#endif

bool up, closing;
byte count;            /* running regions */
byte waiting;          /* regions in wait_closing */
byte admit_gen;        /* bumped by an admission, modulo ADMITS + 1: a region waits
                        * through at most ADMITS admissions (CLOSING is cleared
                        * after them), so no two of its values alias */
bool fin_wait;         /* the finalize waits on regions_done */
bool woken;            /* regions_done signalled */
byte admits;           /* admissions by the current finalize */

proctype region(byte id) {
  byte gen;
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
     :: atomic { up && closing && !admitted -> gen = admit_gen; waiting++ };
        if                                     /* wait_closing */
        :: atomic { !closing -> waiting-- }
        :: atomic { admit_gen != gen -> waiting--; admitted = 1 }
        fi
     od;
     atomic {                                  /* the region's leave */
       count--;
       if :: count == 0 && fin_wait -> woken = 1 :: else -> skip fi
     }
  od
}

proctype finalizer() {
  do
  :: atomic { up -> closing = 1; admits = 0; admit_gen = 0 };
     do                                        /* wait_regions, then the close */
     :: atomic { count == 0 -> up = 0; closing = 0; break }
     :: atomic { count > 0 -> fin_wait = 1; woken = 0 };
        if
        :: woken -> skip                       /* regions_done */
        :: true -> skip                        /* a timeout: look at the count again */
#ifdef UNBOUNDED
        :: atomic { waiting > 0 -> admit_gen = 1 - admit_gen }   /* timeout: each one admits */
#else
        :: atomic { waiting > 0 && admits < ADMITS -> admits++; admit_gen = (admit_gen + 1) % (ADMITS + 1) }
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
