/* apps/isosurface/core: the reuse-distance model of the cell phase's cache misses
 * (docs/locality.md), and the recorder of the workers' positions (the
 * picture of the workers in the sequence). No VTK here.
 *
 * The model: the workers of a mode touch the cells in an order given by the
 * mode's policy (model_schedule), each cell touching its 16-byte tetrahedron
 * and its four points' scalars (positions: see Kernel) (the mesh's own point ids, at their addresses in the mesh's arrays, so a
 * point numbering unrelated to the cell order shows). The interleaved stream of 64-byte lines goes through LRU stack
 * distances (Olken's Fenwick tree over the last-access times), and a fully
 * associative LRU cache of C lines misses every access at distance >= C plus
 * the first touches (paper §2.3). Large streams are sampled by line (SHARDS:
 * the lines whose hash falls below rate, distances divided by rate). The
 * cell phase is modelled, and of the vertex merge only the surface it
 * writes (each line a first touch). */
#ifndef APPS_ISOSURFACE_CORE_LOCALITY_H
#define APPS_ISOSURFACE_CORE_LOCALITY_H

#include "mesh.h"
#include "mt.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace iso {

/* What a cell reads.
 * Classified: the extraction's (cell_phase.cpp): a pass over the points first (each
 *   point's scalar read, one "inside" byte and its 2-byte owner entry
 *   written), then per cell its tetrahedron and the inside bytes of its four
 *   points (64 points per line), and only for a crossed cell the four
 *   points' 24-byte positions and 8-byte scalars and its triangles' keys
 *   (24 bytes each, appended to its worker's stream).
 * Scalars: the paper's §4 kernel (and this app's before the classification
 *   pass): per cell its tetrahedron and the scalar of each of its four
 *   points (the positions of crossed cells, a small minority, are not
 *   modelled). */
enum class Kernel { Classified, Scalars };

/* The schedule of one mode in the model: P workers progressing at the same
 * rate, interleaved chunk by chunk, and what each cell reads. */
struct ScheduleModel {
  Mode mode = Mode::Seq;
  int workers = 1;
  size_t window = 0; /* cells (static and sliding); 0: the whole sequence */
  size_t chunk = 0;  /* cells run by a worker before the next one's turn; 0: default */
  Kernel kernel = Kernel::Classified;
  double iso = 0; /* Classified: which cells are crossed */
};

/* A piece of a schedule: worker `worker` runs the cells [begin, end). */
struct Piece {
  size_t begin, end;
  int worker;
};

/* The pieces of the modelled schedule of n cells, in time order:
 * seq: one worker from 0 to n.
 * nowin: P contiguous blocks of n/P (work stealing's halvings with equal
 *   rates), all advancing together.
 * static: windows of m cells one after the other, each cut into P blocks of
 *   m/P advancing together.
 * sliding: as static: with equal rates, the sliding window's balanced
 *   splitter gives the thief the far half of the master's window and both
 *   finish it together before the master slides; it differs from static
 *   only when the workers' rates differ, which the model does not have.
 * Every cell is in exactly one piece. -EINVAL (workers < 1). */
int model_schedule(size_t n, const ScheduleModel &s, std::vector<Piece> *out);

/* LRU stack distances of a stream of line ids in [0, nlines), counting, for
 * each cache size C (lines), the accesses at distance >= C (misses of a fully
 * associative LRU cache of C lines, first touches included). rate in (0, 1]:
 * the fraction of lines sampled (1: exact). */
class ReuseCounter {
public:
  ReuseCounter(uint64_t nlines, const std::vector<uint64_t> &cache_lines, double rate);
  void access(uint64_t line);
  /* Estimated misses per cache size, in the order given. */
  std::vector<double> misses() const;
  uint64_t accesses() const { return accesses_; }
  double cold() const { return (double)cold_ / rate_; }
  double rate() const { return rate_; }

private:
  void compact();
  void add(size_t t, int32_t v);
  int64_t prefix(size_t t) const;
  bool sampled(uint64_t line) const;

  double rate_;
  uint64_t threshold_;             /* sampled iff hash(line) >> 40 < threshold_ */
  std::vector<double> limits_;     /* sampled-distance limit per size, ascending */
  std::vector<size_t> order_;      /* limits_[k] is the size order_[k] given */
  std::vector<uint64_t> count_ge_; /* count_ge_[k]: reuses with >= k limits below */
  std::vector<uint32_t> last_;     /* per line: last access time, 0 never */
  std::vector<int32_t> tree_;      /* Fenwick tree over times 1..cap */
  std::vector<uint64_t> who_;      /* line accessed at time t, or UINT64_MAX */
  size_t now_ = 0, live_ = 0;
  uint64_t accesses_ = 0, cold_ = 0;
};

/* The prediction for one schedule. */
struct MissPrediction {
  double accesses = 0;        /* line accesses of the cell phase */
  double cold = 0;            /* first touches */
  std::vector<double> misses; /* per cache size given, first touches included */
  double rate = 1;            /* the sampling rate used */
};

/* Sampling rate: 1 when the mesh's lines are at most ISO_LOCALITY_EXACT_LINES,
 * else that over the lines, raised so that the smallest cache keeps at least
 * ISO_LOCALITY_MIN_SAMPLED_LINES sampled lines. */
double default_sample_rate(const Mesh &m, uint64_t smallest_cache_bytes);

/* Misses of the cell phase of m under schedule s, for each cache size in
 * bytes (> 0), with sampling rate `rate` (0: default_sample_rate).
 * -EINVAL (no cache size, a size 0, rate outside [0, 1], workers < 1). */
int predict_misses(const Mesh &m, const ScheduleModel &s, const std::vector<uint64_t> &cache_bytes,
                   double rate, MissPrediction *out);

/* The schedule model of an extraction mode with the run's options: P
 * workers, window m cells (rounded up to ISO_CELL_BLOCK as the extraction
 * does). */
ScheduleModel schedule_of(Mode mode, int workers, const AdaptOptions &opt, double iso);

/* "classified" or "scalars": 0 and *out, or -EINVAL. */
int parse_kernel(const std::string &name, Kernel *out);

/* One chunk run by a worker in a recorded extraction: cells [begin, end),
 * started t_ns after the start of the cell phase. */
struct PositionEvent {
  int worker;
  size_t begin, end;
  uint64_t t_ns;
};

/* Run the cell phase of an adaptive mode (the same adapt_transform_var call
 * as extract(): blocks of ISO_CELL_BLOCK cells, the same window, grain and
 * splitter) and record which worker ran which block when. Outputs are
 * discarded. -EINVAL for Mode::Seq; -ENOMEM; the runtime's errors (message
 * in *err). */
int record_positions(const Mesh &m, double iso, Mode mode, const AdaptOptions &opt,
                     std::vector<PositionEvent> *out, std::string *err);

/* Append events as CSV lines "mode,worker,begin,end,t_ns,window" (with the
 * header when the file is new or empty); window: the mode's window in
 * cells, 0 for a mode without one (nowin). 0 or -errno. */
int append_positions_csv(const std::string &path, Mode mode, size_t window,
                         const std::vector<PositionEvent> &events);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_LOCALITY_H */
