/* The memory bandwidth with one and two threads, and the room for two
 * threads on compute-bound work (bandwidth.hpp). */
#include "bandwidth.hpp"
#include "bench_util.hpp"
#include "harness.hpp"
#include "output.hpp"

#include <adapt/adapt.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

namespace {

/* Keeps the sums alive (not optimised away). */
volatile double sink;

/* The PUs adapt binds its first two workers to (adapt_worker_pu; -1: an
 * unbound worker, whose stand-in thread is left where the kernel puts
 * it); one entry when adapt runs one worker. */
std::vector<int> worker_cpus() {
  std::vector<int> cpus;
  for (int w = 0; w < std::min(2, adapt_num_workers()); w++) cpus.push_back(adapt_worker_pu(w));
  return cpus;
}

void bind_to(int cpu) {
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Sum of a[b, e), four independent accumulators (not the add's latency). */
double read_part(const double *a, size_t b, size_t e) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  size_t i = b;
  for (; i + 4 <= e; i += 4) {
    s0 += a[i];
    s1 += a[i + 1];
    s2 += a[i + 2];
    s3 += a[i + 3];
  }
  for (; i < e; i++) s0 += a[i];
  return (s0 + s1) + (s2 + s3);
}

void map_part(const double *a, double *out, size_t b, size_t e) {
  for (size_t i = b; i < e; i++) out[i] = 0.5 * a[i] + 1.0;
}

/* part(k) on one thread per entry k of cpus, bound to it, started before
 * the clock and released together (thread creation is not timed); the
 * longest thread's seconds. */
double timed_parts(const std::vector<int> &cpus, const std::function<void(size_t)> &part) {
  const size_t t = cpus.size();
  std::vector<std::thread> th;
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> secs(t, 0.0);
  try {
    for (size_t k = 0; k < t; k++)
      th.emplace_back([&, k] {
        bind_to(cpus[k]);
        /* Release: pairs with the acquire load of ready below. */
        ready.fetch_add(1, std::memory_order_release);
        /* Acquire: pairs with the release store of go below. */
        while (!go.load(std::memory_order_acquire)) {}
        const double t0 = now_s();
        part(k);
        secs[k] = now_s() - t0;
      });
  } catch (const std::system_error &) {
    fatal("bandwidth: cannot start a thread");
  }
  /* Acquire: pairs with every thread's release increment of ready. */
  while (ready.load(std::memory_order_acquire) < (int)t) {}
  /* Release: pairs with the threads' acquire loads of go. */
  go.store(true, std::memory_order_release);
  for (std::thread &x : th) x.join();
  return *std::max_element(secs.begin(), secs.end());
}

/* One pass of kind (0 read, 1 map) over n elements on the given CPUs (one
 * thread each, the work split evenly); GB/s. */
double pass(int kind, const double *a, double *out, size_t n, const std::vector<int> &cpus) {
  const size_t t = cpus.size();
  std::vector<double> sums(t, 0.0);
  const double longest = timed_parts(cpus, [&](size_t k) {
    const size_t b = n * k / t, e = n * (k + 1) / t;
    if (kind == 0)
      sums[k] = read_part(a, b, e);
    else
      map_part(a, out, b, e);
  });
  double s = 0;
  for (double x : sums) s += x;
  sink = s;
  const double bytes = (double)n * sizeof(double) * (kind == 0 ? 1 : 2);
  return longest > 0 ? bytes / longest / 1e9 : 0;
}

} // namespace

bandwidth measure_bandwidth(size_t bytes, int rounds) {
  bandwidth r;
  const std::vector<int> cpus = worker_cpus();
  if (cpus.empty()) fatal("bandwidth: adapt has no worker");
  r.threads = (int)cpus.size();
  const size_t n = bytes / sizeof(double);
  double *a = alloc_array<double>(n), *out = alloc_array<double>(n);
  for (size_t i = 0; i < n; i++) a[i] = (double)(i % 1000), out[i] = 0; /* faulted in */
  std::vector<double> r1, r2, m1, m2;
  const std::vector<int> one(cpus.begin(), cpus.begin() + 1);
  for (int k = 0; k < rounds; k++) {
    /* Alternated, the order flipped every round: drift hits both alike. */
    const bool two_first = k % 2 == 1 && r.threads == 2;
    for (int j = 0; j < 2; j++) {
      const bool two = (j == 0) == two_first;
      if (two && r.threads < 2) continue;
      (two ? r2 : r1).push_back(pass(0, a, out, n, two ? cpus : one));
      (two ? m2 : m1).push_back(pass(1, a, out, n, two ? cpus : one));
    }
  }
  free(a);
  free(out);
  r.read1 = median(r1);
  r.map1 = median(m1);
  if (r.threads == 2) {
    r.read2 = median(r2);
    r.map2 = median(m2);
  }
  return r;
}

double compute_room(size_t n, void (*kernel)(const double *a, double *out, size_t n)) {
  const std::vector<int> cpus = worker_cpus();
  if (cpus.size() < 2 || n == 0) return NAN;
  /* Kept from call to call: no allocation or page fault per probe. */
  static std::vector<double> a, out[2];
  if (a.size() < n) {
    a.resize(n);
    for (size_t i = 0; i < n; i++) a[i] = (double)(i % 1000) - 500.0;
    out[0].resize(n);
    out[1].resize(n);
  }
  const std::vector<int> one(cpus.begin(), cpus.begin() + 1);
  const double t1 = timed_parts(one, [&](size_t) { kernel(a.data(), out[0].data(), n); });
  const double t2 = timed_parts(cpus, [&](size_t k) { kernel(a.data(), out[k].data(), n); });
  sink = out[0][n / 2] + out[1][n / 2];
  return t2 > 0 ? 2 * t1 / t2 : NAN;
}

std::string bandwidth_line(const bandwidth &b, size_t bytes, int rounds) {
  if (b.threads < 2)
    return fmt("memory bandwidth (arrays of %zu MiB, medians of %d): read %.1f GB/s, map %.1f GB/s "
               "(adapt runs one worker: no 2-thread figure)",
               bytes >> 20, rounds, b.read1, b.map1);
  return fmt("memory bandwidth (arrays of %zu MiB, medians of %d), 1 -> 2 threads: read %.1f -> "
             "%.1f GB/s (x%.2f), map b = 0.5 a + 1 %.1f -> %.1f GB/s (x%.2f): the bound of a "
             "memory-bound loop's 2-worker speed-up",
             bytes >> 20, rounds, b.read1, b.read2, b.read2 / b.read1, b.map1, b.map2,
             b.map2 / b.map1);
}
