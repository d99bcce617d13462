/* Pools and affinity check of the peer runtimes, OpenMP and oneTBB
 * (peers.hpp). */
#include "peers.hpp"
#include "bench_util.hpp"
#include "output.hpp"

#include <adapt/adapt.h>

#include <oneapi/tbb/version.h>

#include <algorithm>
#include <vector>

peer_pools::peer_pools() {
  one.initialize();
  two.initialize();
  OMP(parallel num_threads(2)) { (void)omp_get_thread_num(); }
  two.execute([] {
    tbb::parallel_for(tbb::blocked_range<int>(0, 64, 1), [](const tbb::blocked_range<int> &) {});
  });
}

std::string peer_versions(void) {
  return fmt("OpenMP %d (libgomp) vs oneTBB %s", _OPENMP, TBB_runtime_version());
}

std::string affinity_report(tbb::task_arena &arena) {
  const int none = 1 << 20;
  int omp_min = none;
  OMP(parallel num_threads(2) reduction(min : omp_min)) {
    if (omp_get_thread_num() != 0) omp_min = cpus_allowed();
  }
  /* A TBB worker joins an arena only after a wake-up delay: retry until one
   * has run a task (a few ms at most). */
  std::vector<int> seen(64, none);
  for (int attempt = 0; attempt < 50; attempt++) {
    arena.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, 64, 1),
          [&](const tbb::blocked_range<size_t> &r) {
            volatile double v = 0;
            for (int j = 0; j < 20000; j++) v = v + 1.0;
            if (tbb::this_task_arena::current_thread_index() != 0) seen[r.begin()] = cpus_allowed();
          },
          tbb::simple_partitioner());
    });
    if (*std::min_element(seen.begin(), seen.end()) != none) break;
  }
  int tbb_min = *std::min_element(seen.begin(), seen.end());
  std::string pus;
  for (int w = 0; w < adapt_num_workers(); w++)
    pus += (w == 0 ? "" : " and ") + std::to_string(adapt_worker_pu(w));
  std::string s =
      fmt("   affinity: adapt workers bound to PU %s, main thread may run on %d CPU(s);"
          " OpenMP worker on %s; TBB worker on %s\n",
          pus.c_str(), cpus_allowed(), omp_min == none ? "?" : std::to_string(omp_min).c_str(),
          tbb_min == none ? "? (did not join)" : std::to_string(tbb_min).c_str());
  if ((omp_min != none && omp_min < 2) || (tbb_min != none && tbb_min < 2))
    s += "   WARNING: a peer runtime's worker is confined to one CPU; its speedups are not "
         "meaningful\n";
  return s;
}
