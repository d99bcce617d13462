/* cmocka tests of the reuse-distance model (locality.h): the stack
 * distances against a brute-force LRU cache, the sampled estimate, the
 * schedules, the prediction's ordering of the modes, the recorder of
 * positions, and the prediction of adapt-isosurface against cachesim.sh
 * (valgrind's simulated last-level cache) on two small meshes, lexicographic
 * and random, within 20% for seq, nowin and sliding on 2 workers. */
#include "iso_config.h"
#include "locality.h"
#include "mesh.h"
#include "mt.h"

#include <adapt/adapt.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <list>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

using namespace iso;

namespace {

/* Misses of a fully associative LRU cache of c lines, by simulation. */
uint64_t lru_misses(const std::vector<uint64_t> &stream, size_t c) {
  std::list<uint64_t> lru; /* front: most recent */
  std::map<uint64_t, std::list<uint64_t>::iterator> where;
  uint64_t misses = 0;
  for (uint64_t x : stream) {
    auto it = where.find(x);
    if (it != where.end()) {
      lru.erase(it->second);
    } else {
      misses++;
      if (lru.size() == c) {
        where.erase(lru.back());
        lru.pop_back();
      }
    }
    lru.push_front(x);
    where[x] = lru.begin();
  }
  return misses;
}

/* A stream with locality: a slowly moving window of lines, with jumps. */
std::vector<uint64_t> make_stream(size_t n, uint64_t nlines, unsigned seed) {
  std::mt19937_64 g(seed);
  std::vector<uint64_t> s;
  uint64_t base = 0;
  for (size_t i = 0; i < n; i++) {
    if (g() % 1000 == 0) base = g() % nlines;
    base = (base + (g() % 3 == 0)) % nlines;
    s.push_back((base + g() % 200) % nlines);
  }
  return s;
}

void test_exact_equals_lru(void **) {
  if (tsan_single_threaded()) return; /* the model: sequential code */
  const uint64_t nlines = 5000;
  const std::vector<uint64_t> sizes = {1, 7, 50, 199, 400, 2000};
  /* asan+ubsan checks one stream. */
  const unsigned seeds = test_variant() == "release" || test_variant().empty() ? 3 : 1;
  for (unsigned seed = 1; seed <= seeds; seed++) {
    /* Long enough to force several compactions of the tree (2^16 times). */
    const std::vector<uint64_t> s = make_stream(300000, nlines, seed);
    ReuseCounter rc(nlines, sizes, 1.0);
    for (uint64_t x : s) rc.access(x);
    const std::vector<double> got = rc.misses();
    assert_int_equal(got.size(), sizes.size());
    for (size_t k = 0; k < sizes.size(); k++)
      assert_int_equal((uint64_t)got[k], lru_misses(s, sizes[k]));
    assert_int_equal(rc.accesses(), s.size());
  }
}

void test_sampled_close(void **) {
  if (tsan_single_threaded()) return; /* the model: sequential code */
  const uint64_t nlines = 1u << 20;
  std::mt19937_64 g(7);
  std::vector<uint64_t> s;
  /* Two sweeps of a 256k-line region with a random 1/4 re-touched: distances
   * spread over [0, 256k). */
  for (int pass = 0; pass < 3; pass++)
    for (uint64_t l = 0; l < (1u << 18); l++) {
      s.push_back(l);
      if (g() % 4 == 0) s.push_back(g() % (1u << 18));
    }
  const std::vector<uint64_t> sizes = {1u << 15, 1u << 17, 1u << 19};
  ReuseCounter exact(nlines, sizes, 1.0), sampled(nlines, sizes, 0.125);
  for (uint64_t x : s) {
    exact.access(x);
    sampled.access(x);
  }
  const std::vector<double> e = exact.misses(), a = sampled.misses();
  for (size_t k = 0; k < sizes.size(); k++) {
    assert_true(e[k] > 0);
    assert_true(std::fabs(a[k] / e[k] - 1) < 0.05);
  }
  assert_true(std::fabs(sampled.cold() / exact.cold() - 1) < 0.05);
}

void test_schedules_cover_once(void **) {
  if (tsan_single_threaded()) return; /* the model: sequential code */
  const size_t ns[] = {0, 1, 1000, 12345};
  for (size_t n : ns)
    for (Mode mode : {Mode::Seq, Mode::NoWin, Mode::Static, Mode::Sliding})
      for (int p : {1, 2, 3, 7})
        for (size_t m : {(size_t)0, (size_t)100, (size_t)4096})
          for (size_t chunk : {(size_t)1, (size_t)64}) {
            ScheduleModel s;
            s.mode = mode;
            s.workers = p;
            s.window = m;
            s.chunk = chunk;
            std::vector<Piece> pieces;
            assert_int_equal(model_schedule(n, s, &pieces), 0);
            std::vector<int> seen(n, 0);
            for (const Piece &x : pieces) {
              assert_true(x.begin < x.end && x.end <= n);
              assert_true(x.end - x.begin <= chunk);
              assert_true(x.worker >= 0 && x.worker < (mode == Mode::Seq ? 1 : p));
              for (size_t c = x.begin; c < x.end; c++) seen[c]++;
            }
            for (int v : seen) assert_int_equal(v, 1);
            /* The window modes run the windows of m cells one after the
             * other: every piece in one window, windows in order. */
            if ((mode == Mode::Static || mode == Mode::Sliding) && m) {
              size_t w = 0;
              for (const Piece &x : pieces) {
                assert_int_equal(x.begin / m, (x.end - 1) / m);
                assert_true(x.begin / m >= w);
                w = x.begin / m;
              }
            }
          }
  ScheduleModel bad;
  bad.workers = 0;
  std::vector<Piece> pieces;
  assert_int_equal(model_schedule(10, bad, &pieces), -EINVAL);
  /* nowin on 2 workers: the second block starts at n/2. */
  ScheduleModel nw;
  nw.mode = Mode::NoWin;
  nw.workers = 2;
  nw.chunk = 10;
  assert_int_equal(model_schedule(1000, nw, &pieces), 0);
  assert_int_equal(pieces[0].begin, 0);
  assert_int_equal(pieces[1].begin, 500);
  assert_int_equal(pieces[1].worker, 1);
}

Mesh grid_mesh(int64_t nx, int64_t ny, int64_t nz, Order order) {
  Grid g;
  g.np[0] = nx + 1;
  g.np[1] = ny + 1;
  g.np[2] = nz + 1;
  g.field = Field::Sphere;
  Mesh m;
  std::string err;
  assert_int_equal(tetrahedralize_grid(g, Split::Five, order, 1, &m, &err), 0);
  return m;
}

double predicted(const Mesh &m, Mode mode, int p, size_t window, uint64_t cache,
                 Kernel kernel = Kernel::Scalars) {
  ScheduleModel s;
  s.kernel = kernel;
  s.iso = 0.6;
  s.mode = mode;
  s.workers = p;
  s.window = window;
  MissPrediction r;
  assert_int_equal(predict_misses(m, s, {cache}, 0, &r), 0);
  assert_int_equal(r.misses.size(), 1);
  assert_true(r.misses[0] >= r.cold);
  return r.misses[0];
}

void test_prediction_orders_modes(void **) {
  if (tsan_single_threaded()) return; /* the model: sequential code */
  /* Lexicographic 48x48x16: a z-slab of cells and their scalars is about
   * 48*48*(5*16 + 8) B = 203 KB. 512 KiB holds one worker's slab, not four
   * workers' at distant places. What a slab leaves for the next is its
   * scalars only, 1/11 of the lines: no-window loses at most that. */
  const Mesh lex = grid_mesh(48, 48, 16, Order::Lex);
  const uint64_t small = 1u << 19, cache = 1u << 20;
  const double seq = predicted(lex, Mode::Seq, 1, 0, small);
  const double nowin = predicted(lex, Mode::NoWin, 4, 0, small);
  const double stat = predicted(lex, Mode::Static, 4, 8192, small);
  /* The cells, the scalars and the surface written (the positions of
   * crossed cells only). */
  Surface out;
  std::string err;
  assert_int_equal(extract(lex, 0.6, Mode::Seq, AdaptOptions(), &out, nullptr, &err), 0);
  const double lines =
      (double)(lex.tets.size() * sizeof(Tet) + lex.scalars.size() * sizeof(double) +
               24 * out.ntris() + 24 * out.nverts()) /
      64;
  std::printf("scalars, 512 KiB, 4 workers: seq %.0f nowin %.0f static %.0f (lines %.0f)\n", seq,
              nowin, stat, lines);
  assert_true(seq >= 0.95 * lines && seq <= 1.1 * lines); /* cold misses, little else */
  assert_true(nowin > 1.05 * seq);
  assert_true(stat < 1.03 * seq);
  /* The classification pass leaves a byte per point to the cell phase:
   * no-window's excess all but vanishes. */
  const double cseq = predicted(lex, Mode::Seq, 1, 0, cache, Kernel::Classified);
  const double cnowin = predicted(lex, Mode::NoWin, 4, 0, cache, Kernel::Classified);
  std::printf("classified, 1 MiB, 4 workers: seq %.0f nowin %.0f\n", cseq, cnowin);
  assert_true(cnowin < 1.03 * cseq && cnowin >= cseq * 0.99);
  /* Points numbered at random, a cache smaller than the scalars (326 KB):
   * every mode misses far more than on the lexicographic numbering, and
   * no mode recovers the locality the numbering lost (each worker reads
   * scattered scalars whatever its share). */
  Mesh shuffled = lex;
  std::vector<int64_t> perm(lex.pts.size());
  for (size_t i = 0; i < perm.size(); i++) perm[i] = (int64_t)i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(3));
  for (size_t i = 0; i < perm.size(); i++) {
    shuffled.pts[(size_t)perm[i]] = lex.pts[i];
    shuffled.scalars[(size_t)perm[i]] = lex.scalars[i];
  }
  for (Tet &t : shuffled.tets)
    for (uint32_t &v : t.v) v = (uint32_t)perm[(size_t)v];
  const uint64_t tiny = 1u << 18;
  const double lseq = predicted(lex, Mode::Seq, 1, 0, tiny);
  const double rseq = predicted(shuffled, Mode::Seq, 1, 0, tiny);
  const double rnowin = predicted(shuffled, Mode::NoWin, 4, 0, tiny);
  const double rstat = predicted(shuffled, Mode::Static, 4, 8192, tiny);
  std::printf("scalars, random points, 256 KiB, 4 workers: seq %.0f nowin %.0f static %.0f "
              "(lexicographic seq %.0f)\n",
              rseq, rnowin, rstat, lseq);
  for (double r : {rseq, rnowin, rstat}) assert_true(r > 1.3 * lseq);
  /* A cache holding the whole mesh: cold misses only, whatever the mode. */
  const uint64_t big = 64u << 20;
  assert_true(
      std::fabs(predicted(lex, Mode::NoWin, 4, 0, big) / predicted(lex, Mode::Seq, 1, 0, big) - 1) <
      1e-9);
  /* Errors. */
  ScheduleModel s;
  MissPrediction r;
  assert_int_equal(predict_misses(lex, s, {}, 0, &r), -EINVAL);
  assert_int_equal(predict_misses(lex, s, {0}, 0, &r), -EINVAL);
  assert_int_equal(predict_misses(lex, s, {cache}, 1.5, &r), -EINVAL);
  /* The default rate: exact for this small mesh, sampled for a large one. */
  assert_true(default_sample_rate(lex, cache) == 1.0);
}

void test_record_positions(void **) {
  const Mesh m = grid_mesh(32, 32, 8, Order::Lex);
  AdaptOptions opt;
  opt.window_size = 4096;
  std::string err;
  for (Mode mode : {Mode::NoWin, Mode::Static, Mode::Sliding}) {
    std::vector<PositionEvent> ev;
    assert_int_equal(record_positions(m, 0.6, mode, opt, &ev, &err), 0);
    std::vector<int> seen(m.tets.size(), 0);
    uint64_t t = 0;
    for (const PositionEvent &e : ev) {
      assert_true(e.begin < e.end && e.end <= m.tets.size());
      assert_true(e.worker >= 0 && e.worker < adapt_num_workers());
      assert_true(e.t_ns >= t); /* sorted by time */
      t = e.t_ns;
      for (size_t c = e.begin; c < e.end; c++) seen[c]++;
    }
    for (int v : seen) assert_int_equal(v, 1);
  }
  std::vector<PositionEvent> ev;
  assert_int_equal(record_positions(m, 0.6, Mode::Seq, opt, &ev, &err), -EINVAL);
  char path[] = "/tmp/test_locality_posXXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(record_positions(m, 0.6, Mode::NoWin, opt, &ev, &err), 0);
  assert_int_equal(append_positions_csv(path, Mode::NoWin, 0, ev), 0);
  assert_int_equal(append_positions_csv(path, Mode::Static, 4096, ev), 0);
  std::ifstream in(path);
  std::string line;
  size_t lines = 0, headers = 0, windows = 0;
  while (std::getline(in, line)) {
    lines++;
    headers += line == "mode,worker,begin,end,t_ns,window";
    windows += line.size() > 5 && line.compare(line.size() - 5, 5, ",4096") == 0;
  }
  assert_int_equal(headers, 1);
  assert_int_equal(lines, 1 + 2 * ev.size());
  assert_int_equal(windows, ev.size()); /* the static run's lines */
  unlink(path);
  assert_int_equal(append_positions_csv("/nonexistent-dir/x.csv", Mode::NoWin, 0, ev), -ENOENT);
}

/* ---- Against cachesim.sh (valgrind) ------------------------------------ */

/* Valgrind cannot run a sanitized binary: the sanitizer variants of
 * `make test` leave this comparison to the release variant (see main). */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define ISO_LTEST_CACHESIM 1
std::string run_output(const std::string &cmd) {
  FILE *p = popen(cmd.c_str(), "r");
  assert_non_null(p);
  std::string out;
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, k);
  assert_int_equal(pclose(p), 0);
  return out;
}

void test_against_cachesim(void **) {
  /* scripts/deps.sh installs valgrind for `make test`: its absence fails. */
  assert_int_equal(std::system("command -v valgrind >/dev/null 2>&1"), 0);
  const std::string bin = ISO_TEST_BIN;
  char dir[] = "/tmp/test_localityXXXXXX";
  assert_non_null(mkdtemp(dir));
  const std::string d = dir;
  /* 64x64x12 hexahedra (245,760 cells, 10 MiB): a z-slab of cells is 786
   * KB; the simulated last-level cache of 1 MiB holds one worker's slab, not
   * two. Random order: nothing is reused in the cache, every mode alike. */
  for (const char *order : {"lex", "random"}) {
    std::string mesh =
        std::string("--generate 64x64x12 --field sphere --order ") + order + " --workers 2";
    mesh += " --reorder none"; /* auto would renumber the random order */
    const std::string pred = d + "/pred-" + order + ".csv", sim = d + "/sim-" + order + ".csv";
    run_output(bin + " " + mesh +
               " --mode seq,nowin,sliding --reps 1 --events none --quiet --predict-misses"
               " --cache-bytes 1048576 --csv " +
               pred);
    run_output("ISO_SIM_LL=1048576,16,64 ISO_SIM_MODES='seq nowin sliding' bash " ISO_CACHESIM " " +
               bin + " " + sim + " " + mesh);
    const auto p = csv_column(pred, "predicted_ll_misses");
    const auto s = csv_column(sim, "LL_misses");
    for (const char *mode : {"seq", "nowin", "sliding"}) {
      assert_true(p.count(mode) && s.count(mode));
      const double rel = p.at(mode) / s.at(mode);
      std::printf("%-7s %-8s predicted %10.0f simulated %10.0f ratio %.3f\n", order, mode,
                  p.at(mode), s.at(mode), rel);
      assert_true(rel > 0.8 && rel < 1.2);
    }
  }
  std::system(("rm -rf " + d).c_str());
}
#endif

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exact_equals_lru),     cmocka_unit_test(test_sampled_close),
      cmocka_unit_test(test_schedules_cover_once), cmocka_unit_test(test_prediction_orders_modes),
      cmocka_unit_test(test_record_positions),
#ifdef ISO_LTEST_CACHESIM
      cmocka_unit_test(test_against_cachesim),
#endif
  };
  return run_tests_and_finalize(tests);
}
