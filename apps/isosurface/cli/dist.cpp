/* apps/isosurface/cli: the distributed run under MPI (see dist.h and
 * docs/distributed.md). Only the main thread calls MPI (MPI_THREAD_FUNNELED
 * is asked: libadapt's workers never do). */
#include "dist.h"
#include "iso_config.h"
#include "pieces.h"
#include "rank_share.h"
#include "vtk_convert.h"
#include "vtk_quiet.h"

#include <adapt/adapt.h>
#include <hwloc.h>
#include <mpi.h>

#include <vtkMPIController.h>
#include <vtkNew.h>
#include <vtkXMLPPolyDataWriter.h>

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace iso {

namespace {

/* main()'s exit codes. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_EMPTY = 3, EXIT_RUN = 5 };

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* CPU time of the calling thread, or of the whole process, seconds. */
double cpu_now(clockid_t clock) {
  struct timespec ts;
  return clock_gettime(clock, &ts) == 0 ? (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec : 0;
}

/* Resident set size now, bytes (0 if /proc is not there). */
double rss_now() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  long size = 0, resident = 0;
  const int n = std::fscanf(f, "%ld %ld", &size, &resident);
  std::fclose(f);
  return n == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) : 0;
}

/* Peak resident set size, bytes. */
double rss_peak() {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? 1024.0 * (double)ru.ru_maxrss : 0;
}

/* Give the memory freed by the last phase (the global-id table of the
 * read, the extraction's buffers) back to the system: glibc keeps freed
 * blocks in the arena of the thread that allocated them (the extraction's
 * are the workers'), where the next phase's allocations, from other
 * threads, would not reuse them, and RSS would add them up. */
void release_free_memory() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

struct World {
  int rank = 0, size = 1;
  int local_rank = 0, local_size = 1;
};

/* The collective after each phase: code 0 on this rank, or its error. If
 * any rank failed, every rank prints the first failing rank's message,
 * and the job ends with that rank's exit code. */
void agree(const World &w, int code, const std::string &msg) {
  int mine = code ? w.rank : INT_MAX, first = INT_MAX, nfailed = 0, failed = code != 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX) return;
  MPI_Allreduce(&failed, &nfailed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int head[2] = {code, (int)msg.size()};
  MPI_Bcast(head, 2, MPI_INT, first, MPI_COMM_WORLD);
  std::string text = w.rank == first ? msg : std::string((size_t)head[1], ' ');
  MPI_Bcast(&text[0], head[1], MPI_CHAR, first, MPI_COMM_WORLD);
  std::fprintf(stderr, "adapt-isosurface: rank %d of %d: stopping: rank %d: %s%s\n", w.rank, w.size,
               first, text.c_str(),
               nfailed > 1 ? (" (" + std::to_string(nfailed - 1) + " more rank(s) failed)").c_str()
                           : "");
  MPI_Finalize();
  std::exit(head[0]);
}

/* Bind this process to its share of its machine's cores (rank_share.h:
 * the node's ranks split the cores in contiguous shares, one core each,
 * shared, when there are more ranks than cores). libadapt, started after it, keeps to this
 * binding: one worker per PU of the share by default, each bound to one of
 * its PUs. *pus:
 * the PUs of the share; *cpus: their list; *note: why binding failed or
 * that the node is oversubscribed. */
void bind_share(const World &w, int *pus, std::string *cpus, std::string *note) {
  *pus = 1;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) {
    *note = "hwloc_topology_init failed: not bound";
    return;
  }
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    *note = "hwloc_topology_load failed: not bound";
    return;
  }
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  adapt_iso::rank_share(topo, w.local_rank, w.local_size, set, note);
  if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0)
    *note = std::string("hwloc_set_cpubind: ") + std::strerror(errno) + ": not bound";
  *pus = std::max(1, hwloc_bitmap_weight(set));
  char buf[64];
  hwloc_bitmap_list_snprintf(buf, sizeof buf, set);
  *cpus = buf;
  std::replace(cpus->begin(), cpus->end(), ',', '+'); /* one CSV field, one table column */
  hwloc_bitmap_free(set);
  hwloc_topology_destroy(topo);
}

/* What each rank sends rank 0 (plain data, gathered as bytes). */
struct RankFigures {
  int64_t first_piece = 0, last_piece = 0, cells = 0, points = 0, tris = 0, verts = 0;
  double area = 0;
  double t_read = 0, t_extract = 0, t_cells = 0, t_merge = 0, t_gmerge = 0, t_write = 0,
         t_total = 0;
  /* CPU seconds of the phases: the main thread's (read, global merge,
   * write), the process's per run (extract: all workers). Robust to a
   * loaded machine, where the wall-clock times stretch. */
  double c_read = 0, c_extract = 0, c_gmerge = 0, c_write = 0;
  /* Memory, bytes: RSS before reading (MPI and the libraries started), the
   * peak RSS (of the whole run), the data the rank holds: its mesh share
   * and its surface in the app's layout (a point: 24 bytes and its scalar 8, Tet: 16; a
   * surface vertex and triangle: 24). The target: (rss_peak - rss_base) /
   * data_bytes <= 1.3. */
  double rss_base = 0, rss_peak = 0, data_bytes = 0;
  double peak_read = 0, peak_extract = 0;   /* peak RSS at the end of these phases */
  double smin = INFINITY, smax = -INFINITY; /* scalar range */
  int workers = 0, pus = 0;
  char cpus[48] = {0};
};

/* Exact coordinates of a vertex, ordered and hashed by their bits. */
struct Xyz {
  uint64_t b[3];
  bool operator<(const Xyz &o) const {
    return b[0] != o.b[0] ? b[0] < o.b[0] : b[1] != o.b[1] ? b[1] < o.b[1] : b[2] < o.b[2];
  }
  bool operator==(const Xyz &o) const { return b[0] == o.b[0] && b[1] == o.b[1] && b[2] == o.b[2]; }
  uint64_t hash() const {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (uint64_t x : b) {
      h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      h *= 0xff51afd7ed558ccdull;
    }
    return h ^ (h >> 33);
  }
};
static_assert(sizeof(Xyz) == 3 * sizeof(double), "three coordinates");

/* The number of distinct vertices over all ranks (a vertex on an edge
 * shared by pieces of two ranks has the same coordinates, bit for bit, on
 * both: mt.h interpolates from the end with the smaller scalar): each
 * vertex goes to the rank its hash names (MPI_Alltoallv), which counts the
 * distinct ones it receives. Collective. */
int global_vertices(const World &w, const Surface &s, uint64_t *total, std::string *err) {
  const size_t nv = s.nverts();
  auto owner = [&s, &w](size_t v) {
    Xyz k;
    std::memcpy(k.b, &s.xyz[3 * v], sizeof k.b);
    return (size_t)(k.hash() % (uint64_t)w.size);
  };
  std::vector<int> scount((size_t)w.size, 0), rcount((size_t)w.size);
  for (size_t v = 0; v < nv; v++) scount[owner(v)]++;
  int too_many = 0;
  for (int c : scount) too_many |= c > INT_MAX / 3;
  MPI_Allreduce(MPI_IN_PLACE, &too_many, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (too_many) {
    *err = "global vertex merge: more than 2^31/3 vertices between two ranks (MPI counts)";
    return -EOVERFLOW;
  }
  MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> sdispl((size_t)w.size, 0), rdispl((size_t)w.size, 0);
  for (int r = 1; r < w.size; r++) {
    sdispl[(size_t)r] = sdispl[(size_t)r - 1] + scount[(size_t)r - 1];
    rdispl[(size_t)r] = rdispl[(size_t)r - 1] + rcount[(size_t)r - 1];
  }
  const size_t nrecv = (size_t)rdispl.back() + (size_t)rcount.back();
  /* 48 bytes a vertex at the peak (what is sent and what is received): the
   * owner of each vertex is computed twice rather than stored. */
  std::vector<Xyz> send(nv), recv(nrecv);
  std::vector<int> at = sdispl;
  for (size_t v = 0; v < nv; v++)
    std::memcpy(send[(size_t)at[owner(v)]++].b, &s.xyz[3 * v], sizeof(Xyz));
  for (int r = 0; r < w.size; r++) {
    scount[(size_t)r] *= 3;
    sdispl[(size_t)r] *= 3;
    rcount[(size_t)r] *= 3;
    rdispl[(size_t)r] *= 3;
  }
  MPI_Alltoallv(send.data(), scount.data(), sdispl.data(), MPI_DOUBLE, recv.data(), rcount.data(),
                rdispl.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  std::sort(recv.begin(), recv.end());
  unsigned long long mine =
                         (unsigned long long)(std::unique(recv.begin(), recv.end()) - recv.begin()),
                     sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  *total = sum;
  return 0;
}

/* Write this rank's piece of the .pvtp (piece `rank` of `size`); rank 0
 * also writes the index, listing every rank's piece (the writer gathers
 * which pieces were written through the controller). Collective. */
int write_surface(const World &w, vtkMPIController *ctrl, const Surface &s, const std::string &path,
                  std::string *err) {
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLPPolyDataWriter> wr;
  wr->AddObserver(vtkCommand::ErrorEvent, catcher);
  wr->SetController(ctrl);
  wr->SetInputData(to_vtk(s));
  wr->SetFileName(path.c_str());
  wr->SetNumberOfPieces(w.size);
  wr->SetStartPiece(w.rank);
  wr->SetEndPiece(w.rank);
  wr->SetWriteSummaryFile(1);
  wr->SetDataModeToAppended();
  if (!wr->Write() || catcher->failed) {
    const std::string why = message_line(catcher->message);
    *err = "cannot write '" + pvtp_piece_path(path, w.rank) + "'" +
           (w.rank == 0 ? " or '" + path + "'" : "") + (why.empty() ? "" : ": " + why);
    return -EIO;
  }
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Rank 0: the per-rank table, the phase table and the global figures. */
void report(const World &w, const DistOptions &o, size_t npieces,
            const std::vector<RankFigures> &all, uint64_t gverts, const std::string &notes) {
  std::printf("\ndistributed isosurface at iso=%g: %d rank(s), %zu piece(s) of %s, mode %s, "
              "median of %d run(s)\n",
              o.iso, w.size, npieces, o.input.c_str(), mode_name(o.mode), o.reps);
  if (!notes.empty()) std::printf("%s", notes.c_str());
  std::printf("%4s %9s %10s %10s %10s %8s %3s %9s %9s %9s %9s %9s %9s %8s %8s %6s\n", "rank",
              "pieces", "cells", "triangles", "vertices", "cpus", "W", "read ms", "extract",
              "cells ms", "merge ms", "gmerge ms", "write ms", "RSS MiB", "data MiB", "ratio");
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &f = all[r];
    char pieces[32];
    std::snprintf(pieces, sizeof pieces, "%lld-%lld", (long long)f.first_piece,
                  (long long)f.last_piece - 1);
    const double growth = f.rss_peak - f.rss_base;
    std::printf("%4zu %9s %10lld %10lld %10lld %8s %3d %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %8.1f "
                "%8.1f %6.2f\n",
                r, f.last_piece > f.first_piece ? pieces : "none", (long long)f.cells,
                (long long)f.tris, (long long)f.verts, f.cpus, f.workers, 1e3 * f.t_read,
                1e3 * f.t_extract, 1e3 * f.t_cells, 1e3 * f.t_merge, 1e3 * f.t_gmerge,
                1e3 * f.t_write, f.rss_peak / (1 << 20), f.data_bytes / (1 << 20),
                f.data_bytes > 0 ? growth / f.data_bytes : 0.0);
  }
  const struct {
    const char *name;
    double RankFigures::*t;
    double RankFigures::*c;
  } phases[] = {{"read", &RankFigures::t_read, &RankFigures::c_read},
                {"extract", &RankFigures::t_extract, &RankFigures::c_extract},
                {"  cells", &RankFigures::t_cells, nullptr},
                {"  merge", &RankFigures::t_merge, nullptr},
                {"global merge", &RankFigures::t_gmerge, &RankFigures::c_gmerge},
                {"write", &RankFigures::t_write, &RankFigures::c_write},
                {"total", &RankFigures::t_total, nullptr}};
  std::printf("\n%-13s %10s %10s %10s %10s %11s\n", "phase", "min ms", "mean ms", "max ms",
              "imbalance", "max cpu ms");
  for (const auto &ph : phases) {
    double mn = INFINITY, mx = 0, sum = 0;
    for (const RankFigures &f : all) {
      mn = std::min(mn, f.*ph.t);
      mx = std::max(mx, f.*ph.t);
      sum += f.*ph.t;
    }
    const double mean = sum / (double)all.size();
    char imb[32] = "-";
    if (mean > 0) std::snprintf(imb, sizeof imb, "%.2f", mx / mean);
    char cpu[32] = "-";
    if (ph.c) {
      double cmax = 0;
      for (const RankFigures &f : all) cmax = std::max(cmax, f.*ph.c);
      std::snprintf(cpu, sizeof cpu, "%.1f", 1e3 * cmax);
    }
    std::printf("%-13s %10.1f %10.1f %10.1f %10s %11s\n", ph.name, 1e3 * mn, 1e3 * mean, 1e3 * mx,
                imb, cpu);
  }
  std::printf("(imbalance: max / mean over the ranks; the job takes the max. cpu: CPU time, the "
              "main thread's, the process's for extract)\n");
  long long tris = 0, verts = 0;
  double area = 0, worst = 0, peak = 0;
  size_t worst_rank = 0;
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &f = all[r];
    tris += f.tris;
    verts += f.verts;
    area += f.area;
    peak = std::max(peak, f.rss_peak);
    if (f.data_bytes > 0 && (f.rss_peak - f.rss_base) / f.data_bytes > worst) {
      worst = (f.rss_peak - f.rss_base) / f.data_bytes;
      worst_rank = r;
    }
  }
  std::printf("\nglobal: %lld triangles, %llu vertices (%lld over the ranks, %lld shared by pieces "
              "counted once), area %.10g\n",
              tris, (unsigned long long)gverts, verts, verts - (long long)gverts, area);
  std::printf("memory: max RSS per rank %.1f MiB; peak RSS growth / (mesh share + output) at most "
              "%.2f (rank %zu; target 1.3; growth: peak RSS - RSS before reading; mesh share + "
              "output: 32 B a point, 16 B a tetrahedron, 24 B a vertex and a triangle)\n",
              peak / (1 << 20), worst, worst_rank);
}

void write_csv(const DistOptions &o, const std::vector<RankFigures> &all) {
  FILE *f = std::fopen(o.csv.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "adapt-isosurface: cannot write '%s': %s\n", o.csv.c_str(),
                 std::strerror(errno));
    return;
  }
  std::fprintf(f,
               "rank,first_piece,last_piece,cells,points,triangles,vertices,area,workers,cpus,"
               "read_s,extract_s,cells_s,merge_s,global_merge_s,write_s,total_s,rss_base_b,"
               "rss_peak_b,data_b,peak_after_read_b,peak_after_extract_b,read_cpu_s,extract_cpu_s,"
               "global_merge_cpu_s,write_cpu_s\n");
  for (size_t r = 0; r < all.size(); r++) {
    const RankFigures &x = all[r];
    std::fprintf(f,
                 "%zu,%lld,%lld,%lld,%lld,%lld,%lld,%.10g,%d,\"%s\",%.9g,%.9g,%.9g,%.9g,%.9g,"
                 "%.9g,%.9g,%.0f,%.0f,%.0f,%.0f,%.0f,%.9g,%.9g,%.9g,%.9g\n",
                 r, (long long)x.first_piece, (long long)x.last_piece, (long long)x.cells,
                 (long long)x.points, (long long)x.tris, (long long)x.verts, x.area, x.workers,
                 x.cpus, x.t_read, x.t_extract, x.t_cells, x.t_merge, x.t_gmerge, x.t_write,
                 x.t_total, x.rss_base, x.rss_peak, x.data_bytes, x.peak_read, x.peak_extract,
                 x.c_read, x.c_extract, x.c_gmerge, x.c_write);
  }
  std::fclose(f);
}

/* Phase: MPI started (one thread calls it), the world and this node's
 * ranks; false if MPI_Init_thread failed. */
bool start_mpi(World *w) {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "adapt-isosurface: MPI_Init_thread failed\n");
    return false;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w->size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &w->local_rank);
  MPI_Comm_size(node, &w->local_size);
  MPI_Comm_free(&node);
  agree(*w, provided < MPI_THREAD_FUNNELED ? EXIT_RUN : 0,
        "the MPI library does not provide MPI_THREAD_FUNNELED");
  return true;
}

/* Phase: the index and this rank's pieces into *mesh; returns the number
 * of pieces. */
size_t read_share(const World &w, const DistOptions &o, Mesh *mesh, RankFigures *fig) {
  std::string err;
  PvtuIndex idx;
  int rc = read_pvtu_index(o.input, &idx, &err);
  agree(w, rc ? EXIT_INPUT : 0, err);
  const size_t np = idx.pieces.size();
  const size_t first = (size_t)((unsigned __int128)np * (unsigned)w.rank / (unsigned)w.size);
  const size_t last = (size_t)((unsigned __int128)np * (unsigned)(w.rank + 1) / (unsigned)w.size);
  const double t0 = now(), c0 = cpu_now(CLOCK_THREAD_CPUTIME_ID);
  rc = read_pieces(idx, first, last, o.array, mesh, &err);
  fig->t_read = now() - t0;
  fig->c_read = cpu_now(CLOCK_THREAD_CPUTIME_ID) - c0;
  fig->peak_read = rss_peak();
  agree(w, rc == -ENOMEM ? EXIT_RUN : rc ? EXIT_INPUT : 0, err);
  release_free_memory();
  fig->first_piece = (int64_t)first;
  fig->last_piece = (int64_t)last;
  fig->cells = (int64_t)mesh->tets.size();
  fig->points = (int64_t)mesh->pts.size();
  for (const double s : mesh->scalars) {
    fig->smin = std::min(fig->smin, s);
    fig->smax = std::max(fig->smax, s);
  }
  long long cells = fig->cells, total_cells = 0;
  MPI_Allreduce(&cells, &total_cells, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  agree(w, w.rank == 0 && total_cells == 0 ? EXIT_INPUT : 0, "'" + o.input + "' has no cells");
  return np;
}

/* Phase: binding (*note: what went wrong with it) and the runtime; returns
 * the options of the adaptive modes. */
AdaptOptions start_runtime(const World &w, const DistOptions &o, const Mesh &mesh, RankFigures *fig,
                           std::string *note) {
  std::string cpus, err;
  bind_share(w, &fig->pus, &cpus, note);
  std::snprintf(fig->cpus, sizeof fig->cpus, "%s", cpus.c_str());
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = o.workers ? o.workers : fig->pus;
  const int rc = o.mode == Mode::Seq ? 0 : adapt_init(&cfg);
  if (rc) {
    const std::string detail = adapt_last_error();
    err = detail.empty() ? std::string("adapt_init: ") + adapt_strerror(rc) : detail;
  }
  agree(w, rc == -EINVAL ? EXIT_USAGE : rc ? EXIT_RUN : 0, err);
  fig->workers = o.mode == Mode::Seq ? 1 : adapt_num_workers();
  AdaptOptions aopt = o.aopt;
  if (!aopt.window_size) {
    size_t shared = ISO_FALLBACK_SHARED_CACHE;
    if (o.mode != Mode::Seq)
      if (size_t c = adapt_shared_cache_size()) shared = c;
    aopt.window_size = default_window(mesh, shared);
  }
  return aopt;
}

/* Phase: extraction (o.reps runs, the medians) of *mesh into *surf; the
 * mesh is released after it (the phases below need the surface only). */
void extract_share(const World &w, const DistOptions &o, const AdaptOptions &aopt, Mesh *mesh,
                   Surface *surf, RankFigures *fig) {
  std::string err;
  int rc = 0;
  if (!mesh->tets.empty()) {
    std::vector<double> secs, cs, ms, cpus;
    for (int rep = 0; rep < o.reps && rc == 0; rep++) {
      *surf = Surface(); /* one surface at a time: the last run's is kept */
      release_free_memory();
      Surface s;
      Timing tm;
      const double t0 = now(), p0 = cpu_now(CLOCK_PROCESS_CPUTIME_ID);
      rc = extract(*mesh, o.iso, o.mode, aopt, &s, &tm, &err);
      secs.push_back(now() - t0);
      cpus.push_back(cpu_now(CLOCK_PROCESS_CPUTIME_ID) - p0);
      cs.push_back(tm.cells);
      ms.push_back(tm.merge);
      *surf = std::move(s);
    }
    fig->t_extract = median(secs);
    fig->t_cells = median(cs);
    fig->t_merge = median(ms);
    fig->c_extract = median(cpus);
  }
  agree(w, rc ? EXIT_RUN : 0, "extraction: " + err);
  release_free_memory();
  fig->peak_extract = rss_peak();
  fig->tris = (int64_t)surf->ntris();
  fig->verts = (int64_t)surf->nverts();
  fig->area = surf->area();
  fig->data_bytes = (double)(mesh_bytes(*mesh) + surf->xyz.size() * sizeof(double) +
                             surf->tri.size() * sizeof(int64_t));
  *mesh = Mesh();
}

/* Phase: the global vertex count, and the job's end if no rank has a
 * triangle. */
uint64_t count_globally(const World &w, const DistOptions &o, const Surface &surf,
                        RankFigures *fig) {
  const double t0 = now(), c0 = cpu_now(CLOCK_THREAD_CPUTIME_ID);
  uint64_t gverts = 0;
  std::string err;
  const int rc = global_vertices(w, surf, &gverts, &err);
  fig->t_gmerge = now() - t0;
  fig->c_gmerge = cpu_now(CLOCK_THREAD_CPUTIME_ID) - c0;
  agree(w, rc ? EXIT_RUN : 0, err);
  long long tris = fig->tris, total_tris = 0;
  MPI_Allreduce(&tris, &total_tris, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (total_tris == 0) {
    double range[2] = {-fig->smin, fig->smax};
    MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    char msg[200];
    std::snprintf(msg, sizeof msg, "empty surface: no cell crosses iso=%g (scalars in [%g, %g])",
                  o.iso, -range[0], range[1]);
    agree(w, EXIT_EMPTY, msg);
  }
  return gverts;
}

/* Phase: this rank's piece of the .pvtp, rank 0 the index. */
void write_share(const World &w, const DistOptions &o, const Surface &surf, RankFigures *fig) {
  if (o.output.empty()) return;
  vtkNew<vtkMPIController> ctrl;
  ctrl->Initialize(nullptr, nullptr, 1);
  const double t0 = now(), c0 = cpu_now(CLOCK_THREAD_CPUTIME_ID);
  std::string err;
  const int rc = write_surface(w, ctrl, surf, o.output, &err);
  fig->t_write = now() - t0;
  fig->c_write = cpu_now(CLOCK_THREAD_CPUTIME_ID) - c0;
  agree(w, rc ? EXIT_RUN : 0, err);
  ctrl->Finalize(1);
}

/* Rank 0: every rank's figures, printed and written as CSV. Collective. */
void gather_figures(const World &w, const DistOptions &o, size_t npieces, const RankFigures &fig,
                    uint64_t gverts, const std::string &note) {
  std::vector<RankFigures> all(w.rank == 0 ? (size_t)w.size : 0);
  MPI_Gather(&fig, (int)sizeof fig, MPI_BYTE, all.data(), (int)sizeof fig, MPI_BYTE, 0,
             MPI_COMM_WORLD);
  std::string notes;
  if (!note.empty()) notes = "binding: " + note + "\n";
  if (w.rank != 0) return;
  report(w, o, npieces, all, gverts, o.quiet ? "" : notes);
  if (!o.csv.empty()) write_csv(o, all);
  if (!o.output.empty() && !o.quiet)
    std::printf("surface written to %s (%d piece(s): %s ... %s)\n", o.output.c_str(), w.size,
                pvtp_piece_path(o.output, 0).c_str(),
                pvtp_piece_path(o.output, w.size - 1).c_str());
  std::fflush(stdout);
}

} // namespace

bool dist_available() { return true; }

int dist_run(const DistOptions &o) {
  World w;
  if (!start_mpi(&w)) return EXIT_RUN;
  RankFigures fig;
  MPI_Barrier(MPI_COMM_WORLD);
  fig.rss_base = rss_now();
  const double t_start = now();
  Mesh mesh;
  const size_t npieces = read_share(w, o, &mesh, &fig);
  std::string note;
  const AdaptOptions aopt = start_runtime(w, o, mesh, &fig, &note);
  Surface surf;
  extract_share(w, o, aopt, &mesh, &surf, &fig);
  const uint64_t gverts = count_globally(w, o, surf, &fig);
  write_share(w, o, surf, &fig);
  fig.t_total = now() - t_start;
  fig.rss_peak = rss_peak();
  gather_figures(w, o, npieces, fig, gverts, note);
  if (o.mode != Mode::Seq) adapt_finalize();
  MPI_Finalize();
  return EXIT_OK;
}

} // namespace iso
