/* Model (e''): thieves told "nothing to split" stop asking and sleep, and
 * a range that grows back without a publication wakes them (idle.c:
 * adapt__idle_sleep's check with refusals, adapt__regrown, adapt__publish;
 * frame.c: refuse; thief.c: note_refusal; pool.c: worker_main).
 *
 * Worker 0 publishes one frame (has_work = a new generation, seq_cst
 * store; load sleepers, seq_cst; wake_all if > 0) whose splitter has
 * nothing to split (range 0). NGROW times its range grows back by one
 * piece (a preemption's reduction, a window that slides: owner-only
 * descriptor), then adapt__regrown: if it answered "nothing to split"
 * since its last call (refused_out), clear the flag, bump the generation
 * (seq_cst store of has_work), load sleepers (seq_cst) and wake all if
 * > 0. It waits until a thief has taken the piece (a thief that sleeps
 * through it is a deadlock), then unpublishes and shuts down.
 * Workers 1 and 2 run worker_main: a request to a victim whose has_work
 * is not the refused value gets the piece, or FAIL with the victim's
 * has_work (one step: the victim reads its own value and sets
 * refused_out); REFN such answers in a row with the same value make it the
 * refused one (note_refusal). Else adapt__idle_sleep: e = load epoch;
 * sleepers + 1; load has_work (seq_cst): work if non-zero and not the
 * refused value; load shutdown; futex_wait(epoch, e); sleepers - 1; after
 * a futex wait the refusals expire (a new idle round). The naps between
 * failed requests are timed waits: for safety, steps that change nothing.
 *
 * Checked: no deadlock (a piece no thief takes, or a worker asleep at
 * shutdown, is an invalid end state).
 *
 * SEEDED_BUG 1: the range grows back silently (no adapt__regrown): the
 * thieves that stopped asking sleep through it. SEEDED_BUG 2:
 * adapt__regrown loads sleepers before it stores has_work (a sleeper that
 * checked the old value is missed). */

#ifndef NGROW
#define NGROW 2
#endif
#ifndef REFN
#define REFN 2
#endif

byte has_work;           /* worker 0's has_work: 0 none, else the generation */
byte gen;
byte range;              /* pieces the splitter can give now */
bool refused_out;        /* worker 0 answered "nothing to split" since its last regrow */
byte epoch;              /* futex word (wraps: only != matters) */
byte sleepers;
bool shutdown;
bool asleep[3];          /* inside futex_wait */
byte taken;

inline wake_all() {
  epoch++;                                     /* fetch_add (release) */
  d_step { asleep[1] = 0; asleep[2] = 0 }      /* futex_wake(INT_MAX) */
}

active proctype worker0() {
  byte k, sl;
  d_step { gen++; has_work = gen };            /* adapt__publish */
  sl = sleepers;                               /* seq_cst load */
  if :: sl > 0 -> wake_all() :: else -> skip fi;
  do
  :: k < NGROW ->
     range++;                                  /* the range grows back */
#if SEEDED_BUG == 1
     skip;                                     /* BUG: no adapt__regrown */
#elif SEEDED_BUG == 2
     if                                        /* adapt__regrown */
     :: refused_out ->
        refused_out = 0;
        sl = sleepers;                         /* BUG: load before the store */
        d_step { gen++; has_work = gen };
        if :: sl > 0 -> wake_all() :: else -> skip fi
     :: else -> skip
     fi;
#else
     if                                        /* adapt__regrown */
     :: refused_out ->
        refused_out = 0;
        d_step { gen++; has_work = gen };      /* seq_cst store */
        sl = sleepers;                         /* seq_cst load */
        if :: sl > 0 -> wake_all() :: else -> skip fi;
        sl = 0
     :: else -> skip
     fi;
#endif
     (taken == k + 1);                         /* a thief took the piece */
     k++
  :: else -> break
  od;
  has_work = 0;                                /* adapt__unpublish (relaxed) */
  shutdown = 1;                                /* adapt_finalize: release store */
  wake_all()
}

active [2] proctype worker() {
  byte e, refused, soft_hw, soft_n, hw;
  bool work;
  do
  :: shutdown -> break                         /* acquire load */
  :: else ->
     if
     :: atomic { has_work != 0 && has_work != refused && range > 0 ->
                 range--; taken++; refused = 0; soft_n = 0 }  /* a piece: a new round */
     :: atomic { has_work != 0 && has_work != refused && range == 0 ->
                 refused_out = 1;              /* the victim's refuse() */
                 if                            /* note_refusal */
                 :: soft_n > 0 && soft_hw == has_work -> soft_n++
                 :: else -> soft_hw = has_work; soft_n = 1
                 fi;
                 if :: soft_n >= REFN -> refused = soft_hw :: else -> skip fi }
     :: else ->                                /* adapt__idle_sleep */
        e = epoch;                             /* acquire load */
        sleepers++;                            /* seq_cst fetch_add */
        hw = has_work;                         /* any_work_for: seq_cst load */
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
           refused = 0; soft_n = 0             /* a new idle round */
        :: else -> skip
        fi;
        d_step { e = 0; hw = 0; work = 0 };    /* (dead locals: fewer states) */
        sleepers--                             /* seq_cst fetch_sub */
     fi
  od
}
