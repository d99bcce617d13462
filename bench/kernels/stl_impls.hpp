/* The implementations bench_stl compares, as a table: for every algorithm
 * one maker that builds its five implementations (the sequential std
 * algorithm, adapt, GNU parallel mode, oneTBB, std::execution::par) on the
 * arrays of one size with one element operation; the arrays themselves;
 * the check of a run's result against the sequential one.
 *
 * The makers live in one file per family: stl_map.cpp (for_each,
 * for_each_n, transform, fill, generate), stl_reduce.cpp (reduce,
 * transform_reduce, transform_reduce2, count_if, count), stl_search.cpp
 * (find_if, find, any_of, all_of, none_of), stl_scan.cpp (copy_if,
 * inclusive_scan, exclusive_scan), stl_sort.cpp (the sorts), stl_more.cpp
 * (a representative set of the other algorithms of C++17), each with the
 * rows of its algorithms; stl_impls.cpp puts them in the order bench_stl
 * runs the cases. These files include <adapt/stl.hpp> (bench/mk/stl.mk
 * gives them stl/include).
 *
 * Not thread-safe: one thread builds and runs the implementations (each
 * may run in parallel inside).
 */
#ifndef BENCH_KERNELS_STL_IMPLS_HPP
#define BENCH_KERNELS_STL_IMPLS_HPP

#include "stl_kernels.hpp"

#include <oneapi/tbb/task_arena.h>

#include <stddef.h>

#include <execution>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

/* The element operations (stl_kernels.hpp): cheap, costly, unbalanced (the
 * ramp on the increasing input) and nondet (cheap; adapt's scans with
 * adapt::par.deterministic(false)). */
enum stl_op { STL_OP_CHEAP, STL_OP_COSTLY, STL_OP_UNBALANCED, STL_OP_NONDET, STL_OPS };
extern const char *const STL_OP_NAMES[STL_OPS]; /* "cheap", "costly", "unbalanced", "nondet" */

enum stl_impl_id { STL_SEQ, STL_ADAPT, STL_GNU, STL_TBB, STL_PSTL, STL_IMPLS };
extern const char *const STL_IMPL_NAMES[STL_IMPLS]; /* "std (sequential)", "adapt", ... */
extern const char *const STL_IMPL_SHORT[STL_IMPLS]; /* "seq", "adapt", "gnu", "tbb", "std::par" */

/* What one run answers besides its arrays. */
struct stl_outcome {
  double sum = 0;
  size_t index = 0; /* find_if's position, count_if's and copy_if's count */
  bool flag = false;
};

/* The arrays of one size: inputs (integers in [-500, 500), hashed order;
 * the same increasing for the unbalanced cases; with one element above 900
 * at 3n/4 for find_if; random doubles for the sorts), the in-place array,
 * the output and the sequential reference; sort_int: the ints of `in`
 * (their order); sort_string: n / 10 strings of 8 to 23 letters (some
 * beyond the short-string buffer), random. got: the last run's outcome,
 * want: the sequential one's. */
struct stl_data {
  size_t n = 0;
  double *in = nullptr, *ramp = nullptr, *find = nullptr, *rnd = nullptr;
  double *io = nullptr, *out = nullptr, *ref = nullptr;
  std::vector<int> iin, iio, iref;
  std::vector<std::string> sin, sio, sref;
  stl_outcome got, want;

  stl_data() = default;
  stl_data(const stl_data &) = delete;
  stl_data &operator=(const stl_data &) = delete;
  ~stl_data() { release(); }
  void make(size_t size); /* the arrays of n = size (nothing to do if they are) */
  void release(void);
};

/* What a case's implementations produce, compared with the reference. */
enum stl_out_kind { OUT_ARRAY, OUT_IO, OUT_SUM, OUT_INDEX, OUT_BOOL, OUT_COPY, OUT_CUSTOM };

/* The implementations of one case. */
struct stl_impls {
  stl_out_kind kind = OUT_ARRAY;
  const double *io_src = nullptr;     /* OUT_IO: copied to io before every run */
  std::function<void()> f[STL_IMPLS]; /* empty: the peer has no such algorithm */
  std::string note;
  /* OUT_CUSTOM (int and string sorts): reset the input before every run,
   * keep the sequential result, compare the last run's with it. */
  std::function<void()> reset, save_ref;
  std::function<std::string()> check;
};

/* What a maker builds on: the arrays, the TBB arena of the case's worker
 * count (the OpenMP thread count is set by the caller), the operation, the
 * algorithm's form (stl_algo), and the pointers its implementations
 * capture (a copy of the call). */
struct stl_call {
  stl_data *d;
  tbb::task_arena *arena;
  stl_op op;
  int form;
  size_t n;
  const double *in; /* the input: the increasing one for the unbalanced operation */
  double *io, *out;
  stl_outcome *got;

  stl_call(stl_data *data, tbb::task_arena *ar, stl_op o, int f)
      : d(data), arena(ar), op(o), form(f), n(data->n),
        in(o == STL_OP_UNBALANCED ? data->ramp : data->in), io(data->io), out(data->out),
        got(&data->got) {}
  /* g run inside the arena. */
  std::function<void()> in_arena(std::function<void()> g) const {
    tbb::task_arena *ar = arena;
    return [ar, g] { ar->execute(g); };
  }
};

/* f(the element operation of op): stl_costly, stl_ramp or stl_cheap. */
template <class F>
stl_impls stl_with_op(stl_op op, F f) {
  switch (op) {
  case STL_OP_COSTLY: return f(stl_costly());
  case STL_OP_UNBALANCED: return f(stl_ramp());
  default: return f(stl_cheap());
  }
}

/* The implementations that call one algorithm by its name: std's
 * sequential one, adapt's, GNU parallel mode's and std's with
 * std::execution::par (run in c's arena). The last argument, run, is the
 * body of one implementation: run(f), f a function object that calls the
 * algorithm with f's arguments (std::execution::par put first for the
 * parallel std one). STL_BY_NAME(m, c, algorithm, run) sets the four,
 * STL_BY_NAME_NO_GNU the three but GNU parallel mode's (which lacks the
 * algorithm); a maker sets the TBB one (no call of that name) itself. */
#define STL_CALL_OF(...) [](auto... a) { return __VA_ARGS__(a...); }
#define STL_PAR_CALL_OF(...) [](auto... a) { return __VA_ARGS__(std::execution::par, a...); }
#define STL_BY_NAME_WITH(m, c, algorithm, gnu, ...)                                                \
  stl_by_name(m, c, __VA_ARGS__, STL_CALL_OF(std::algorithm), STL_CALL_OF(adapt::algorithm), gnu,  \
              STL_PAR_CALL_OF(std::algorithm))
#define STL_BY_NAME(m, c, algorithm, ...)                                                          \
  STL_BY_NAME_WITH(m, c, algorithm, STL_CALL_OF(__gnu_parallel::algorithm), __VA_ARGS__)
#define STL_BY_NAME_NO_GNU(m, c, algorithm, ...)                                                   \
  STL_BY_NAME_WITH(m, c, algorithm, nullptr, __VA_ARGS__)

template <class Run, class Seq, class Adapt, class Gnu, class Par>
void stl_by_name(stl_impls &m, const stl_call &c, Run run, Seq seq, Adapt ad, Gnu gnu, Par par) {
  m.f[STL_SEQ] = [=] { run(seq); };
  m.f[STL_ADAPT] = [=] { run(ad); };
  if constexpr (!std::is_null_pointer_v<Gnu>) m.f[STL_GNU] = [=] { run(gnu); };
  m.f[STL_PSTL] = c.in_arena([=] { run(par); });
}

/* One row of the table: the algorithm, the operations it takes (bit 1 <<
 * op), its maker and the form the maker builds (one maker serves the
 * algorithms that differ in a detail: for_each and for_each_n, any_of,
 * all_of and none_of, the sorts...). */
struct stl_algo {
  const char *name;
  unsigned ops;
  stl_impls (*make)(const stl_call &c);
  int form;
  bool takes(stl_op op) const { return (ops >> op) & 1u; }
};

/* The operations of stl_algo::ops: every algorithm takes the cheap one;
 * the costly one those that take one per element; the unbalanced one a
 * few of them; nondet the scans. */
enum : unsigned {
  STL_CHEAP = 1u << STL_OP_CHEAP,
  STL_COSTLY = STL_CHEAP | 1u << STL_OP_COSTLY,
  STL_UNBALANCED = STL_COSTLY | 1u << STL_OP_UNBALANCED,
  STL_NONDET = STL_CHEAP | 1u << STL_OP_NONDET,
};

/* Every algorithm, in the order of the tables. */
const std::vector<stl_algo> &stl_algos(void);

/* Each family file's rows, in any order. */
extern const std::vector<stl_algo> STL_MAP_ALGOS, STL_REDUCE_ALGOS, STL_SEARCH_ALGOS,
    STL_SCAN_ALGOS, STL_SORT_ALGOS, STL_MORE_ALGOS;

/* Is the algorithm one of the sorts (at most 5 rounds from n = 1e7, the
 * sorts' target)? */
bool stl_is_sort(const std::string &algo);

/* "" when the last run's output (d's got, out, io) equals the reference
 * (want, ref), else why. */
std::string stl_check(const stl_impls &m, const stl_data &d);

#endif /* BENCH_KERNELS_STL_IMPLS_HPP */
