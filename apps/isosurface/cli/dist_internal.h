/* apps/isosurface/cli: what the files of the distributed run share (dist.cpp
 * the phases, dist_gids.cpp the global vertex numbering, dist_report.cpp
 * rank 0's report). Internal to the app; MPI's header included.
 * Calling context: the main thread only (MPI_THREAD_FUNNELED: libadapt's
 * workers never call MPI); nothing here is thread-safe. */
#ifndef APPS_ISOSURFACE_CLI_DIST_INTERNAL_H
#define APPS_ISOSURFACE_CLI_DIST_INTERNAL_H

#include "dist.h"
#include "mt.h"

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace iso {
namespace dist {

/* main()'s exit codes. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_EMPTY = 3, EXIT_RUN = 5 };

struct World {
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;
};

/* The collective after each phase: code 0 on this rank, or its error. If
 * any rank failed, every rank prints the first failing rank's message,
 * and the job ends with that rank's exit code (dist.cpp). */
void agree(const World &w, int code, const std::string &msg);

/* What each rank sends rank 0 (plain data, gathered as bytes). */
struct RankFigures {
  int64_t first_piece = 0, last_piece = 0, cells = 0, points = 0, tris = 0, verts = 0;
  double area = 0;
  double t_read = 0, t_reorder = 0, t_extract = 0, t_cells = 0, t_merge = 0, t_gmerge = 0,
         t_write = 0, t_total = 0;
  /* CPU seconds of the phases: the main thread's (read, global merge,
   * write), the process's (reorder, extract: all workers). Robust to a
   * loaded machine, where the wall-clock times stretch. */
  double c_read = 0, c_reorder = 0, c_extract = 0, c_gmerge = 0, c_write = 0;
  /* Memory, bytes: RSS before reading (MPI and the libraries started), the
   * peak RSS (of the whole run), the data the rank holds: its mesh share
   * and its surface in the app's layout (data_bytes()). The target:
   * (rss_peak - rss_base) / data_bytes <= 1.3. */
  double rss_base = 0, rss_peak = 0, data_bytes = 0;
  double peak_read = 0, peak_extract = 0;   /* peak RSS at the end of these phases */
  double smin = INFINITY, smax = -INFINITY; /* scalar range */
  int workers = 0, pus = 0;
  int global_ids = 0; /* 1: the mesh share came with global point ids */
  char cpus[48] = {0};
  char reorder[16] = {0}; /* the curve applied (--reorder), "none" */
};

/* Rank 0: the per-rank table, the phase table, the global figures, the
 * memory line, and the pieces of the .pvtp written (dist_report.cpp). */
void report(const World &w, const DistOptions &o, size_t npieces,
            const std::vector<RankFigures> &all, uint64_t gverts, const std::string &notes);

/* Rank 0: the per-rank figures as CSV in o.csv (a message if it cannot be
 * written). */
void write_csv(const DistOptions &o, const std::vector<RankFigures> &all);

/* "out_0.vtp, out_2.vtp to out_4.vtp": the pieces of the .pvtp at path
 * that VTK's parallel writer writes, those of the ranks with a triangle
 * (it writes no file for an empty piece and leaves it out of the index);
 * runs of consecutive pieces shortened. */
std::string written_pieces(const std::string &path, const std::vector<RankFigures> &all);

/* The global vertex numbering (dist_gids.cpp). A vertex is identified
 * across ranks by the global ids of the two ends of its mesh edge (of its
 * mesh point when it falls on one), or by its exact coordinates when the
 * pieces have no global ids (mt.h interpolates from the end with the
 * smaller scalar: both sides compute the same bits). Each key goes to the
 * rank its hash names (its owner), which numbers the distinct keys it
 * receives after an MPI_Exscan of the counts and answers each rank.
 *
 * Step 1, the mesh still there: the key of each vertex of *s (s->keys, as
 * extract() fills them with AdaptOptions::vertex_keys: packed local point
 * pairs; gids: the mesh points' global ids, or null for coordinates) into
 * *send, grouped by owner, *scount per owner; s->keys[v] becomes v's
 * position in *send. -EOVERFLOW (message in *err) when a count does not
 * fit MPI's ints. Not collective. */
struct VertexKey {
  uint64_t k[3];
};
int vertex_keys_by_owner(const World &w, const int64_t *gids, Surface *s,
                         std::vector<VertexKey> *send, std::vector<int> *scount, std::string *err);

/* Step 2, collective (send and scount of step 1, released on the way):
 * s->keys[v] becomes v's global id in [0, *total), *total the distinct
 * vertices over all ranks. -EOVERFLOW a count over MPI's ints; the same
 * on every rank (agreed). */
int number_vertices(const World &w, std::vector<VertexKey> *send, std::vector<int> *scount,
                    Surface *s, uint64_t *total, std::string *err);

} // namespace dist
} // namespace iso

#endif /* APPS_ISOSURFACE_CLI_DIST_INTERNAL_H */
