/* apps/isosurface/cli: the distributed run under MPI (see dist.h and
 * docs/distributed.md). Only the main thread calls MPI (MPI_THREAD_FUNNELED
 * is asked: libadapt's workers never do). */
#include "cli_options.h"
#include "dist_internal.h"
#include "iso_config.h"
#include "pieces.h"
#include "rank_share.h"
#include "reorder.h"
#include "vtk_convert.h"
#include "vtk_quiet.h"

#include <adapt/adapt.h>
#include <hwloc.h>

#include <vtkIdTypeArray.h>
#include <vtkMPIController.h>
#include <vtkNew.h>
#include <vtkPointData.h>
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
namespace dist {

namespace {

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

/* Write this rank's piece of the .pvtp (piece `rank` of `size`), its
 * vertices' global ids (s->keys, when they hold them) as the point array
 * kGlobalPointIds, VTK's global ids; rank 0 also writes the index, listing
 * every rank's piece (the writer gathers which pieces were written through
 * the controller). *s is released once converted. Collective. */
int write_surface(const World &w, vtkMPIController *ctrl, Surface *s, const std::string &path,
                  std::string *err) {
  vtkSmartPointer<vtkPolyData> pd = to_vtk(*s);
  if (s->keys.size() == s->nverts()) { /* also when empty: rank 0 declares the arrays */
    vtkNew<vtkIdTypeArray> ids;
    ids->SetName(kGlobalPointIds);
    ids->SetNumberOfTuples((vtkIdType)s->keys.size());
    for (size_t v = 0; v < s->keys.size(); v++) ids->SetValue((vtkIdType)v, (vtkIdType)s->keys[v]);
    pd->GetPointData()->SetGlobalIds(ids);
  }
  *s = Surface(); /* the output is VTK's from here */
  release_free_memory();
  vtkNew<ErrorCatcher> catcher;
  vtkNew<vtkXMLPPolyDataWriter> wr;
  wr->AddObserver(vtkCommand::ErrorEvent, catcher);
  wr->SetController(ctrl);
  wr->SetInputData(pd);
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
  PieceReadOptions ro;
  ro.array = o.array;
  ro.tetrahedralize = o.tetrahedralize;
  ro.global_ids = true;
  rc = read_pieces(idx, first, last, ro, mesh, &err);
  /* --point-order: sequential, part of the read, as in a serial run. */
  if (rc == 0 && o.point_order == PointOrder::FirstUse)
    rc = renumber_points_first_use(mesh, &err);
  else if (rc == 0 && o.point_order == PointOrder::Random)
    rc = shuffle_points(mesh, o.seed, &err);
  fig->t_read = now() - t0;
  fig->c_read = cpu_now(CLOCK_THREAD_CPUTIME_ID) - c0;
  fig->peak_read = rss_peak();
  agree(w, rc == -ENOMEM ? EXIT_RUN : rc ? EXIT_INPUT : 0, err);
  release_free_memory();
  fig->first_piece = (int64_t)first;
  fig->last_piece = (int64_t)last;
  fig->cells = (int64_t)mesh->tets.size();
  fig->points = (int64_t)mesh->pts.size();
  fig->global_ids = !mesh->point_data.empty();
  for (const double s : mesh->scalars) {
    fig->smin = std::min(fig->smin, s);
    fig->smax = std::max(fig->smax, s);
  }
  long long cells = fig->cells, total_cells = 0;
  MPI_Allreduce(&cells, &total_cells, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  agree(w, w.rank == 0 && total_cells == 0 ? EXIT_INPUT : 0, "'" + o.input + "' has no cells");
  return np;
}

/* The curve --reorder applies to this rank's mesh (auto: Hilbert when
 * its numbering is poor, reorder.h). */
Reorder curve_of(const DistOptions &o, const Mesh &mesh) {
  if (o.reorder != Reorder::Auto) return o.reorder;
  return reorder_needed(measure_numbering(mesh), mesh.pts.size()) ? Reorder::Hilbert
                                                                  : Reorder::None;
}

/* Phase: binding (*note: what went wrong with it) and the runtime (for the
 * adaptive modes and the renumbering of `curve`); returns the options of
 * the adaptive modes. */
AdaptOptions start_runtime(const World &w, const DistOptions &o, const Mesh &mesh, Reorder curve,
                           RankFigures *fig, std::string *note) {
  std::string cpus, err;
  bind_share(w, &fig->pus, &cpus, note);
  std::snprintf(fig->cpus, sizeof fig->cpus, "%s", cpus.c_str());
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = o.workers ? o.workers : fig->pus;
  const int rc = o.mode == Mode::Seq && curve == Reorder::None ? 0 : adapt_init(&cfg);
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
  aopt.vertex_keys = true; /* the global numbering's keys */
  return aopt;
}

/* Phase: --reorder on this rank's mesh (on the runtime), timed. */
void renumber_share(const World &w, Reorder curve, Mesh *mesh, RankFigures *fig) {
  std::snprintf(fig->reorder, sizeof fig->reorder, "%s", reorder_name(curve));
  std::string err;
  int rc = 0;
  if (curve != Reorder::None && !mesh->tets.empty()) {
    const double t0 = now(), p0 = cpu_now(CLOCK_PROCESS_CPUTIME_ID);
    rc = reorder_cells(mesh, curve, nullptr, &err);
    fig->t_reorder = now() - t0;
    fig->c_reorder = cpu_now(CLOCK_PROCESS_CPUTIME_ID) - p0;
  }
  agree(w, rc ? EXIT_RUN : 0, "--reorder: " + err);
  release_free_memory();
}

/* Phase: extraction (o.reps runs, the medians) of *mesh into *surf, then
 * the keys of its vertices by owner (step 1 of the global numbering, into
 * *send and *scount); the mesh is released after it (the phases below need
 * the surface only). */
void extract_share(const World &w, const DistOptions &o, const AdaptOptions &aopt, Mesh *mesh,
                   Surface *surf, std::vector<VertexKey> *send, std::vector<int> *scount,
                   RankFigures *fig) {
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
  size_t gid_bytes = 0;
  for (const MeshArray &a : mesh->point_data) gid_bytes += a.bytes.size();
  fig->data_bytes =
      (double)(mesh_bytes(*mesh) + gid_bytes + surf->xyz.size() * sizeof(double) +
               surf->tri.size() * sizeof(int64_t) + surf->keys.size() * sizeof(uint64_t));
  /* Global ids on every rank with a mesh, or the coordinates everywhere. */
  int all_gids = fig->global_ids || mesh->tets.empty();
  MPI_Allreduce(MPI_IN_PLACE, &all_gids, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const int64_t *gids = all_gids && fig->global_ids
                            ? reinterpret_cast<const int64_t *>(mesh->point_data[0].bytes.data())
                            : nullptr;
  rc = vertex_keys_by_owner(w, gids, surf, send, scount, &err);
  agree(w, rc ? EXIT_RUN : 0, err);
  fig->global_ids = all_gids;
  *mesh = Mesh();
}

/* Phase: the global vertex numbering (step 2, the keys of step 1 in send
 * and scount) and count, and the job's end if no rank has a triangle. */
uint64_t count_globally(const World &w, const DistOptions &o, std::vector<VertexKey> *send,
                        std::vector<int> *scount, Surface *surf, RankFigures *fig) {
  const double t0 = now(), c0 = cpu_now(CLOCK_THREAD_CPUTIME_ID);
  uint64_t gverts = 0;
  std::string err;
  const int rc = number_vertices(w, send, scount, surf, &gverts, &err);
  release_free_memory();
  fig->t_gmerge = now() - t0;
  fig->c_gmerge = cpu_now(CLOCK_THREAD_CPUTIME_ID) - c0;
  agree(w, rc ? EXIT_RUN : 0, err);
  long long tris = fig->tris, total_tris = 0;
  MPI_Allreduce(&tris, &total_tris, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (total_tris == 0) {
    double range[2] = {-fig->smin, fig->smax};
    MPI_Allreduce(MPI_IN_PLACE, range, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    char msg[200];
    std::snprintf(msg, sizeof msg, "empty surface: no cell crosses iso=%s (scalars in [%g, %g])",
                  cli::number_text(o.iso).c_str(), -range[0], range[1]);
    agree(w, EXIT_EMPTY, msg);
  }
  return gverts;
}

/* Phase: this rank's piece of the .pvtp, rank 0 the index. */
void write_share(const World &w, const DistOptions &o, Surface *surf, RankFigures *fig) {
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
  std::fflush(stdout);
}

} // namespace

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

} // namespace dist

bool dist_available() { return true; }

int dist_run(const DistOptions &o) {
  using namespace dist;
  World w;
  if (!start_mpi(&w)) return EXIT_RUN;
  RankFigures fig;
  MPI_Barrier(MPI_COMM_WORLD);
  fig.rss_base = rss_now();
  const double t_start = now();
  Mesh mesh;
  const size_t npieces = read_share(w, o, &mesh, &fig);
  std::string note;
  const Reorder curve = curve_of(o, mesh);
  const AdaptOptions aopt = start_runtime(w, o, mesh, curve, &fig, &note);
  renumber_share(w, curve, &mesh, &fig);
  Surface surf;
  std::vector<VertexKey> send;
  std::vector<int> scount;
  extract_share(w, o, aopt, &mesh, &surf, &send, &scount, &fig);
  const uint64_t gverts = count_globally(w, o, &send, &scount, &surf, &fig);
  write_share(w, o, &surf, &fig);
  fig.t_total = now() - t_start;
  fig.rss_peak = rss_peak();
  gather_figures(w, o, npieces, fig, gverts, note);
  if (o.mode != Mode::Seq || curve != Reorder::None) adapt_finalize();
  MPI_Finalize();
  return EXIT_OK;
}

} // namespace iso
