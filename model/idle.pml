/* Model (e): idle sleep and wake-up, no lost wake-up (idle.c, with
 * adapt__publish, adapt__push_entry; pool.c: worker_main; runtime.c: finalize).
 *
 * Worker 0 makes work available NPUB times, alternately by publishing a
 * frame (store has_work, seq_cst; load sleepers, seq_cst; if > 0
 * adapt__wake_all: epoch + 1, futex_wake) and by pushing a deque entry
 * (store tail, release; a compiler barrier; a relaxed load of sleepers:
 * the sleeper's membarrier after its increment orders the pair as the
 * model's interleavings do, idle.c's "asymmetric Dekker pair"; past
 * ADAPT_MEMBARRIER_MAX_WORKERS or without membarrier the store of tail is
 * seq_cst, as modelled). To turn a lost wake-up
 * into a deadlock, it then waits until an idle worker has taken the work
 * (a frame that stays published must be seen by every sleeper: that is
 * what the Dekker pair guarantees), and withdraws it (unpublish: relaxed
 * store of has_work; or the entry is gone). Then adapt_finalize: store
 * shutdown, adapt__wake_all.
 * Workers 1..NTH run worker_main: while !shutdown: try to steal (takes the
 * work if there is some: the steal protocols are models (a), (c), (d));
 * else (the spin phase is a delay only, elided) adapt__idle_sleep:
 * e = load epoch; sleepers + 1 (seq_cst), membarrier (skipped when no
 * region runs: the next region's start synchronizes with the sleeper);
 * adapt__any_work (seq_cst loads
 * of has_work and of the deque's tail and head, one by one); load
 * shutdown; futex_wait(epoch, e): returns at once if epoch != e, else
 * sleeps until a futex_wake; sleepers - 1.
 *
 * Checked: no deadlock (no worker sleeps forever while work waits or at
 * shutdown: a lost wake-up is an invalid end state); in the non-progress
 * run (-DNP, weak fairness) no cycle where nobody makes progress (a
 * worker taking work, worker 0 publishing or shutting down).
 *
 * SEEDED_BUG 1: adapt__idle_sleep looks for work before it increments
 * sleepers (the sleeper's half of the Dekker pair in the wrong order): the
 * publisher sees no sleeper, the sleeper saw no work, and sleeps forever.
 * SEEDED_BUG 2 (for the non-progress run): the steal only looks at
 * deques, not at published frames: the workers see has_work, so they do
 * not sleep, but never take the frame: they spin forever (a livelock). */

#ifndef NTH
#define NTH 2
#endif
#if NTH > 3
#error "wake_all clears up to 3 sleepers"
#endif
#ifndef NPUB
#define NPUB 2
#endif

bool has_work;           /* worker 0's has_work (depth > 0) */
byte tail, head;         /* worker 0's deque */
byte epoch;              /* futex word (wraps: only != matters) */
byte sleepers;
bool shutdown;
bool asleep[NTH + 1];    /* inside futex_wait */
byte avail;              /* ghost: work items that can be taken */
byte taken;

inline wake_all() {
  epoch++;                                     /* fetch_add (release) */
  d_step {                                     /* futex_wake(INT_MAX) */
    asleep[1] = 0; asleep[(NTH > 1 -> 2 : 1)] = 0; asleep[(NTH > 2 -> 3 : 1)] = 0
  }
}

active proctype worker0() {
  byte k, sl;
  do
  :: k < NPUB ->
     if
     :: k % 2 == 0 ->                          /* adapt__publish */
        d_step { has_work = 1; avail++ }       /* seq_cst store */
     :: else ->                                /* adapt__push_entry */
        d_step { tail++; avail++ }             /* release store of tail */
     fi;
progress_pub:
     sl = sleepers;                            /* seq_cst (frame) or relaxed (entry) load */
     if :: sl > 0 -> wake_all() :: else -> skip fi;
     (taken == k + 1);                         /* someone took it */
     if
     :: k % 2 == 0 -> has_work = 0             /* adapt__unpublish (relaxed) */
     :: else -> skip
     fi;
     k++
  :: else -> break
  od;
  shutdown = 1;                                /* adapt_finalize: release store */
progress_fin:
  wake_all()
}

active [NTH] proctype worker() {
  byte e;
  bool work;
  do
  :: shutdown -> break                         /* acquire load */
  :: else ->
     if
#if SEEDED_BUG == 2
     :: atomic { avail > 0 && tail > head -> avail--; taken++; /* BUG: deque only */
#else
     :: atomic { avail > 0 -> avail--; taken++; /* steal succeeded */
#endif
                 if :: tail > head -> head++ :: else -> skip fi }
progress_take:
        skip
     :: else ->                                /* adapt__idle_sleep */
        e = epoch;                             /* acquire load */
#if SEEDED_BUG == 1
        work = has_work;                       /* BUG: looks before announcing */
        if :: !work -> work = (tail > head) :: else -> skip fi;
        sleepers++;
#else
        sleepers++;                            /* seq_cst fetch_add, membarrier */
        work = has_work;                       /* adapt__any_work: seq_cst loads */
        if :: !work -> work = (tail > head) :: else -> skip fi;
#endif
        if
        :: !work && !shutdown ->               /* then futex_wait(epoch, e) */
           atomic {
             if
             :: epoch == e -> asleep[_pid] = 1
             :: else -> skip                   /* EAGAIN */
             fi
           };
           (!asleep[_pid])                     /* woken */
        :: else -> skip
        fi;
        sleepers--                             /* seq_cst fetch_sub */
     fi
  od
}
