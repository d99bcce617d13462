/* Model (e''): thieves told "nothing to split" stop asking and sleep, a
 * range that grows back without a publication wakes them, and their sleep
 * is bounded, so that a splitter that changes its mind silently still gets
 * a thief (idle.c: adapt__idle_sleep's check with refusals, its timed
 * wait, adapt__idle_recheck, adapt__regrown, adapt__publish; frame.c:
 * refuse; thief.c: note_refusal; pool.c: worker_main).
 *
 * Worker 0 publishes one frame (has_work = a new generation, seq_cst
 * store; load sleepers, seq_cst; wake_all if > 0) whose splitter has
 * nothing to split (range 0). NGROW times its range grows back by one
 * piece (a preemption's reduction, a window that slides: owner-only
 * descriptor), then adapt__regrown: if it answered "nothing to split"
 * since its last call (refused_out), clear the flag, bump the generation
 * (seq_cst store of has_work), load sleepers (seq_cst) and wake all if
 * > 0. With -DSILENT the range grows back silently instead (a user's
 * splitter whose answer depends on its own state: no adapt__regrown). It
 * waits until a thief has taken the piece (a thief that sleeps through it
 * for ever is a deadlock), then unpublishes and shuts down.
 * Workers 1 and 2 run worker_main: a request to a victim whose has_work
 * is not the refused value gets the piece, or FAIL with the victim's
 * has_work (one step: the victim reads its own value and sets
 * refused_out); REFN such answers in a row with the same value make it the
 * refused one (note_refusal). Else adapt__idle_sleep: e = load epoch;
 * sleepers + 1; load has_work (seq_cst): work if non-zero and not the
 * refused value; load shutdown; futex_wait(epoch, e), timed if it skipped
 * the refused value; sleepers - 1. After a wake-up (or EAGAIN) the
 * refusals expire (a new idle round); after a timeout the refusal expires
 * but its answer count stays (adapt__idle_recheck: one more refusal of the
 * same value counts again). The timeout is spin's `timeout`: it fires when
 * nothing else can move, the latest a timer may; there it asserts that the
 * refusal still names has_work (a sleeper that times out on a stale one
 * missed a wake-up). The naps between failed requests are timed waits:
 * for safety, steps that change nothing.
 *
 * Checked: no deadlock (a piece no thief takes, or a worker asleep at
 * shutdown, is an invalid end state), no lost wake-up (the assertion).
 *
 * SEEDED_BUG 1 (with -DSILENT): the sleep on a refusal is not timed: the
 * thieves that stopped asking sleep through the silent regrowth.
 * SEEDED_BUG 2: adapt__regrown loads sleepers before it stores has_work (a
 * sleeper that checked the old value is missed). */

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
#if defined(SILENT)
     skip;                                     /* no adapt__regrown */
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
  bool work, timed;
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
#if SEEDED_BUG == 1
        timed = 0;                             /* BUG: an untimed sleep */
#else
        timed = (hw != 0);                     /* a refused frame in sight */
#endif
        if
        :: !work && !shutdown ->               /* then futex_wait(epoch, e) */
           atomic {
             if
             :: epoch == e -> asleep[_pid] = 1
             :: else -> skip                   /* EAGAIN */
             fi
           };
           if
           :: (!asleep[_pid]) ->               /* woken */
              refused = 0; soft_n = 0          /* a new idle round */
           :: atomic { timed && asleep[_pid] && timeout ->
                       assert(has_work == refused);  /* no wake-up missed */
                       asleep[_pid] = 0 };
              refused = 0                      /* adapt__idle_recheck */
           fi
        :: else -> skip
        fi;
        d_step { e = 0; hw = 0; work = 0; timed = 0 };  /* (dead locals: fewer states) */
        sleepers--                             /* seq_cst fetch_sub */
     fi
  od
}
