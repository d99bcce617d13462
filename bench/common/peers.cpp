/* Pools and affinity check of the peer runtimes, OpenMP and oneTBB
 * (peers.hpp). */
#include "peers.hpp"
#include "bench_util.hpp"
#include "output.hpp"

#include <adapt/adapt.h>

#include <oneapi/tbb/version.h>

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <vector>

static void warm_up(tbb::task_arena &arena) {
  arena.execute([] {
    tbb::parallel_for(tbb::blocked_range<int>(0, 64, 1), [](const tbb::blocked_range<int> &) {});
  });
}

peer_pools::peer_pools(const std::vector<int> &more) {
  one.initialize();
  two.initialize();
  int team = 2;
  for (int p : more) {
    team = std::max(team, p);
    if (p <= 2 || more_.count(p)) continue;
    more_[p].reset(new tbb::task_arena(p));
    more_[p]->initialize();
    warm_up(*more_[p]);
  }
  OMP(parallel num_threads(team)) { (void)omp_get_thread_num(); }
  warm_up(two);
}

tbb::task_arena &peer_pools::of(int workers) {
  if (workers == 1) return one;
  if (workers == 2) return two;
  auto it = more_.find(workers);
  if (it == more_.end()) {
    fprintf(stderr, "peer_pools: no arena of %d threads (not created up front)\n", workers);
    exit(2);
  }
  return *it->second;
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
