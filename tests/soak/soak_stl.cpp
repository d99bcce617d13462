/* tests/soak: <adapt/stl.hpp> calls (soak_stl_job), from any of the
 * soak's threads: transform, for_index, transform_reduce, inclusive_scan,
 * find_if and sort under a random policy, each checked against std's
 * sequential algorithm. The element functions of the maps throw, cancel
 * the policy's token or call adapt_cancel at a random index, one call in
 * 4 each: the call must rethrow that exception (or throw adapt::error
 * ECANCELED, or, for the token, may finish normally with the whole result),
 * every element visited at most once, the index that threw once. */
#include <adapt/stl.hpp>
#include <adapt/stl/index.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <numeric>
#include <vector>

#include "soak.h"

namespace {

/* What an element function does at the chosen index. */
enum class fate { none, exception, token, cancel };

/* The exception a body throws: the index that threw. */
struct thrown {
  std::size_t at;
};

/* Per-call state: visit counts, the chosen index and what happens there. */
struct call {
  std::unique_ptr<std::atomic<unsigned char>[]> seen;
  std::size_t n = 0, at = SIZE_MAX;
  fate what = fate::none;
  adapt::cancel_token token;
  const char *name = "";
  /* adapt_cancel refused (not in a parallel call: transform_reduce of one
   * element calls the transform on the caller, outside any region). */
  std::atomic<bool> refused{false};

  call(std::size_t n_, const char *name_)
      : seen(new std::atomic<unsigned char>[n_ ? n_ : 1]()), n(n_), name(name_) {}

  /* The element function's part at index i: count, then the fate. */
  void at_index(std::size_t i) {
    /* relaxed: counts read after the call returned (the runtime's join). */
    seen[i].fetch_add(1, std::memory_order_relaxed);
    if (i != at) return;
    switch (what) {
    case fate::exception: throw thrown{i};
    case fate::token: token.cancel(); break;
    case fate::cancel:
      if (adapt_cancel() != 0) refused.store(true, std::memory_order_relaxed);
      break;
    case fate::none: break;
    }
  }
  unsigned visits(std::size_t i) const { return seen[i].load(std::memory_order_relaxed); }

  /* Every index at most once (exactly once when the call completed), the
   * chosen one once when it stopped the call. */
  void check_visits(bool complete) const {
    for (std::size_t i = 0; i < n; i++) {
      unsigned v = visits(i);
      if (complete ? v != 1 : v > 1) {
        soak_failf("stl %s (n %zu): index %zu visited %u times", name, n, i, v);
        return;
      }
    }
    if (!complete && at < n && visits(at) != 1)
      soak_failf("stl %s (n %zu): the index that stopped the call ran %u times", name, n,
                 visits(at));
  }
};

adapt::policy random_policy(rng *r, bool map, const adapt::cancel_token &token) {
  static const adapt::window modes[] = {adapt::window::default_, adapt::window::none,
                                        adapt::window::static_, adapt::window::sliding};
  static const adapt::splitter splitters[] = {adapt::splitter::default_, adapt::splitter::local,
                                              adapt::splitter::distant, adapt::splitter::balanced};
  const adapt::window w = modes[rnd(r, 4)];
  adapt::policy p = adapt::par.window(w, rnd(r, 2) ? 1 + rnd(r, 4096) : 0)
                        .splitter(splitters[rnd(r, 4)])
                        .grain(rnd(r, 2) ? 1 + rnd(r, 512) : 0)
                        .cancel_with(token);
  /* A scheduler other than adaptive with a window mode: ENOTSUP, not what
   * is soaked here. */
  if (map && (w == adapt::window::default_ || w == adapt::window::none) && rnd(r, 2))
    p = p.sched(static_cast<adapt::sched>(rnd(r, ADAPT_SCHED_COUNT)));
  return p;
}

std::uint64_t f3(std::uint64_t v) { return v * 3 + 1; }

/* Runs body (the call); checks how it ended against c's fate. `complete`
 * is called when the call returned normally, to check its result. */
template <class Body, class Check>
void run(call &c, Body body, Check complete) {
  try {
    body();
    /* The token's call may finish before any chunk saw the flag. */
    const bool refused = c.refused.load(std::memory_order_relaxed);
    if ((c.what == fate::exception || (c.what == fate::cancel && !refused)) && c.at < c.n)
      soak_failf("stl %s (n %zu): returned normally, fate %d", c.name, c.n, (int)c.what);
    c.check_visits(true);
    complete();
  } catch (const thrown &t) {
    if (c.what != fate::exception || t.at != c.at)
      soak_failf("stl %s (n %zu): body's exception of index %zu escaped", c.name, c.n, t.at);
    soak_count(SOAK_EXCEPTIONS, 1);
    c.check_visits(false);
  } catch (const adapt::error &e) {
    if ((c.what != fate::token && c.what != fate::cancel) || e.code().value() != ECANCELED)
      soak_failf("stl %s (n %zu): adapt::error %d (%s)", c.name, c.n, e.code().value(), e.what());
    soak_count(SOAK_CANCELS, 1);
    c.check_visits(false);
  } catch (...) {
    soak_failf("stl %s (n %zu): an unexpected exception", c.name, c.n);
  }
}

void job_transform(rng *r, call &c, const adapt::policy &p) {
  std::vector<std::uint64_t> in(c.n), out(c.n);
  std::iota(in.begin(), in.end(), std::uint64_t{0});
  run(
      c,
      [&] {
        adapt::transform(p, in.begin(), in.end(), out.begin(), [&](std::uint64_t v) {
          c.at_index(v);
          return f3(v);
        });
      },
      [&] {
        for (std::size_t i = 0; i < c.n; i++)
          if (out[i] != f3(i)) {
            soak_failf("stl transform (n %zu): out[%zu] wrong", c.n, i);
            break;
          }
      });
}

void job_for_index(rng *r, call &c, const adapt::policy &p) {
  run(
      c, [&] { adapt::for_index(p, std::size_t{0}, c.n, [&](std::size_t i) { c.at_index(i); }); },
      [] {});
}

void job_transform_reduce(rng *r, call &c, const adapt::policy &p) {
  std::vector<std::uint64_t> in(c.n);
  std::iota(in.begin(), in.end(), std::uint64_t{0});
  std::uint64_t got = 0;
  run(
      c,
      [&] {
        got = adapt::transform_reduce(p, in.begin(), in.end(), std::uint64_t{7}, std::plus<>(),
                                      [&](std::uint64_t v) {
                                        c.at_index(v);
                                        return f3(v);
                                      });
      },
      [&] {
        std::uint64_t want = 7;
        for (std::size_t i = 0; i < c.n; i++) want += f3(i);
        if (got != want) soak_failf("stl transform_reduce (n %zu): wrong sum", c.n);
      });
}

void job_find_if(rng *r, call &c, const adapt::policy &p) {
  std::vector<std::uint64_t> in(c.n);
  std::iota(in.begin(), in.end(), std::uint64_t{0});
  const std::size_t target = rnd(r, c.n + c.n / 4 + 1);
  std::size_t got = 0;
  c.what = fate::none; /* find_if stops early: no fate (at most once is all it promises) */
  auto it = in.end();
  try {
    it = adapt::find_if(p, in.begin(), in.end(), [&](std::uint64_t v) {
      c.at_index(v);
      return v == target;
    });
    got = static_cast<std::size_t>(it - in.begin());
    if (got != std::min(target, c.n))
      soak_failf("stl find_if (n %zu): found %zu, not %zu", c.n, got, target);
    for (std::size_t i = 0; i < c.n; i++)
      if (i <= got ? (i < c.n && c.visits(i) != 1) : c.visits(i) > 1) {
        soak_failf("stl find_if (n %zu): index %zu visited %u times", c.n, i, c.visits(i));
        break;
      }
  } catch (...) {
    soak_failf("stl find_if (n %zu): threw", c.n);
  }
}

/* Sequential definitions: scan and sort (no fate; the sort's comparator
 * throws one call in 4, after a random number of comparisons). */
void job_scan(rng *r, call &c, const adapt::policy &p) {
  std::vector<std::uint64_t> in(c.n), out(c.n), want(c.n);
  for (std::size_t i = 0; i < c.n; i++) in[i] = mix(i);
  std::partial_sum(in.begin(), in.end(), want.begin());
  try {
    adapt::inclusive_scan(p.deterministic(rnd(r, 2) != 0), in.begin(), in.end(), out.begin());
    if (out != want) soak_failf("stl inclusive_scan (n %zu): wrong", c.n);
  } catch (...) {
    soak_failf("stl inclusive_scan (n %zu): threw", c.n);
  }
}

void job_sort(rng *r, call &c, const adapt::policy &p) {
  std::vector<std::uint64_t> v(c.n);
  const std::uint64_t range = 1 + rnd(r, 2) * rnd(r, c.n + 1) + rnd(r, 1u << 20);
  for (std::size_t i = 0; i < c.n; i++) v[i] = next(r) % range;
  std::vector<std::uint64_t> want = v;
  std::sort(want.begin(), want.end());
  std::atomic<std::size_t> cmps{0};
  const std::size_t throw_at = rnd(r, 4) == 0 ? rnd(r, c.n * 4 + 1) : SIZE_MAX;
  try {
    adapt::sort(p, v.begin(), v.end(), [&](std::uint64_t a, std::uint64_t b) {
      /* relaxed: a count; its order does not matter. */
      if (cmps.fetch_add(1, std::memory_order_relaxed) == throw_at) throw thrown{throw_at};
      return a < b;
    });
    if (v != want) soak_failf("stl sort (n %zu): not sorted", c.n);
  } catch (const thrown &) {
    soak_count(SOAK_EXCEPTIONS, 1);
  } catch (...) {
    soak_failf("stl sort (n %zu): unexpected exception", c.n);
  }
}

} // namespace

extern "C" void soak_stl_job(rng *r) {
  static const char *const names[] = {"transform", "for_index",      "transform_reduce",
                                      "find_if",   "inclusive_scan", "sort"};
  const std::size_t k = rnd(r, 6), n = soak_rnd_size(r, 0);
  call c(n, names[k]);
  if (n && k < 3 && rnd(r, 4) == 0) {
    c.at = rnd(r, n);
    c.what = static_cast<fate>(1 + rnd(r, 3));
  }
  const adapt::policy p = random_policy(r, k < 2 || k == 3, c.token);
  soak_count(SOAK_STL, 1);
  soak_count(SOAK_ITERS, n);
  switch (k) {
  case 0: job_transform(r, c, p); break;
  case 1: job_for_index(r, c, p); break;
  case 2: job_transform_reduce(r, c, p); break;
  case 3: job_find_if(r, c, p); break;
  case 4: job_scan(r, c, p); break;
  default: job_sort(r, c, p); break;
  }
}
