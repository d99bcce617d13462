/* Model (c): the THE deque with a child frame's entry, a splittable entry
 * and the transient head (deque.c, deque.h, scope.c, tasks.c). One owner,
 * NTH thieves.
 *
 * Owner (worker 0), as adapt_fork + adapt__for_loopframe + adapt_spawn
 * would run it: fork A (the frame holds A's task, its remote left as the
 * stack held it; the slot only a pointer to the frame); scope_open (floor 1); push_entry L (a splittable loop
 * entry, not counted); the loop; pop_locked(floor 1) (removes L if no
 * thief did: after it no split of L may run, the loop frame L points to is
 * gone); scope_push B; scope_push C (CAP = 3, one slot kept free, so C may
 * find the deque full and run at once); scope_wait: pop and run entries
 * above the floor, else compare local + remote with pushed + splits; join
 * A: pop it (floor 0) and run it, or, when a thief took it (decided under
 * the lock), rewrite the frame (the scope of one task) and wait for the
 * thief's remote; then the frame is gone.
 * Thieves: adapt__deque_steal, NATT attempts each: lock; head + 1; load
 *   tail; copy the slot (for A: read the task from the frame and zero its
 *   remote; or call split, whose answer KEEP/LAST/DROP/FAIL is
 *   left free here: model (d) refines it); count a piece in splits under the
 *   lock; unlock; run; remote + 1.
 * A push below the owner's cached limit (a head it read + CAP - 1) does
 * not read head (the inline adapt_spawn).
 * Every statement touching head, tail, lock, a slot or a counter is one
 * atomic access of the C code; owner-local steps are grouped.
 *
 * Checked: every entry is taken once (by the owner's pop or one thief);
 * a thief copies the slot of the index it committed (no overwrite by a
 * push: the free slot); a thief reads A's frame while it still holds the
 * task (the join rewrites it only after the lock showed the theft, and
 * returns only after the thief's remote); no split after the owner's pop_locked of L; the
 * scope's wait returns only when every entry and piece has run; no
 * deadlock (the owner's pop under its own lock, the lock itself); at the
 * end the deque is empty and head == tail.
 *
 * LIMIT: the cached limit at its boundary instead: the owner pushes six
 * plain entries A..F and waits; two thieves steal the first two and a
 * third attempt's transient head (a failing thief's head + 1) is what the
 * refresh at the third push may read. The limit must still leave a push
 * no slot whose entry is live (checked on every push: busy).
 *
 * SEEDED_BUG 1: the owner's pop loads head before its store of tail (the
 * Dekker pair broken): owner and a thief both take A.
 * SEEDED_BUG 2 (with LIMIT): the refreshed limit is head + CAP, one past
 * the bound: after a refresh during a thief's transient head the sixth
 * push overwrites a slot whose entry is live.
 * SEEDED_BUG 3: the join rewrites A's frame as soon as its lock-free look
 * sees head past the task, before the lock decides: a thief that then
 * takes A reads the rewritten frame.
 * SEEDED_BUG 4: the thief that takes A leaves its frame's remote as the
 * fork left it (the stack's bytes): the join's wait ends before the task
 * ran, or never. */

#ifndef NTH
#define NTH 2
#endif
#ifndef NATT
#define NATT 2
#endif
#define CAP 3
#define NONE 0
#define A 1
#define L 2
#define B 3
#define C 4
#ifdef LIMIT
#define D 5
#define E 6
#define F 7
#define NENT 7
#else
#define NENT 4
#endif
#define MAXPIECES 4

byte head, tail;           /* adapt__deque.head, .tail (indices only grow) */
byte limit = CAP - 1;      /* adapt__deque.limit: owner-only, pushes below it skip head */
bool lock;                 /* adapt__deque.lock */
byte slot[CAP];            /* entry in each slot */
byte slot_idx[CAP];        /* ghost: the index the slot was written for */
bool busy[CAP];            /* ghost: the slot holds an entry not yet taken */
byte pushed, nlocal;        /* scope: owner-only plain fields */
byte remote, splits;       /* scope: atomics */
byte thieves_done;

/* ghosts */
byte taken[NENT + 1];      /* times each entry left the deque */
byte ran[NENT + 1];        /* times each entry ran */
byte pieces_made, pieces_done;
bool lf_alive;             /* L's loop frame is on the owner's stack */
#define FR_GONE 0
#define FR_TASK 1
#define FR_SCOPE 2
byte frame = FR_GONE;      /* A's child frame: holds the task, rewritten, or gone */
byte child_remote;         /* A's frame's remote: 0 by the thief that takes A
                              (under the lock), + 1 once it ran it */
bool joining;              /* ghost: the owner's pop is A's join */

inline dq_lock() { atomic { lock == 0 -> lock = 1 } }
inline dq_unlock() { lock = 0 }

/* adapt__deque_push / the inline adapt_spawn; ok = 0 on ENOSPC: below the
 * cached limit no load of head; else adapt__deque_next_slot's check, which
 * refreshes the limit (head read + CAP - 1) */
inline push(ent, ok) {
  tl = tail;                                   /* relaxed */
  if
  :: tl < limit -> ok = 1
  :: else ->
     h = head;                                 /* acquire */
     if
     :: tl > h && tl - h >= CAP - 1 -> ok = 0
     :: else ->
#if SEEDED_BUG == 2
        limit = h + CAP;                       /* BUG: one past the bound */
#else
        limit = h + CAP - 1;
#endif
        ok = 1
     fi
  fi;
  if
  :: ok ->
     d_step {
       assert(!busy[tl % CAP]);                /* no live entry overwritten */
       slot[tl % CAP] = ent; slot_idx[tl % CAP] = tl; busy[tl % CAP] = 1
     };
     tail = tl + 1                             /* seq_cst */
  :: else -> skip
  fi
}

/* adapt__deque_pop (called with or without the lock held); hot: without
 * the relaxed pre-check of head (adapt__deque_pop_slot_hot: the join's pop,
 * which must let the lock decide a theft before it rewrites the frame) */
inline pop(floor, got, haslock, hot) {
  got = NONE;
  tl = tail;                                   /* relaxed */
  if
  :: tl <= floor -> skip
  :: else ->
     if
     :: !hot && tl <= head -> skip             /* relaxed pre-check: looks empty */
     :: else ->
        t = tl - 1;
#if SEEDED_BUG == 1
        h = head;                              /* BUG: load before the store */
        tail = t;
#else
        tail = t;                              /* seq_cst store */
        h = head;                              /* seq_cst load */
#endif
        if
        :: h > t ->                            /* conflict: decide under the lock */
           tail = t + 1;
#if SEEDED_BUG == 3
           if :: joining -> frame = FR_SCOPE :: else -> skip fi; /* BUG: before the lock */
#endif
           assert(!haslock);                   /* would deadlock on our own lock */
           dq_lock();
           tail = t;
           if
           :: head > t -> tail = t + 1; dq_unlock(); goto popdone
           :: else -> dq_unlock()
           fi
        :: else -> skip
        fi;
        d_step {
          assert(slot_idx[t % CAP] == t);
          got = slot[t % CAP];
          busy[t % CAP] = 0;
          taken[got]++;
          assert(taken[got] == 1)
        }
     fi
  fi;
popdone: skip
}

inline run_local(ent) {
  d_step { ran[ent]++; assert(ran[ent] == 1); nlocal++ }
}

/* push ent counted in the scope (adapt_spawn), or run it at once (full) */
inline spawn(ent) {
  pushed++; push(ent, ok); if :: !ok -> run_local(ent) :: else -> skip fi
}

/* scope_wait(floor) */
inline scope_wait(floor) {
  do
  :: pop(floor, got, 0, 0);
     if
     :: got != NONE -> assert(got != L); run_local(got)
     :: else ->
        if
        :: nlocal + remote == pushed + splits -> break
        :: else ->
           /* spins (steals elsewhere) until something changes */
           (nlocal + remote == pushed + splits || tail > head)
        fi
     fi
  od
}

#ifdef LIMIT
active proctype owner() {
  byte tl, h, t, got, ok;
  spawn(A); spawn(B); spawn(C); spawn(D); spawn(E); spawn(F);
  scope_wait(0);
  assert(ran[A] == 1 && ran[B] == 1 && ran[C] == 1);
  assert(ran[D] == 1 && ran[E] == 1 && ran[F] == 1);
  (thieves_done == NTH);
  assert(head == tail && lock == 0)
}
#else
active proctype owner() {
  byte tl, h, t, got, ok;
  /* adapt_fork A: the frame, then the slot's pointer to it (index 0); the
   * deque is empty: the push succeeds */
  frame = FR_TASK;
  child_remote = 1;                            /* not written by the fork: what the
                                                  stack held (the worst: "done") */
  push(A, ok);
  assert(ok);
  /* scope_open: floor 1 */
  lf_alive = 1;
  push(L, ok);                                 /* push_entry: not counted */
  /* ... the loop's own chunks ... then pop_locked(floor 1) */
  dq_lock();
  pop(1, got, 1, 0);
  assert(got == NONE || got == L);
  dq_unlock();
  lf_alive = 0;                                /* lf_run_range returns */
  spawn(B);
  spawn(C);
  scope_wait(1);
  /* the wait returned: everything counted in the scope has run */
  assert(ran[B] == 1 && ran[C] == 1);
  assert(pieces_done == pieces_made);
  /* adapt_join A: the pop of index 0 (the lock decides a conflict) */
  joining = 1;
  pop(0, got, 0, 1);
  joining = 0;
  if
  :: got == A -> d_step { ran[A]++; assert(ran[A] == 1) }
  :: else ->
     assert(got == NONE);
     frame = FR_SCOPE;                          /* the frame becomes a scope of one */
     child_remote == 1                          /* the wait: the thief's remote (acquire) */
  fi;
  assert(ran[A] == 1);
  frame = FR_GONE;                              /* adapt_join returns: the frame is gone */
  (thieves_done == NTH);
  assert(head == tail && lock == 0)
}
#endif

active [NTH] proctype thief() {
  byte att, h, ent, piece;
  do
  :: att < NATT ->
     att++;
     if
     :: tail > head ->                          /* relaxed pre-check */
        dq_lock();
        h = head;                               /* relaxed */
        head = h + 1;                           /* seq_cst store */
        if
        :: h + 1 > tail ->                      /* seq_cst load */
           head = h;                            /* transient head restored */
           dq_unlock()
        :: else ->
           d_step {
             assert(slot_idx[h % CAP] == h);    /* the slot of our index */
             ent = slot[h % CAP]
           }
           piece = 0;
           if
           :: ent == L ->
              assert(lf_alive);                 /* the frame outlives every split */
              if
              :: pieces_made < MAXPIECES -> head = h; piece = 1     /* KEEP */
              :: pieces_made < MAXPIECES -> taken[L]++; piece = 1   /* LAST */
                 busy[h % CAP] = 0; assert(taken[L] == 1)
              :: taken[L]++; busy[h % CAP] = 0; assert(taken[L] == 1) /* DROP */
              :: head = h                                           /* FAIL */
              fi;
              if
              :: piece -> d_step { pieces_made++; splits++ }        /* under the lock */
              :: else -> skip
              fi;
              ent = NONE
           :: else ->
#ifndef LIMIT
              /* A's slot points to its frame: read the task there, and
               * write its w, remote (0) and splits, which the fork left */
              if :: ent == A -> assert(frame == FR_TASK);
#if SEEDED_BUG != 4
                 child_remote = 0
#else
                 skip                           /* BUG: the stack's remote kept */
#endif
                 :: else -> skip fi;
#endif
              d_step { taken[ent]++; busy[h % CAP] = 0; assert(taken[ent] == 1) }
           fi;
           dq_unlock();
           if
           :: piece -> pieces_done++; remote++  /* run the piece; remote + 1 (release) */
           :: ent != NONE ->
              d_step { ran[ent]++; assert(ran[ent] == 1) };
#ifndef LIMIT
              if :: ent == A -> child_remote++ :: else -> remote++ fi  /* release */
#else
              remote++
#endif
           :: else -> skip
           fi
        fi
     :: else -> skip
     fi
  :: else -> break
  od;
  thieves_done++
}
