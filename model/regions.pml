/* Model (f): top-level regions against finalize (region.c: adapt__region_start,
 * adapt__region_leave; runtime.c: init, finalize, wait_regions).
 *
 * The word regions holds OPEN, POOL, CLOSING and the count of running
 * regions. NREG threads each run NR top-level regions: adapt__region_start loads
 * regions; if CLOSING is set (and it was not let in) it waits in
 * wait_closing (region_lock; while CLOSING and not let in: cond_wait on
 * admitted), then looks again; if OPEN is clear it calls adapt__ensure_wait (init lock; starts the runtime
 * if up == 0: up = 1, then OPEN, a release fetch_or, last), else one
 * compare-and-swap adds one to the count and sets POOL if it was clear (a
 * pool region) or only adds one (a solo region). Inside, the region uses
 * the runtime (asserted: up and no teardown under way; at most one pool
 * region). adapt__region_leave subtracts (seq_cst) one and POOL if it held
 * it, then, if no region is left, loads finalize_waiting (seq_cst) and if
 * it is > 0 broadcasts regions_done under region_lock.
 * NFIN threads call finalize once each: init lock; return if up == 0; set
 * CLOSING; a compare-and-swap from exactly OPEN | CLOSING to 0 closes the
 * runtime, else the init lock is released and wait_regions runs
 * (region_lock; increment finalize_waiting, seq_cst; while the count > 0:
 * timed cond_wait, and after a timeout with regions in wait_closing: the
 * first such timeout of a closing lets them in (admit_gen + 1, admit_done
 * set), each later one refuses those waiting then (refuse_gen + 1: their
 * region_start returns -ESHUTDOWN and the thread goes on to its next
 * region); broadcast admitted; decrement; unlock), then it tries again.
 * Once closed: region_lock, the teardown (ghost flag), up = 0, admit_done
 * cleared, broadcast admitted, unlock both. A timeout is modelled only while
 * regions wait in wait_closing (otherwise it only re-checks the count, as
 * a spurious wake-up: no new behaviour for safety, and a lost wake-up of
 * the finalize stays visible as a deadlock).
 * spin's interleavings are sequentially consistent: the seq_cst accesses
 * of the Dekker pair are modelled exactly; acquire/release carry no more
 * here (their data, the configuration and the workers, is the ghost
 * teardown flag).
 *
 * Checked: a region never runs while a teardown is under way or the runtime
 * is down; at most one pool region; no deadlock (a lost wake-up of a waiting
 * finalize is an invalid end state).
 * With -DLIVE: the NREG threads start regions forever and one thread
 * finalizes forever; checked as non-progress cycles under weak fairness
 * (pan -l -f): every cycle passes the finalize's end, i.e. each finalize
 * completes while the other threads keep starting regions (the -ESHUTDOWN
 * refusals are what bounds it; model (i) checks the same on an abstract
 * model, this one on the real word, locks and Dekker pair).
 *
 * SEEDED_BUG 1: the leave loads finalize_waiting before it subtracts (its
 * half of the Dekker pair in the wrong order): a finalize that begins to
 * wait in between is never woken.
 * SEEDED_BUG 2: finalize closes the runtime whenever OPEN is set, without
 * checking the count (a compare-and-swap on the bit alone): the teardown
 * runs under a region.
 * SEEDED_BUG 3: wait_closing does not look at CLOSING again under
 * region_lock before it waits: a teardown (and its broadcast) between the
 * region's look and its wait leaves it waiting forever.
 * SEEDED_BUG 4 (with -DLIVE): every timeout lets the waiting regions in,
 * none refuses them: two threads whose regions overlap are let in in turn
 * and the count never reaches 0 (a non-progress cycle). */

#ifndef NREG
#define NREG 2
#endif
#ifndef NR
#define NR 2
#endif
/* With LIVE, steps whose inner interleavings only the safety run needs
 * (ensure_wait under init_lock; finalize's check, CLOSING and
 * compare-and-swap under init_lock; taking region_lock with the first
 * write under it, wait_closing's last writes with the unlock) are atomic: fewer states, the same
 * cycles (the other threads' steps there only touch what init_lock
 * guards or see regions before or after). */
#ifdef LIVE
#undef NFIN
#define NFIN 1
#define LIVE_ATOMIC atomic
#else
#define LIVE_ATOMIC
#endif
#ifndef NFIN
#define NFIN 2
#endif

#define OPEN 1
#define POOL 2
#define CLOSING 4
#define ONE 8

byte regions = OPEN;     /* the runtime starts up */
bool up = 1;
bool tearing;            /* ghost: finalize's teardown under way */
byte pool_holders;       /* ghost */
byte init_lock;          /* 0 free, else owner's _pid + 1 */
byte region_lock;
byte fwaiting;           /* finalize_waiting */
bool cwait[NREG + NFIN + 1]; /* in pthread_cond_wait on regions_done */
bool await[NREG + NFIN + 1]; /* in pthread_cond_wait on admitted */
bool inwait[NREG + NFIN + 1]; /* in wait_closing (closing_waiters) */
bool letin[NREG + NFIN + 1];  /* let in by a finalize (admit_gen bumped) */
bool refused[NREG + NFIN + 1]; /* refused by a finalize (refuse_gen bumped) */
bool admit_done;              /* this closing let the waiting regions in */
byte cw;                      /* closing_waiters */

inline lock(m) { atomic { m == 0 -> m = _pid + 1 } }
inline unlock(m) { assert(m == _pid + 1); m = 0 }
inline broadcast() {
  d_step { bi = 0; do :: bi <= NREG + NFIN -> cwait[bi] = 0; bi++ :: else -> break od; bi = 0 }
}
/* Wakes the regions in wait_closing; with how 1 lets them in, with how 2
 * refuses them (the generation each saw changed). */
inline broadcast_admitted(how) {
  d_step {
    bi = 0;
    do
    :: bi <= NREG + NFIN -> await[bi] = 0;
       if
       :: how == 1 && inwait[bi] -> letin[bi] = 1
       :: how == 2 && inwait[bi] -> refused[bi] = 1
       :: else -> skip
       fi;
       bi++
    :: else -> break
    od;
    bi = 0
  }
}

active [NREG] proctype region() {
  byte r, s, kind, bi;
  bool adm, no;
#ifdef LIVE
  do
  :: true ->
#else
  for (r : 1 .. NR) {
#endif
    /* adapt__region_start */
    adm = 0;
    no = 0;
    do
    :: atomic { (regions & CLOSING) != 0 && !adm } ->   /* wait_closing */
       LIVE_ATOMIC { lock(region_lock); cw++; inwait[_pid] = 1 };
#if SEEDED_BUG == 3
       if
       :: letin[_pid] -> adm = 1
       :: else -> atomic { await[_pid] = 1; region_lock = 0 }; (!await[_pid]); lock(region_lock);
          adm = letin[_pid]
       fi;
#else
       do
       :: (regions & CLOSING) != 0 && letin[_pid] -> adm = 1; break
       :: (regions & CLOSING) != 0 && !letin[_pid] && refused[_pid] -> no = 1; break
       :: (regions & CLOSING) != 0 && !letin[_pid] && !refused[_pid] ->
          atomic { await[_pid] = 1; region_lock = 0 }; (!await[_pid]); lock(region_lock)
       :: (regions & CLOSING) == 0 -> break
       od;
#endif
       LIVE_ATOMIC { cw--; inwait[_pid] = 0; letin[_pid] = 0; refused[_pid] = 0; unlock(region_lock) };
       if
       :: no -> break                           /* -ESHUTDOWN */
       :: else -> skip
       fi
    :: atomic { (regions & OPEN) == 0 && ((regions & CLOSING) == 0 || adm) } ->
       /* adapt__ensure_wait: init(NULL, 1) (one step with LIVE) */
       LIVE_ATOMIC {
       lock(init_lock);
       if
       :: !up -> up = 1; regions = OPEN        /* init: OPEN last (release) */
       :: else -> skip                          /* check_running */
       fi;
       unlock(init_lock)
       }
    :: atomic { (regions & OPEN) != 0 && ((regions & CLOSING) == 0 || adm) &&
                (regions & POOL) == 0 -> regions = regions + ONE + POOL; kind = POOL }; break
    :: atomic { (regions & OPEN) != 0 && ((regions & CLOSING) == 0 || adm) &&
                (regions & POOL) != 0 -> regions = regions + ONE; kind = 0 }; break
    od;
    if
    :: no -> goto next                          /* refused: the thread's next region */
    :: else -> skip
    fi;
    /* the region (one step with LIVE: its checks are the safety run's) */
#ifdef LIVE
    d_step {
#endif
    assert(up && !tearing);
    if :: kind == POOL -> pool_holders++ :: else -> skip fi;
    assert(pool_holders <= 1);
    assert(up && !tearing);
    if :: kind == POOL -> pool_holders-- :: else -> skip fi;
#ifdef LIVE
    }
#endif
    /* adapt__region_leave */
#if SEEDED_BUG == 1
    s = fwaiting;                               /* BUG: looks before it leaves */
    regions = regions - ONE - kind;
    if
    :: regions < ONE && s > 0 -> lock(region_lock); broadcast(); unlock(region_lock)
    :: else -> skip
    fi
#else
    atomic { regions = regions - ONE - kind; s = regions };  /* seq_cst fetch_sub */
    if
    :: s < ONE && fwaiting > 0 ->               /* seq_cst load */
       lock(region_lock); broadcast(); unlock(region_lock)
    :: else -> skip
    fi;
#endif
next:
    skip
#ifdef LIVE
  od
#else
  }
#endif
}

active [NFIN] proctype finalize() {
  byte bi;
  bool tmo;
#ifdef LIVE
again:
#endif
  do
  :: LIVE_ATOMIC {                              /* one step with LIVE, to the close or the wait */
     lock(init_lock);
     if
     :: !up -> unlock(init_lock); goto done
     :: else -> skip
     fi;
     regions = regions | CLOSING;               /* relaxed fetch_or */
#if SEEDED_BUG == 2
     if
     :: atomic { (regions & OPEN) != 0 -> regions = regions & ~(OPEN | CLOSING) }; break
#else
     if
     :: atomic { regions == OPEN + CLOSING -> regions = 0 }; break   /* compare-and-swap */
#endif
     :: else -> skip
     fi;
     unlock(init_lock)
     };
     /* wait_regions */
     LIVE_ATOMIC { lock(region_lock); fwaiting++ };  /* seq_cst fetch_add */
     do
     :: atomic { regions >= ONE ->              /* seq_cst load; pthread_cond_timedwait */
          cwait[_pid] = 1; region_lock = 0 };
        if
        :: (!cwait[_pid])                       /* woken */
        :: atomic { cwait[_pid] && cw > 0 -> cwait[_pid] = 0; tmo = 1 }   /* timed out */
        fi;
        lock(region_lock);
        if
#if SEEDED_BUG == 4
        :: tmo && cw > 0 -> broadcast_admitted(1)   /* BUG: admits at every timeout */
#else
        :: tmo && cw > 0 && !admit_done -> broadcast_admitted(1); admit_done = 1  /* admit_gen + 1 */
        :: tmo && cw > 0 && admit_done -> broadcast_admitted(2)   /* refuse_gen + 1 */
#endif
        :: else -> skip
        fi;
        tmo = 0
     :: else -> break
     od;
     fwaiting--;
     unlock(region_lock)
  od;
  lock(region_lock);
  tearing = 1;                                  /* stop_threads, free_workers ... */
  up = 0;
  tearing = 0;
  admit_done = 0;
  broadcast_admitted(0);
  unlock(region_lock);
  unlock(init_lock);
done:
  skip;
#ifdef LIVE
progress:
  skip;
  goto again
#endif
}
