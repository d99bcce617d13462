/* Internals of adapt::sort and adapt::stable_sort (<adapt/stl.hpp>) on
 * spawn/sync tasks (<adapt/tasks.h>). Not part of the API.
 *
 * sort: a parallel quicksort (quick_sorter). A range of
 * ADAPT_STL_SORT_LEAF_MIN elements or more is partitioned in place around
 * a pseudo-median of nine (std's unguarded Hoare partition: swaps only);
 * the right part is spawned, the left part recursed into on this thread, so
 * idle workers steal the largest pending parts. Shorter ranges, and ranges
 * below a recursion depth of 2 log2(n) (bad pivots), are sorted by
 * std::sort. A range larger than one worker's share of the call (with 2
 * workers: the first one) is partitioned by every worker (par_partition:
 * blocks partitioned as tasks, then the misplaced elements swapped in
 * parallel). The total work is std::sort's (the same partitions, no
 * buffer, no merge pass). Elements are swapped, never copied. On an
 * exception, partitions leave a permutation, but the leaves' std::sort
 * (its insertion sort holds one element aside) may not: valid values
 * only, as std::sort.
 *
 * stable_sort: a parallel merge sort (merge_sorter). The range [0, n) is
 * halved down to 2^d leaves (d odd, leaves of at least
 * ADAPT_STL_SORT_LEAF_MIN elements, at most ADAPT_STL_SORT_LEAVES_PER_WORKER
 * per worker); halves run as spawned tasks, so idle workers steal subtrees.
 * A leaf sorts its part of the input with std::stable_sort and
 * move-constructs it into the same part of a buffer of n elements (raw
 * storage: the leaves construct every buffer element exactly once). Levels
 * then merge alternately buffer -> input and input -> buffer (d odd: the
 * top merge writes the input); a merge of ADAPT_STL_MERGE_MIN elements or
 * more splits at the middle of its longer run and the binary-search point
 * of the other (bound<>: ties keep the left run first, so stable_sort is
 * stable) and runs both halves as tasks. Elements are only moved, never
 * copied; the comparator sees them as lvalues (move_merge, bound<>). When
 * the buffer cannot be allocated, the leaves sort in place as before and
 * each level merges in place with std::inplace_merge (std::stable_sort's
 * own fallback: a smaller buffer of its own, or none).
 *
 * Both keep the first exception (comparator, move or swap); the other tasks
 * stop at their next partition, block, leaf or merge; the merge sort's
 * buffer is destroyed, its input holds valid values (std's basic
 * guarantee). They run on spawn/sync tasks, which adapt_cancel() does not
 * stop: a comparator calling it gets -EPERM, or cancels the parallel call
 * that encloses the sort (with or without workers(k)); throwing stops a
 * sort, and so does the policy's cancel_token (polled at the same points
 * as the first exception: the partitions, leaf sorts and merges already
 * running finish). */
#ifndef ADAPT_STL_SORT_HPP
#define ADAPT_STL_SORT_HPP

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include <adapt/tasks.h>
#include <adapt/stl/detail.hpp>

namespace adapt {
namespace detail {

/* Run fn(arg) as a spawned task beside `inline_part` on this thread;
 * without a scope (runtime error) both run here. */
template <class F>
void fork2(void (*fn)(void *), void *arg, F &&inline_part) noexcept {
  adapt_scope sc;
  int rc = adapt_scope_begin(&sc);
  if (rc != 0 || adapt_spawn(&sc, fn, arg) != 0) fn(arg);
  inline_part();
  if (rc == 0) (void)adapt_sync(&sc);
}

/* Run f(k) for every k in [k0, k1) (k1 > k0), halves as spawned tasks so
 * that idle workers steal the larger pending parts. f must not throw. */
template <class F>
void for_range(std::size_t k0, std::size_t k1, F &f) noexcept;
template <class F>
struct range_job {
  F *f;
  std::size_t k0, k1;
  static void run(void *p) noexcept {
    auto *j = static_cast<range_job *>(p);
    for_range(j->k0, j->k1, *j->f);
  }
};
template <class F>
void for_range(std::size_t k0, std::size_t k1, F &f) noexcept {
  if (k1 - k0 == 1) return f(k0);
  std::size_t mid = k0 + (k1 - k0) / 2;
  range_job<F> left{&f, k0, mid};
  fork2(&range_job<F>::run, &left, [&] { for_range(mid, k1, f); });
}

/* The parallel quicksort of sort (see the top of this file). */
template <class It, class Cmp>
struct quick_sorter {
  using diff_t = typename std::iterator_traits<It>::difference_type;
  Cmp &cmp;
  std::size_t n;       /* elements of the whole call */
  std::size_t workers; /* adapt_num_workers() */
  failure fail;

  static It at(It lo, std::size_t i) { return lo + static_cast<diff_t>(i); }

  /* Index of the median of *(lo + i), *(lo + j), *(lo + k). */
  std::size_t median3(It lo, std::size_t i, std::size_t j, std::size_t k) {
    if (cmp(*at(lo, i), *at(lo, j)))
      return cmp(*at(lo, j), *at(lo, k)) ? j : cmp(*at(lo, i), *at(lo, k)) ? k : i;
    return cmp(*at(lo, i), *at(lo, k)) ? i : cmp(*at(lo, j), *at(lo, k)) ? k : j;
  }

  /* Swap the pseudo-median of nine samples of [lo, hi) (at least 16
   * elements: the samples are distinct; three medians of three spread over
   * the range) to *lo, the pivot. The other eight samples stay in
   * [lo + 1, hi): at least one is not less and one not greater than it. */
  void pivot_to_front(It lo, It hi) {
    std::size_t m = static_cast<std::size_t>(hi - lo), s = m / 8;
    std::size_t p = median3(lo, median3(lo, 0, s, 2 * s), median3(lo, 3 * s, 4 * s, 5 * s),
                            median3(lo, 6 * s, 7 * s, m - 1));
    if (p != 0) std::iter_swap(lo, at(lo, p));
  }

  /* std's unguarded Hoare partition of [first, last) around *pv (outside
   * it): the scans stop at elements equal to the pivot too, so that equal
   * keys split evenly; pivot_to_front's samples stop them at the ends.
   * Returns cut: [first, cut) not greater than *pv, [cut, last) not less,
   * the second part non-empty. */
  It unguarded_partition(It first, It last, It pv) {
    for (;;) {
      while (cmp(*first, *pv)) ++first;
      --last;
      while (cmp(*pv, *last)) --last;
      if (!(first < last)) return first;
      std::iter_swap(first, last);
      ++first;
    }
  }

  /* The same with bounds checks, for a block [first, last) that may hold
   * no sample: [first, cut) not greater than *pv, [cut, last) not less;
   * the second part holds every element not less than *pv if there is one
   * (an element greater than *pv never goes left). */
  It guarded_partition(It first, It last, It pv) {
    for (;;) {
      while (first != last && cmp(*first, *pv)) ++first;
      if (first == last) return first;
      --last;
      while (first != last && cmp(*pv, *last)) --last;
      if (first == last) return first;
      std::iter_swap(first, last);
      ++first;
    }
  }

  /* A part [pos, pos + len) of the range, relative to lo + 1. */
  struct span {
    std::size_t pos, len;
  };

  /* Partition [lo + 1, hi) around *lo on every worker: blocks of it are
   * partitioned as tasks (guarded_partition), then the elements on the
   * wrong side of the boundary (the not-less part of a block before it,
   * the not-greater part of a block after it) are swapped pairwise, the
   * k-th of one side with the k-th of the other, in pieces run as tasks.
   * Returns cut as unguarded_partition does (hi when a task failed). */
  It par_partition(It lo, It hi) {
    It first = lo + 1;
    std::size_t r = static_cast<std::size_t>(hi - first);
    std::size_t blocks = std::min<std::size_t>(ADAPT_STL_SORT_LEAVES_PER_WORKER * workers,
                                               r / ADAPT_STL_SORT_LEAF_MIN);
    std::vector<std::size_t> split(blocks);
    auto bound = [&](std::size_t i) { return r / blocks * i + std::min(i, r % blocks); };
    auto part = [&](std::size_t i) noexcept {
      if (fail.stopped()) return;
      try {
        split[i] = static_cast<std::size_t>(
            guarded_partition(at(first, bound(i)), at(first, bound(i + 1)), lo) - first);
      } catch (...) {
        fail.capture(false);
      }
    };
    for_range(0, blocks, part);
    if (fail.stopped()) return hi;
    std::size_t left = 0; /* elements not greater than the pivot */
    for (std::size_t i = 0; i < blocks; i++) left += split[i] - bound(i);
    /* Misplaced: wrong_left in [0, left), wrong_right in [left, r). */
    std::vector<span> wrong_left, wrong_right;
    for (std::size_t i = 0; i < blocks; i++) {
      std::size_t b = bound(i), e = bound(i + 1), s = split[i];
      if (s < std::min(e, left)) wrong_left.push_back({s, std::min(e, left) - s});
      if (s > std::max(b, left)) wrong_right.push_back({std::max(b, left), s - std::max(b, left)});
    }
    std::size_t total = 0;
    for (const span &w : wrong_left) total += w.len;
    if (total == 0) return at(first, left);
    std::size_t piece = std::max<std::size_t>(
        ADAPT_STL_SORT_LEAF_MIN, total / (ADAPT_STL_SORT_LEAVES_PER_WORKER * workers) + 1);
    /* Piece p: the misplaced pairs [p * piece, (p + 1) * piece) (pair k:
     * the k-th element of wrong_left and the k-th of wrong_right). */
    auto swap_piece = [&](std::size_t p) noexcept {
      if (fail.stopped()) return;
      std::size_t k = p * piece, k1 = std::min(total, k + piece);
      std::size_t il = 0, ir = 0, ol = k, orr = k; /* span index, offset in it */
      while (ol >= wrong_left[il].len) ol -= wrong_left[il++].len;
      while (orr >= wrong_right[ir].len) orr -= wrong_right[ir++].len;
      try {
        while (k < k1) {
          /* nested: std::min of a list has no definition under _GLIBCXX_PARALLEL */
          std::size_t c =
              std::min(k1 - k, std::min(wrong_left[il].len - ol, wrong_right[ir].len - orr));
          std::swap_ranges(at(first, wrong_left[il].pos + ol),
                           at(first, wrong_left[il].pos + ol + c),
                           at(first, wrong_right[ir].pos + orr));
          k += c;
          ol += c;
          orr += c;
          if (ol == wrong_left[il].len) il++, ol = 0;
          if (orr == wrong_right[ir].len) ir++, orr = 0;
        }
      } catch (...) {
        fail.capture(false);
      }
    };
    for_range(0, (total + piece - 1) / piece, swap_piece);
    return fail.stopped() ? hi : at(first, left);
  }

  struct job {
    quick_sorter *s;
    It lo, hi;
    int budget;
  };
  static void run(void *p) noexcept {
    auto *j = static_cast<job *>(p);
    j->s->rec(j->lo, j->hi, j->budget);
  }

  /* Sort [lo, hi); budget: partitions left before std::sort takes over
   * (bad pivots). A range larger than one worker's share of the call
   * (workers * size > n) is partitioned on every worker (par_partition),
   * a smaller one by this thread. */
  void rec(It lo, It hi, int budget) noexcept {
    if (fail.stopped()) return;
    std::size_t m = static_cast<std::size_t>(hi - lo);
    It cut;
    try {
      /* 16: pivot_to_front's samples at distinct places */
      if (m < std::max<std::size_t>(ADAPT_STL_SORT_LEAF_MIN, 16) || budget == 0) {
        std::sort(lo, hi, cmp);
        return;
      }
      pivot_to_front(lo, hi);
      if (m * workers > n && m / ADAPT_STL_SORT_LEAF_MIN >= 4)
        cut = par_partition(lo, hi);
      else
        cut = unguarded_partition(lo + 1, hi, lo);
    } catch (...) {
      fail.capture(false);
      return;
    }
    if (fail.stopped()) return;
    job right{this, cut, hi, budget - 1};
    fork2(&run, &right, [&] { rec(lo, cut, budget - 1); });
  }
};

/* Stable merge of the sorted runs [a1, e1) and [a2, e2) into out, moving
 * the elements (ties: the first run's first). cmp sees the elements as
 * lvalues, as in std::stable_sort (std::merge on move iterators would hand
 * it rvalues, which a comparator taking its arguments by value moves from). */
template <class S, class D, class Cmp>
void move_merge(S a1, S e1, S a2, S e2, D out, Cmp &cmp) {
  while (a1 != e1 && a2 != e2) {
    if (cmp(*a2, *a1)) {
      *out = std::move(*a2);
      ++a2;
    } else {
      *out = std::move(*a1);
      ++a1;
    }
    ++out;
  }
  std::move(a2, e2, std::move(a1, e1, out));
}

/* In the sorted [lo, hi): the first element not less than key (Upper:
 * greater than key), a binary search as std::lower_bound / upper_bound's
 * whose comparisons see lvalues (key is an element). */
template <bool Upper, class S, class K, class Cmp>
S bound(S lo, S hi, K &key, Cmp &cmp) {
  auto len = hi - lo;
  while (len > 0) {
    auto half = len / 2;
    S mid = lo + half;
    if (Upper ? !cmp(key, *mid) : cmp(*mid, key)) {
      lo = mid + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  return lo;
}

/* The stable merge sort of stable_sort (see the top of this file). */
template <class It, class Cmp>
struct merge_sorter {
  using T = value_t<It>;
  using diff = typename std::iterator_traits<It>::difference_type;
  It a;
  T *b; /* the buffer; nullptr: none (merges in place) */
  Cmp &cmp;
  int leaf_depth;
  std::vector<unsigned char> built; /* leaf k constructed its buffer part */
  std::vector<std::pair<std::size_t, std::size_t>> leaf_range;
  failure fail;

  It at(std::size_t i) const { return a + static_cast<diff>(i); }

  struct sort_job {
    merge_sorter *s;
    std::size_t lo, hi, leaf;
    int depth;
  };
  static void sort_task(void *p) noexcept {
    auto *j = static_cast<sort_job *>(p);
    j->s->sort_rec(j->lo, j->hi, j->depth, j->leaf);
  }

  void leaf(std::size_t lo, std::size_t hi, std::size_t k) noexcept {
    try {
      std::stable_sort(at(lo), at(hi), cmp);
    } catch (...) {
      fail.capture(false);
      return;
    }
    if (!b) return;
    /* nothrow: the parallel path needs a nothrow move constructor. */
    std::uninitialized_move(at(lo), at(hi), b + lo);
    leaf_range[k] = {lo, hi};
    built[k] = 1;
  }

  /* Sorted [lo, hi) ends in the buffer when depth is odd, in a when even. */
  void sort_rec(std::size_t lo, std::size_t hi, int depth, std::size_t k) noexcept {
    if (fail.stopped()) return;
    if (depth == leaf_depth) return leaf(lo, hi, k);
    std::size_t mid = lo + (hi - lo) / 2;
    sort_job left{this, lo, mid, 2 * k, depth + 1};
    fork2(&sort_task, &left, [&] { sort_rec(mid, hi, depth + 1, 2 * k + 1); });
    if (fail.stopped()) return;
    if (!b) { /* no buffer: std's merge, with a smaller buffer of its own or none */
      try {
        std::inplace_merge(at(lo), at(mid), at(hi), std::ref(cmp));
      } catch (...) {
        fail.capture(false);
      }
    } else if (depth & 1) /* children (even depth) in a, result in the buffer */
      pmerge(at(lo), at(mid), at(mid), at(hi), b + lo);
    else
      pmerge(b + lo, b + mid, b + mid, b + hi, at(lo));
  }

  template <class S, class D>
  struct merge_job {
    merge_sorter *s;
    S a1, e1, a2, e2;
    D out;
    static void run(void *p) noexcept {
      auto *j = static_cast<merge_job *>(p);
      j->s->pmerge(j->a1, j->e1, j->a2, j->e2, j->out);
    }
  };

  /* Stable merge of the sorted runs [a1, e1) and [a2, e2) into out (moves). */
  template <class S, class D>
  void pmerge(S a1, S e1, S a2, S e2, D out) noexcept {
    if (fail.stopped()) return;
    auto n1 = e1 - a1, n2 = e2 - a2;
    try {
      if (static_cast<std::size_t>(n1 + n2) < ADAPT_STL_MERGE_MIN) {
        move_merge(a1, e1, a2, e2, out, cmp);
        return;
      }
      S p1, p2;
      if (n1 >= n2) {
        p1 = a1 + n1 / 2;
        p2 = bound<false>(a2, e2, *p1, cmp);
      } else {
        p2 = a2 + n2 / 2;
        p1 = bound<true>(a1, e1, *p2, cmp);
      }
      merge_job<S, D> left{this, a1, p1, a2, p2, out};
      D right_out = out + ((p1 - a1) + (p2 - a2));
      fork2(&merge_job<S, D>::run, &left, [&] { pmerge(p1, e1, p2, e2, right_out); });
    } catch (...) {
      fail.capture(false);
    }
  }
};

/* std's sequential sort of [first, last): std::stable_sort when Stable. */
template <bool Stable, class It, class Cmp>
void sort_seq(It first, It last, Cmp &cmp) {
  if constexpr (Stable)
    std::stable_sort(first, last, cmp);
  else
    std::sort(first, last, cmp);
}

/* The parallel quicksort of the n elements at first (see the top). */
template <class It, class Cmp>
void quick_sort(It first, It last, Cmp &cmp, std::size_t n, std::size_t workers,
                const cancel_token *tok) {
  int budget = 0;
  for (std::size_t m = n; m > 1; m >>= 1) budget += 2;
  quick_sorter<It, Cmp> q{cmp, n, workers, {}};
  q.fail.token = tok;
  q.fail.cancels = false;
  q.rec(first, last, budget);
  finish(0, q.fail);
}

/* The parallel merge sort of the n elements at first (see the top). */
template <class It, class Cmp>
void merge_sort(It first, Cmp &cmp, std::size_t n, std::size_t workers, const cancel_token *tok) {
  using T = value_t<It>;
  int d = 0;
  while ((n >> (d + 1)) >= ADAPT_STL_SORT_LEAF_MIN &&
         (std::size_t{1} << (d + 1)) <= ADAPT_STL_SORT_LEAVES_PER_WORKER * workers)
    d++;
  if (d % 2 == 0) d--; /* d >= 1 here: n >= 2 leaf_min and at least 2 workers */
  std::allocator<T> alloc;
  T *buf = nullptr;
  try {
    buf = alloc.allocate(n);
  } catch (const std::bad_alloc &) {
    /* as std::stable_sort without its buffer: leaves sorted in parallel,
     * merged in place by std::inplace_merge (which takes what memory it
     * can get), level by level */
  }
  std::size_t leaves = std::size_t{1} << d;
  merge_sorter<It, Cmp> s{first,
                          buf,
                          cmp,
                          d,
                          std::vector<unsigned char>(leaves, 0),
                          std::vector<std::pair<std::size_t, std::size_t>>(leaves),
                          {}};
  s.fail.token = tok;
  s.fail.cancels = false;
  s.sort_rec(0, n, 0, 0);
  if (buf) {
    for (std::size_t k = 0; k < leaves; k++)
      if (s.built[k]) std::destroy(buf + s.leaf_range[k].first, buf + s.leaf_range[k].second);
    alloc.deallocate(buf, n);
  }
  finish(0, s.fail);
}

/* adapt::sort (Stable: adapt::stable_sort) of [first, last) with cmp (tok:
 * the policy's cancel token, polled at the start and, in parallel, as the
 * first exception is; k: the policy's worker limit, 0 for none, which
 * bounds the workers the partitioning counts on), else std's
 * sequential sort for iterators that are not random access, element types
 * whose move constructor may throw, short ranges and one worker. */
template <bool Stable, class It, class Cmp>
void sort(It first, It last, Cmp &cmp, const cancel_token *tok, unsigned k = 0) {
  if (tok && tok->cancelled())
    throw error(-ECANCELED, "cancelled by the policy's adapt::cancel_token");
  if constexpr (!writable_v<It> || !std::is_nothrow_move_constructible_v<value_t<It>>) {
    sort_seq<Stable>(first, last, cmp);
  } else {
    std::size_t n = static_cast<std::size_t>(last - first);
    std::size_t workers = n < 2 * std::size_t{ADAPT_STL_SORT_LEAF_MIN}
                              ? 1
                              : static_cast<std::size_t>(adapt_num_workers());
    if (k != 0 && workers > k) workers = k;
    if (workers <= 1)
      sort_seq<Stable>(first, last, cmp);
    else if constexpr (Stable)
      merge_sort(first, cmp, n, workers, tok);
    else
      quick_sort(first, last, cmp, n, workers, tok);
  }
}

} // namespace detail
} // namespace adapt

#endif /* ADAPT_STL_SORT_HPP */
