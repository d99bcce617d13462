/* Valgrind's client requests for the callgrind modes of the benchmarks
 * (zero and dump the counters around a case, start and stop the
 * instrumentation), or no-ops where valgrind's headers are not installed. */
#ifndef BENCH_COMMON_CALLGRIND_HPP
#define BENCH_COMMON_CALLGRIND_HPP

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif
#endif
#ifndef BENCH_HAVE_CALLGRIND
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(s) ((void)(s))
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#define RUNNING_ON_VALGRIND 0
#endif

#endif /* BENCH_COMMON_CALLGRIND_HPP */
