/* apps/isosurface/core: the reuse-distance model and the position recorder (see
 * locality.h and docs/locality.md). */
#include "locality.h"

#include "cell_phase.h"
#include "iso_config.h"

#include <adapt/adapt.h>
#include <adapt/algorithms.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <unordered_set>

namespace iso {

/* ---- The schedules --------------------------------------------------- */

namespace {

/* Blocks [lo[k], hi[k]) advancing together chunk by chunk, appended to out
 * in time order: one chunk of each block per round. */
void interleave(const std::vector<size_t> &lo, const std::vector<size_t> &hi, size_t chunk,
                std::vector<Piece> *out) {
  std::vector<size_t> pos = lo;
  for (bool more = true; more;) {
    more = false;
    for (size_t k = 0; k < pos.size(); k++) {
      if (pos[k] >= hi[k]) continue;
      const size_t e = std::min(hi[k], pos[k] + chunk);
      out->push_back({pos[k], e, (int)k});
      pos[k] = e;
      more |= e < hi[k];
    }
  }
}

/* [b, e) cut into p blocks of nearly equal size, advancing together. */
void split_together(size_t b, size_t e, int p, size_t chunk, std::vector<Piece> *out) {
  std::vector<size_t> lo((size_t)p), hi((size_t)p);
  const size_t len = e - b;
  for (int k = 0; k < p; k++) {
    lo[(size_t)k] = b + len * (size_t)k / (size_t)p;
    hi[(size_t)k] = b + len * (size_t)(k + 1) / (size_t)p;
  }
  interleave(lo, hi, chunk, out);
}

} // namespace

int model_schedule(size_t n, const ScheduleModel &s, std::vector<Piece> *out) {
  if (s.workers < 1) return -EINVAL;
  out->clear();
  const size_t chunk = s.chunk ? s.chunk : ISO_LOCALITY_CHUNK;
  const int p = s.mode == Mode::Seq ? 1 : s.workers;
  if (n == 0) return 0;
  if (s.mode == Mode::Seq || s.mode == Mode::NoWin) {
    split_together(0, n, p, chunk, out);
    return 0;
  }
  const size_t m = s.window ? std::min(s.window, n) : n;
  for (size_t b = 0; b < n; b += m) split_together(b, std::min(n, b + m), p, chunk, out);
  return 0;
}

int parse_kernel(const std::string &name, Kernel *out) {
  if (name == "classified")
    *out = Kernel::Classified;
  else if (name == "scalars")
    *out = Kernel::Scalars;
  else
    return -EINVAL;
  return 0;
}

ScheduleModel schedule_of(Mode mode, int workers, const AdaptOptions &opt, double iso) {
  ScheduleModel s;
  s.iso = iso;
  s.mode = mode;
  s.workers = mode == Mode::Seq ? 1 : std::max(1, workers);
  if (mode == Mode::Static || mode == Mode::Sliding)
    s.window = (opt.window_size + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK * ISO_CELL_BLOCK;
  return s;
}

/* ---- Reuse distances ------------------------------------------------- */

namespace {

uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr uint64_t kNone = UINT64_MAX;
constexpr size_t kMinCap = 1u << 16;
constexpr size_t kMaxCap = (size_t)1 << 31; /* times are 32-bit */

} // namespace

ReuseCounter::ReuseCounter(uint64_t nlines, const std::vector<uint64_t> &cache_lines, double rate)
    : rate_(rate > 0 && rate <= 1 ? rate : 1) {
  threshold_ = rate_ >= 1 ? (uint64_t)1 << 24 : (uint64_t)std::ceil(rate_ * (double)(1u << 24));
  order_.resize(cache_lines.size());
  for (size_t k = 0; k < order_.size(); k++) order_[k] = k;
  std::sort(order_.begin(), order_.end(),
            [&](size_t a, size_t b) { return cache_lines[a] < cache_lines[b]; });
  for (size_t k : order_) limits_.push_back((double)cache_lines[k] * rate_);
  count_ge_.assign(limits_.size() + 1, 0);
  last_.assign(nlines, 0);
  const double expect = (double)nlines * rate_ * 1.1 + 1024;
  size_t cap = kMinCap;
  while ((double)cap < 2 * expect && cap < kMaxCap) cap *= 2;
  tree_.assign(cap + 1, 0);
  who_.assign(cap + 1, kNone);
}

bool ReuseCounter::sampled(uint64_t line) const {
  return rate_ >= 1 || (mix64(line) >> 40) < threshold_;
}

void ReuseCounter::add(size_t t, int32_t v) {
  for (; t < tree_.size(); t += t & (~t + 1)) tree_[t] += v;
}

int64_t ReuseCounter::prefix(size_t t) const {
  int64_t s = 0;
  for (; t; t -= t & (~t + 1)) s += tree_[t];
  return s;
}

void ReuseCounter::access(uint64_t line) {
  accesses_++;
  if (!sampled(line)) return;
  const uint32_t t0 = last_[line];
  if (t0 == 0) {
    cold_++;
  } else {
    /* Distinct lines touched since: the marks after t0. */
    const double d = (double)((int64_t)live_ - prefix(t0));
    const size_t k =
        (size_t)(std::upper_bound(limits_.begin(), limits_.end(), d) - limits_.begin());
    count_ge_[k]++;
    add(t0, -1);
    who_[t0] = kNone;
    live_--;
  }
  if (now_ + 1 >= tree_.size()) compact();
  now_++;
  add(now_, 1);
  who_[now_] = line;
  last_[line] = (uint32_t)now_;
  live_++;
}

/* Renumber the live marks 1..live_ in time order (growing the tree when
 * they fill more than half of it), and rebuild the tree: O(cap). */
void ReuseCounter::compact() {
  size_t cap = tree_.size() - 1;
  if (2 * live_ > cap && cap < kMaxCap) cap *= 2;
  std::vector<uint64_t> who(cap + 1, kNone);
  size_t k = 0;
  for (size_t t = 1; t <= now_; t++)
    if (who_[t] != kNone) {
      who[++k] = who_[t];
      last_[who_[t]] = (uint32_t)k;
    }
  who_.swap(who);
  now_ = k;
  tree_.assign(cap + 1, 0);
  /* All ones on 1..k: node i covers (i - lowbit(i), i]. */
  for (size_t i = 1; i <= cap; i++) {
    const size_t lo = i - (i & (~i + 1));
    tree_[i] = (int32_t)(std::min(i, k) > lo ? std::min(i, k) - lo : 0);
  }
}

std::vector<double> ReuseCounter::misses() const {
  std::vector<double> out(limits_.size());
  uint64_t above = 0; /* reuses with more than j limits at or below their distance */
  for (size_t j = limits_.size(); j-- > 0;) {
    above += count_ge_[j + 1];
    out[order_[j]] = (double)(cold_ + above) / rate_;
  }
  return out;
}

/* ---- The prediction --------------------------------------------------- */

namespace {

/* The 64-byte lines of an array, numbered from `first`. */
struct LineMap {
  uintptr_t lo = 0;
  uint64_t first = 0, count = 0;
  LineMap(const void *base, size_t bytes, uint64_t first_id) : first(first_id) {
    const uintptr_t a = (uintptr_t)base;
    lo = a >> 6;
    count = bytes ? ((a + bytes - 1) >> 6) - lo + 1 : 0;
  }
  uint64_t line(uintptr_t addr) const { return first + ((addr >> 6) - lo); }
};

/* Triangles of a cell with `in` points inside (1, or 2 with two points
 * inside, 0 when none or all are). */
inline int tris_of(int in) { return in == 0 || in == 4 ? 0 : in == 2 ? 2 : 1; }

/* Points of t inside (scalar >= iso). */
inline int inside_points(const double *sc, const Tet &t, double iso) {
  int in = 0;
  for (int v = 0; v < 4; v++) in += sc[t.v[v]] >= iso;
  return in;
}

/* The lines the modelled extraction touches, each array's numbered after
 * the previous one's: the cells, the points, the scalars, the inside bytes
 * and owner[] (2 bytes a point, set by the same pass: their own
 * line-aligned arrays; classified only), the triangles' keys, the
 * surface. */
struct LineLayout {
  LineMap tl, pl, sl;
  uint64_t in_first, own_first, key_first = 0, out_first = 0, out_lines = 0;
  /* A crossed cell's triangles (1, or 2 with two points inside) are
   * written as three 8-byte keys each, appended to its worker's chunks:
   * one stream per worker, laid out one after the other; key_at[w]: the
   * next byte of worker w's stream. */
  std::vector<uint64_t> key_at;
  LineLayout(const Mesh &m, bool classified)
      : tl(m.tets.data(), m.tets.size() * sizeof(Tet), 0),
        pl(m.pts.data(), m.pts.size() * sizeof(Point), tl.count),
        sl(m.scalars.data(), m.scalars.size() * sizeof(double), tl.count + pl.count),
        in_first(tl.count + pl.count + sl.count),
        own_first(in_first + (classified ? (m.pts.size() + 63) / 64 : 0)) {
    key_first = own_first + (classified ? (2 * m.pts.size() + 63) / 64 : 0);
  }
};

/* The key streams of the cell pieces (classified: else empty streams),
 * then the surface the merge writes (the only part of the merge modelled):
 * 3 ids of 8 bytes a triangle and 3 doubles a vertex, each line a first
 * touch, after the cell phase. */
void layout_outputs(const Mesh &m, const ScheduleModel &s, const std::vector<Piece> &pieces,
                    bool classified, LineLayout *L) {
  const Tet *tets = m.tets.data();
  const Point *pts = m.pts.data();
  const double *sc = m.scalars.data();
  L->key_at.assign((size_t)s.workers + 1, 0); /* bytes */
  if (classified) {
    for (const Piece &p : pieces)
      for (size_t c = p.begin; c < p.end; c++)
        L->key_at[(size_t)p.worker + 1] +=
            24 * (uint64_t)tris_of(inside_points(sc, tets[c], s.iso));
    for (size_t w = 1; w < L->key_at.size(); w++) L->key_at[w] += L->key_at[w - 1] + 64;
  }
  uint64_t ntris = 0;
  std::unordered_set<uint64_t> verts;
  for (const Tet &t : m.tets) {
    TriRec rec[2];
    const size_t k = mt_cell(pts, sc, t, s.iso, rec);
    ntris += k;
    for (size_t r = 0; r < k; r++)
      for (const EdgeKey &e : rec[r].e) verts.insert((uint64_t)e.a << 32 | (uint64_t)e.b);
  }
  L->out_first = L->key_first + (L->key_at.back() + 63) / 64;
  L->out_lines = (24 * ntris + 63) / 64 + (24 * (uint64_t)verts.size() + 63) / 64;
}

/* Both lines of a record of `bytes` at a when it straddles two. */
inline void touch(ReuseCounter &rc, const LineMap &lm, uintptr_t a, size_t bytes) {
  const uint64_t l0 = lm.line(a), l1 = lm.line(a + bytes - 1);
  rc.access(l0);
  if (l1 != l0) rc.access(l1);
}

/* The classification pass's accesses: scalars, inside bytes, owner[]. */
void replay_points(ReuseCounter &rc, const LineLayout &L, const std::vector<Piece> &ppieces,
                   const double *sc) {
  for (const Piece &p : ppieces)
    for (size_t i = p.begin; i < p.end; i++) {
      rc.access(L.sl.line((uintptr_t)&sc[i]));
      rc.access(L.in_first + i / 64);
      rc.access(L.own_first + i / 32);
    }
}

/* The cell phase's accesses, piece after piece; L.key_at advances. */
void replay_cells(ReuseCounter &rc, LineLayout &L, const Mesh &m, const ScheduleModel &s,
                  const std::vector<Piece> &pieces, bool classified) {
  const Tet *tets = m.tets.data();
  const Point *pts = m.pts.data();
  const double *sc = m.scalars.data();
  for (const Piece &p : pieces)
    for (size_t c = p.begin; c < p.end; c++) {
      const Tet &t = tets[c];
      touch(rc, L.tl, (uintptr_t)&t, sizeof(Tet));
      if (!classified) {
        /* mt_cell reads the scalars, the coordinates only of the points
         * of crossed cells (a small minority: not modelled). */
        for (int v = 0; v < 4; v++) rc.access(L.sl.line((uintptr_t)&sc[t.v[v]]));
        continue;
      }
      int in = 0;
      for (int v = 0; v < 4; v++) {
        rc.access(L.in_first + (uint64_t)t.v[v] / 64);
        in += sc[t.v[v]] >= s.iso;
      }
      if (in != 0 && in != 4) {
        for (int v = 0; v < 4; v++) {
          touch(rc, L.pl, (uintptr_t)&pts[t.v[v]], sizeof(Point));
          rc.access(L.sl.line((uintptr_t)&sc[t.v[v]]));
        }
        uint64_t &at = L.key_at[(size_t)p.worker];
        const uint64_t bytes = 24 * (uint64_t)tris_of(in);
        for (uint64_t l = (at + 63) / 64; l < (at + bytes + 63) / 64; l++)
          rc.access(L.key_first + l);
        at += bytes;
      }
    }
}

/* The modelled schedules: the cell phase's pieces, and for the classified
 * kernel the classification pass's (adapt_for over the points; seq: a
 * loop). 0 or the error of model_schedule. */
int model_pieces(const Mesh &m, const ScheduleModel &s, std::vector<Piece> *pieces,
                 std::vector<Piece> *ppieces) {
  int rc = model_schedule(m.tets.size(), s, pieces);
  if (rc || s.kernel != Kernel::Classified) return rc;
  ScheduleModel ps = s;
  ps.mode = s.mode == Mode::Seq ? Mode::Seq : Mode::NoWin;
  return model_schedule(m.pts.size(), ps, ppieces);
}

} // namespace

double default_sample_rate(const Mesh &m, uint64_t smallest_cache_bytes) {
  const double lines = (double)mesh_bytes(m) / 64;
  if (lines <= (double)ISO_LOCALITY_EXACT_LINES) return 1;
  double r = (double)ISO_LOCALITY_EXACT_LINES / lines;
  const double cache_lines = std::max(1.0, (double)smallest_cache_bytes / 64);
  r = std::max(r, (double)ISO_LOCALITY_MIN_SAMPLED_LINES / cache_lines);
  return std::min(1.0, r);
}

int predict_misses(const Mesh &m, const ScheduleModel &s, const std::vector<uint64_t> &cache_bytes,
                   double rate, MissPrediction *out) {
  if (cache_bytes.empty() || s.workers < 1 || !(rate >= 0 && rate <= 1)) return -EINVAL;
  std::vector<uint64_t> lines;
  for (uint64_t b : cache_bytes) {
    if (b == 0) return -EINVAL;
    lines.push_back(std::max<uint64_t>(1, b / 64));
  }
  if (rate == 0)
    rate = default_sample_rate(m, *std::min_element(cache_bytes.begin(), cache_bytes.end()));
  std::vector<Piece> pieces, ppieces;
  if (const int rc = model_pieces(m, s, &pieces, &ppieces)) return rc;
  const bool classified = s.kernel == Kernel::Classified;
  try {
    LineLayout layout(m, classified);
    layout_outputs(m, s, pieces, classified, &layout);
    ReuseCounter rc_lines(layout.out_first + layout.out_lines, lines, rate);
    replay_points(rc_lines, layout, ppieces, m.scalars.data());
    replay_cells(rc_lines, layout, m, s, pieces, classified);
    for (uint64_t l = 0; l < layout.out_lines; l++) rc_lines.access(layout.out_first + l);
    MissPrediction r;
    r.accesses = (double)rc_lines.accesses();
    r.cold = rc_lines.cold();
    r.misses = rc_lines.misses();
    r.rate = rc_lines.rate();
    *out = std::move(r);
  } catch (const std::bad_alloc &) {
    return -ENOMEM;
  }
  return 0;
}

/* ---- The recorder of positions --------------------------------------- */

namespace {

uint64_t now_ns() {
  return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct RecCtx {
  CellInput cells;
  uint64_t t0;
  std::vector<std::vector<PositionEvent>> *per_worker; /* each worker appends to its own */
};

size_t rec_block(const void *in, void *out, void *ctx) {
  const RecCtx *c = static_cast<const RecCtx *>(ctx);
  const Tet *first = static_cast<const Tet *>(in);
  const size_t start = (size_t)(first - c->cells.tets);
  const size_t n = std::min<size_t>(ISO_CELL_BLOCK, c->cells.ntets - start);
  const uint64_t t = now_ns() - c->t0;
  TriRec *o = static_cast<TriRec *>(out);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += mt_cell(c->cells.pts, c->cells.sc, first[i], c->cells.iso, o + k);
  const int w = adapt_worker_id();
  /* Capacity reserved for every block: no allocation here. */
  if (w >= 0 && (size_t)w < c->per_worker->size())
    (*c->per_worker)[(size_t)w].push_back({w, start, start + n, t});
  return k;
}

} // namespace

int record_positions(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt,
                     std::vector<PositionEvent> *out, std::string *err) {
  if (mode == Mode::Seq) {
    *err = "record_positions: the sequential mode has one worker, nothing to record";
    return -EINVAL;
  }
  const size_t nblocks = (m.tets.size() + ISO_CELL_BLOCK - 1) / ISO_CELL_BLOCK;
  const int nw = adapt_num_workers();
  if (nw < 1) {
    *err = std::string("record_positions: ") + adapt_last_error();
    return -EINVAL;
  }
  std::vector<std::vector<PositionEvent>> per_worker;
  try {
    per_worker.resize((size_t)nw);
    for (auto &v : per_worker) v.reserve(nblocks);
  } catch (const std::bad_alloc &) {
    *err = "record_positions: out of memory";
    return -ENOMEM;
  }
  const adapt_attr attr = cell_phase_attr(m, mode, opt); /* the extraction's schedule */
  adapt_vec vec;
  std::memset(&vec, 0, sizeof vec);
  vec.elem_size = sizeof(TriRec);
  RecCtx ctx{cell_input(m, iso), now_ns(), &per_worker};
  const int rc = adapt_transform_var(m.tets.data(), nblocks, ISO_CELL_BLOCK * sizeof(Tet), &vec,
                                     2 * ISO_CELL_BLOCK, rec_block, &ctx, &attr);
  free(vec.data);
  if (rc) {
    *err = std::string("record_positions: adapt_transform_var: ") + adapt_strerror(rc);
    return rc;
  }
  /* Consecutive blocks of a worker within ISO_LOCALITY_POSITION_NS of the
   * first: one event. */
  out->clear();
  for (const auto &v : per_worker)
    for (const PositionEvent &e : v) {
      if (!out->empty()) {
        PositionEvent &b = out->back();
        if (b.worker == e.worker && b.end == e.begin &&
            e.t_ns - b.t_ns < ISO_LOCALITY_POSITION_NS) {
          b.end = e.end;
          continue;
        }
      }
      out->push_back(e);
    }
  std::sort(out->begin(), out->end(),
            [](const PositionEvent &a, const PositionEvent &b) { return a.t_ns < b.t_ns; });
  return 0;
}

int append_positions_csv(const std::string &path, Mode mode, size_t window,
                         const std::vector<PositionEvent> &events) {
  FILE *f = std::fopen(path.c_str(), "a");
  if (!f) return -errno;
  if (std::fseek(f, 0, SEEK_END) == 0 && std::ftell(f) == 0)
    std::fprintf(f, "mode,worker,begin,end,t_ns,window\n");
  for (const PositionEvent &e : events)
    std::fprintf(f, "%s,%d,%zu,%zu,%llu,%zu\n", mode_name(mode), e.worker, e.begin, e.end,
                 (unsigned long long)e.t_ns, window);
  const int bad = std::ferror(f);
  if (std::fclose(f) != 0 || bad) return -EIO;
  return 0;
}

} // namespace iso
