/* Model (e'): idle sleep under a worker limit: workers left out of a full
 * team sleep, and nobody sleeps through work that may admit it (idle.c:
 * adapt__idle_sleep's check with refusals, adapt__wake_for; frame.c:
 * refuses_all; thief.c: the refusal noted per idle round).
 *
 * Worker 0 makes NPUB frames available one at a time: even ones belong to
 * a full team whose only other member is worker 1, odd ones have no limit.
 * Publication: has_work = a new generation (seq_cst store); load sleepers
 * (seq_cst); if > 0: no team: adapt__wake_all; a team: load sleeping[1]
 * (seq_cst; worker 2 is neither a member nor fits) and wake all if set.
 * It waits until a worker allowed to has taken the frame, unpublishes it
 * (relaxed store of has_work = 0), and at the end shuts down (store
 * shutdown, wake_all).
 * Workers 1 (member) and 2 (outside) run worker_main: take the frame if it
 * admits them (the request protocol is models (a), (b)); worker 2 asking
 * for a team frame gets FAIL with refused = has_work (the victim's answer,
 * one step: the victim reads its own value); else adapt__idle_sleep:
 * e = load epoch; sleepers + 1; sleeping = 1; load has_work: work if
 * non-zero and not the refused value; load shutdown; futex_wait(epoch, e);
 * sleeping = 0; sleepers - 1; after a futex wait the refusal expires (a
 * new idle round).
 *
 * Checked: no deadlock (a frame nobody allowed takes, or a worker asleep at
 * shutdown, is an invalid end state).
 *
 * SEEDED_BUG 1: the waker of team work never wakes (as if no member could
 * be asleep): worker 1, asleep while the team had no frame, sleeps through
 * the next one. SEEDED_BUG 2: the sleeper sets sleeping after its check of
 * has_work: the waker misses it. */

#ifndef NPUB
#define NPUB 3
#endif

byte has_work;           /* worker 0's has_work: 0 none, else the generation */
bool closed;             /* the published frame belongs to the full team */
byte gen;
byte epoch;              /* futex word (wraps: only != matters) */
byte sleepers;
bool sleeping[3];
bool shutdown;
bool asleep[3];          /* inside futex_wait */
byte avail;              /* ghost: frames that can be taken */
byte taken;

inline wake_all() {
  epoch++;                                     /* fetch_add (release) */
  d_step { asleep[1] = 0; asleep[2] = 0 }      /* futex_wake(INT_MAX) */
}

active proctype worker0() {
  byte k, sl;
  do
  :: k < NPUB ->
     d_step { gen++; closed = (k % 2 == 0); has_work = gen; avail++ } /* adapt__publish */
     sl = sleepers;                            /* seq_cst load */
     if
     :: sl > 0 && !closed -> wake_all()
#if SEEDED_BUG == 1
     :: sl > 0 && closed -> skip               /* BUG: team work wakes nobody */
#else
     :: sl > 0 && closed ->                    /* adapt__wake_for */
        if :: sleeping[1] -> wake_all() :: else -> skip fi   /* seq_cst load */
#endif
     :: else -> skip
     fi;
     (taken == k + 1);                         /* someone allowed took it */
     has_work = 0;                             /* adapt__unpublish (relaxed) */
     k++
  :: else -> break
  od;
  shutdown = 1;                                /* adapt_finalize: release store */
  wake_all()
}

active [2] proctype worker() {
  byte e, refused, hw;
  bool work;
  do
  :: shutdown -> break                         /* acquire load */
  :: else ->
     if
     :: atomic { avail > 0 && (!closed || _pid == 1) -> avail--; taken++ }  /* a piece */
     :: atomic { avail > 0 && closed && _pid == 2 -> refused = has_work } /* FAIL, refused */
     :: else ->                                /* adapt__idle_sleep */
        e = epoch;                             /* acquire load */
        sleepers++;                            /* seq_cst fetch_add */
#if SEEDED_BUG == 2
        hw = has_work;                         /* BUG: checks before the flag */
        sleeping[_pid] = 1;
#else
        sleeping[_pid] = 1;                    /* seq_cst store */
        hw = has_work;                         /* any_work_for: seq_cst load */
#endif
        work = (hw != 0 && hw != refused);
        if
        :: !work && !shutdown ->               /* then futex_wait(epoch, e) */
           atomic {
             if
             :: epoch == e -> asleep[_pid] = 1
             :: else -> skip                   /* EAGAIN */
             fi
           };
           (!asleep[_pid]);                    /* woken */
           refused = 0                         /* a new idle round */
        :: else -> skip
        fi;
        sleeping[_pid] = 0;                    /* relaxed store */
        sleepers--                             /* seq_cst fetch_sub */
     fi
  od
}
