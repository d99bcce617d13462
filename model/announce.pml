/* Model (l): the owner's unfenced pop against announced thieves
 * (adapt__deque_take in <adapt/tasks.h>; thieves_enter, thieves_leave and
 * adapt__deque_steal in deque.c, "Announced thieves"), on a machine with
 * store buffers (x86-TSO): the one relaxation that matters here, since
 * every other access of both sides is a load, a locked operation or a
 * store followed by a fence. One owner, NTH thieves.
 *
 * Owner (worker 0): pushes N entries (release stores of tail: buffered),
 * then pops them back one by one with adapt__deque_take:
 *   before = word; tail = t (buffered); h = head; if the word changed or
 *   before counts a thief: tail = t (seq_cst: buffered, then drained),
 *   h = head; won = h <= t, else tail = t + 1;
 * when the inline pop lost, the library's pop (the same take, then the
 * conflict path: tail = t + 1; lock; tail = t, seq_cst; head > t ? give
 * up : take; unlock).
 * Thieves: NATT attempts each: the relaxed pre-check (head < tail);
 * announce (one atomic add to the count and the announcements);
 * membarrier (returns once the owner's buffer has drained at some moment:
 * its full barrier, between two of its instructions); lock; head + 1
 * (seq_cst); load tail; back off or take slot head; unlock; withdraw.
 * The word is the pair (announcements, count), read and written whole.
 * The store buffer is a FIFO of the owner's stores of tail (the owner
 * reads its newest pending value; a flusher process drains it in order).
 *
 * Checked: every entry is taken exactly once, by the owner's pop or one
 * thief, and all of them are taken by the end (no invalid end state).
 *
 * SEEDED_BUG 1: a thief skips the membarrier: its steal and an unfenced
 * pop whose store of tail is still buffered both take the last entry.
 * SEEDED_BUG 2: the pop keeps its unfenced result when the second load
 * shows no announced thief (the count alone, not the whole word): a thief
 * that announced, stole and withdrew between the two loads took the entry
 * whose stale head the pop read.
 * SEEDED_BUG 3: the pop skips the first load (decides on the second one
 * alone): the same, for a thief announced before the pop began. */

#ifndef NTH
#define NTH 2
#endif
#ifndef NATT
#define NATT 2
#endif
#ifndef N
#define N 2
#endif

byte head, tail;          /* memory: adapt__deque.head, .tail */
bool lock;                /* adapt__deque.lock */
byte announced, count;    /* the thieves' word */
chan sb = [4] of { byte }; /* the owner's store buffer (stores of tail) */
byte taken[N];            /* ghost: times each entry (index) was taken */
byte thieves_done;

inline dq_lock() { atomic { lock == 0 -> lock = 1 } }
inline dq_unlock() { lock = 0 }

/* the owner's buffered store of tail, and its own view of tail */
inline store_tail(v) { sb!v }
inline drain() { empty(sb) }
inline take(t) { d_step { taken[t]++; assert(taken[t] == 1) } }

active proctype flusher() {
  byte v;
end: do
  :: atomic { sb?v -> tail = v }
  od
}

/* adapt__deque_take: unfenced while no thief is announced, else the THE
 * pair; a lost entry is put back (tail = t + 1) */
inline attempt(t, won) {
#if SEEDED_BUG == 3
  b_ann = 255; b_cnt = 0;                      /* BUG: no first load */
#else
  d_step { b_ann = announced; b_cnt = count };  /* acquire */
#endif
  store_tail(t);                               /* relaxed */
  h = head;                                    /* acquire */
  d_step { w_ann = announced; w_cnt = count };  /* relaxed */
#if SEEDED_BUG == 2 || SEEDED_BUG == 3
  if :: w_cnt != 0 ->                          /* BUG: the count alone */
#else
  if :: w_ann != b_ann || w_cnt != b_cnt || b_cnt != 0 ->
#endif
       store_tail(t); drain();                 /* seq_cst store */
       h = head                                /* seq_cst load */
     :: else -> skip
  fi;
  won = (h <= t);
  if :: !won -> store_tail(t + 1) :: else -> skip fi
}

active proctype owner() {
  byte t, h, b_ann, b_cnt, w_ann, w_cnt, i;
  bool won;
  /* pushes: release stores of tail, no fence */
  for (i : 1 .. N) { store_tail(i) }
  i = N;
  do
  :: i == 0 -> break
  :: else ->
     t = i - 1;
     attempt(t, won);                         /* the inline adapt_join */
     if
     :: !won -> attempt(t, won)               /* the library's pop */
     :: else -> skip
     fi;
     if
     :: won -> take(t)
     :: else ->                               /* adapt__deque_pop_conflict */
        store_tail(t + 1);
        dq_lock();
        store_tail(t); drain();
        if
        :: head > t -> store_tail(t + 1)      /* a thief took it */
        :: else -> take(t)
        fi;
        dq_unlock()
     fi;
     i = t
  od;
  drain();
  (thieves_done == NTH);
  d_step { for (i : 0 .. N - 1) { assert(taken[i] == 1) } }
}

active [NTH] proctype thief() {
  byte h, k;
  for (k : 1 .. NATT) {
    if
    :: head < tail ->                         /* relaxed pre-check */
       d_step { announced++; count++ };       /* seq_cst add */
#if SEEDED_BUG != 1
       drain();                               /* membarrier */
#endif
       dq_lock();
       h = head;
       head = h + 1;                          /* seq_cst store, then load */
       if
       :: head > tail -> head = h
       :: else -> take(h)
       fi;
       dq_unlock();
       count--                                /* release withdrawal */
    :: else -> skip
    fi
  }
  thieves_done++
}
