/* Model (f): top-level regions against finalize (region.c: adapt__region_start,
 * adapt__region_leave; runtime.c: init, finalize, wait_regions).
 *
 * The word regions holds OPEN, POOL, CLOSING and the count of running
 * regions. NREG threads each run NR top-level regions: adapt__region_start loads
 * regions; if CLOSING is set (and it was not let in) it waits in
 * wait_closing (region_lock; while CLOSING and not let in: cond_wait on
 * admitted), then looks again; if OPEN is clear it calls adapt__ensure_wait (init lock; starts the runtime
 * if up == 0: up = 1, then OPEN, the release store, last), else one
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
 * timed cond_wait, and after a timeout with regions in wait_closing, let
 * those in and broadcast admitted; decrement; unlock), then it tries
 * again. Once closed: region_lock, the teardown (ghost flag), up = 0,
 * broadcast admitted, unlock both. A timeout is modelled only while
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
 *
 * SEEDED_BUG 1: the leave loads finalize_waiting before it subtracts (its
 * half of the Dekker pair in the wrong order): a finalize that begins to
 * wait in between is never woken.
 * SEEDED_BUG 2: finalize closes the runtime whenever OPEN is set, without
 * checking the count (a compare-and-swap on the bit alone): the teardown
 * runs under a region.
 * SEEDED_BUG 3: wait_closing does not look at CLOSING again under
 * region_lock before it waits: a teardown (and its broadcast) between the
 * region's look and its wait leaves it waiting forever. */

#ifndef NREG
#define NREG 2
#endif
#ifndef NR
#define NR 2
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
byte cw;                      /* closing_waiters */

inline lock(m) { atomic { m == 0 -> m = _pid + 1 } }
inline unlock(m) { assert(m == _pid + 1); m = 0 }
inline broadcast() {
  d_step { bi = 0; do :: bi <= NREG + NFIN -> cwait[bi] = 0; bi++ :: else -> break od; bi = 0 }
}
inline broadcast_admitted(letthemin) {
  d_step {
    bi = 0;
    do
    :: bi <= NREG + NFIN -> await[bi] = 0; if :: letthemin && inwait[bi] -> letin[bi] = 1 :: else -> skip fi; bi++
    :: else -> break
    od;
    bi = 0
  }
}

active [NREG] proctype region() {
  byte r, s, kind, bi;
  bool adm;
  for (r : 1 .. NR) {
    /* adapt__region_start */
    adm = 0;
    do
    :: atomic { (regions & CLOSING) != 0 && !adm } ->   /* wait_closing */
       lock(region_lock);
       cw++; inwait[_pid] = 1;
#if SEEDED_BUG == 3
       if
       :: letin[_pid] -> adm = 1
       :: else -> atomic { await[_pid] = 1; region_lock = 0 }; (!await[_pid]); lock(region_lock);
          adm = letin[_pid]
       fi;
#else
       do
       :: (regions & CLOSING) != 0 && letin[_pid] -> adm = 1; break
       :: (regions & CLOSING) != 0 && !letin[_pid] ->
          atomic { await[_pid] = 1; region_lock = 0 }; (!await[_pid]); lock(region_lock)
       :: (regions & CLOSING) == 0 -> break
       od;
#endif
       cw--; inwait[_pid] = 0; letin[_pid] = 0;
       unlock(region_lock)
    :: atomic { (regions & OPEN) == 0 && ((regions & CLOSING) == 0 || adm) } ->
       /* adapt__ensure_wait: init(NULL, 1) */
       lock(init_lock);
       if
       :: !up -> up = 1; regions = OPEN        /* init: OPEN last (release) */
       :: else -> skip                          /* check_running */
       fi;
       unlock(init_lock)
    :: atomic { (regions & OPEN) != 0 && ((regions & CLOSING) == 0 || adm) &&
                (regions & POOL) == 0 -> regions = regions + ONE + POOL; kind = POOL }; break
    :: atomic { (regions & OPEN) != 0 && ((regions & CLOSING) == 0 || adm) &&
                (regions & POOL) != 0 -> regions = regions + ONE; kind = 0 }; break
    od;
    /* the region */
    assert(up && !tearing);
    if :: kind == POOL -> pool_holders++ :: else -> skip fi;
    assert(pool_holders <= 1);
    assert(up && !tearing);
    if :: kind == POOL -> pool_holders-- :: else -> skip fi;
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
    fi
#endif
  }
}

active [NFIN] proctype finalize() {
  byte bi;
  bool tmo;
  do
  :: lock(init_lock);
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
     unlock(init_lock);
     /* wait_regions */
     lock(region_lock);
     fwaiting++;                                /* seq_cst fetch_add */
     do
     :: atomic { regions >= ONE ->              /* seq_cst load; pthread_cond_timedwait */
          cwait[_pid] = 1; region_lock = 0 };
        if
        :: (!cwait[_pid])                       /* woken */
        :: atomic { cwait[_pid] && cw > 0 -> cwait[_pid] = 0; tmo = 1 }   /* timed out */
        fi;
        lock(region_lock);
        if
        :: tmo && cw > 0 -> broadcast_admitted(1)   /* admit_gen + 1 */
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
  broadcast_admitted(0);
  unlock(region_lock);
  unlock(init_lock);
done:
  skip
}
