/* The peer runtimes the benchmarks compare libadapt with, OpenMP (libgomp)
 * and oneTBB: every OpenMP schedule and every TBB partitioner behind one
 * construct each, so that a kernel writes its loop once; the pools, created
 * before adapt binds the main thread; the check that their workers may
 * still run on every CPU.
 *
 * Thread-safety: OMP_PARALLEL_FOR and tbb_for as their runtimes; the rest
 * for the main thread.
 */
#ifndef BENCH_COMMON_PEERS_HPP
#define BENCH_COMMON_PEERS_HPP

#include <omp.h>
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)
/* OMP(directive): #pragma omp directive, also inside a macro. */
#define OMP(x) _Pragma(BENCH_STR(omp x))

enum omp_kind { OMP_STATIC, OMP_DYNAMIC, OMP_GUIDED };

/* The for statement given last under `#pragma omp parallel for
 * num_threads(threads) schedule(...) clauses`, the schedule after kind:
 * static (blocks, no chunk), dynamic or guided with `chunk` (1 is the
 * default of a schedule(dynamic) or schedule(guided) without one). */
#define OMP_PARALLEL_FOR(kind, chunk, threads, clauses, ...)                                       \
  do {                                                                                             \
    switch (kind) {                                                                                \
    case OMP_STATIC: {                                                                             \
      OMP(parallel for num_threads(threads) schedule(static) clauses)                              \
      __VA_ARGS__                                                                                  \
    } break;                                                                                       \
    case OMP_DYNAMIC: {                                                                            \
      OMP(parallel for num_threads(threads) schedule(dynamic, chunk) clauses)                      \
      __VA_ARGS__                                                                                  \
    } break;                                                                                       \
    case OMP_GUIDED: {                                                                             \
      OMP(parallel for num_threads(threads) schedule(guided, chunk) clauses)                       \
      __VA_ARGS__                                                                                  \
    } break;                                                                                       \
    }                                                                                              \
  } while (0)

/* f() run by one thread of a parallel region of `threads` (parallel +
 * single: the frame of OpenMP tasks and taskloops); returns its result. */
template <class F>
auto omp_in_single(int threads, F f) -> decltype(f()) {
  decltype(f()) r{};
  OMP(parallel num_threads(threads) shared(r)) {
    OMP(single)
    r = f();
  }
  return r;
}

enum tbb_kind { TBB_AUTO, TBB_SIMPLE, TBB_AFFINITY };

/* tbb::parallel_for(range, body, partitioner) with the partitioner of kind;
 * TBB_AFFINITY uses *ap, to keep across calls (it remembers which thread ran
 * which range). */
template <class Range, class Body>
void tbb_for(tbb_kind kind, const Range &range, const Body &body,
             tbb::affinity_partitioner *ap = nullptr) {
  switch (kind) {
  case TBB_AUTO: tbb::parallel_for(range, body, tbb::auto_partitioner()); break;
  case TBB_SIMPLE: tbb::parallel_for(range, body, tbb::simple_partitioner()); break;
  case TBB_AFFINITY: tbb::parallel_for(range, body, *ap); break;
  }
}

/* The TBB arenas of 1 and 2 threads and of each count in `more`, and the
 * OpenMP team of the largest count, created and run once by the
 * constructor: construct them before adapt binds the main thread (to PU 0),
 * since a new thread inherits its creator's affinity. of(P) for a count
 * neither 1, 2 nor in `more` is a fatal error (its threads would be bound
 * to PU 0). */
struct peer_pools {
  tbb::task_arena one{1}, two{2};
  explicit peer_pools(const std::vector<int> &more = {});
  tbb::task_arena &of(int workers);

private:
  std::map<int, std::unique_ptr<tbb::task_arena>> more_;
};

/* "OpenMP 201511 (libgomp) vs oneTBB 2021.8". */
std::string peer_versions(void);

/* The affinity line: adapt's PUs, the CPU counts the main thread, an OpenMP
 * worker and a TBB worker of arena may run on, and a warning when a peer's
 * worker is confined to one CPU. */
std::string affinity_report(tbb::task_arena &arena);

#endif /* BENCH_COMMON_PEERS_HPP */
