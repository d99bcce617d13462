/* Model (f): top-level regions against finalize (region.c: region_start,
 * adapt__region_leave; runtime.c: init, finalize, wait_regions).
 *
 * The word regions holds OPEN, POOL and the count of running regions. NREG
 * threads each run NR top-level regions: region_start loads regions; if
 * OPEN is clear it calls adapt__ensure_wait (init lock; starts the runtime
 * if up == 0: up = 1, then OPEN, the release store, last), else one
 * compare-and-swap adds one to the count and sets POOL if it was clear (a
 * pool region) or only adds one (a solo region). Inside, the region uses
 * the runtime (asserted: up and no teardown under way; at most one pool
 * region). adapt__region_leave subtracts (seq_cst) one and POOL if it held
 * it, then, if no region is left, loads finalize_waiting (seq_cst) and if
 * it is > 0 broadcasts regions_done under region_lock.
 * NFIN threads call finalize once each: init lock; return if up == 0; a
 * compare-and-swap from exactly OPEN to 0 closes the runtime, else the
 * init lock is released and wait_regions runs (region_lock; increment
 * finalize_waiting, seq_cst; while the count > 0: cond_wait; decrement;
 * unlock), then it tries again. Once closed: region_lock, the teardown
 * (ghost flag), up = 0, unlock both.
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
 * runs under a region. */

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
#define ONE 4

byte regions = OPEN;     /* the runtime starts up */
bool up = 1;
bool tearing;            /* ghost: finalize's teardown under way */
byte pool_holders;       /* ghost */
byte init_lock;          /* 0 free, else owner's _pid + 1 */
byte region_lock;
byte fwaiting;           /* finalize_waiting */
bool cwait[NREG + NFIN + 1]; /* in pthread_cond_wait on regions_done */

inline lock(m) { atomic { m == 0 -> m = _pid + 1 } }
inline unlock(m) { assert(m == _pid + 1); m = 0 }
inline broadcast() {
  d_step { bi = 0; do :: bi <= NREG + NFIN -> cwait[bi] = 0; bi++ :: else -> break od; bi = 0 }
}

active [NREG] proctype region() {
  byte r, s, kind, bi;
  for (r : 1 .. NR) {
    /* region_start */
    do
    :: atomic { (regions & OPEN) == 0 } ->      /* adapt__ensure_wait: init(NULL, 1) */
       lock(init_lock);
       if
       :: !up -> up = 1; regions = OPEN        /* init: OPEN last (release) */
       :: else -> skip                          /* check_running */
       fi;
       unlock(init_lock)
    :: atomic { (regions & OPEN) != 0 && (regions & POOL) == 0 ->
         regions = regions + ONE + POOL; kind = POOL }; break
    :: atomic { (regions & OPEN) != 0 && (regions & POOL) != 0 ->
         regions = regions + ONE; kind = 0 }; break
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
  do
  :: lock(init_lock);
     if
     :: !up -> unlock(init_lock); goto done
     :: else -> skip
     fi;
#if SEEDED_BUG == 2
     if
     :: atomic { (regions & OPEN) != 0 -> regions = regions - OPEN }; break
#else
     if
     :: atomic { regions == OPEN -> regions = 0 }; break      /* compare-and-swap */
#endif
     :: else -> skip
     fi;
     unlock(init_lock);
     /* wait_regions */
     lock(region_lock);
     fwaiting++;                                /* seq_cst fetch_add */
     do
     :: atomic { regions >= ONE ->              /* seq_cst load; pthread_cond_wait */
          cwait[_pid] = 1; region_lock = 0 };
        (!cwait[_pid]);
        lock(region_lock)
     :: else -> break
     od;
     fwaiting--;
     unlock(region_lock)
  od;
  lock(region_lock);
  tearing = 1;                                  /* stop_threads, free_workers ... */
  up = 0;
  tearing = 0;
  unlock(region_lock);
  unlock(init_lock);
done:
  skip
}
