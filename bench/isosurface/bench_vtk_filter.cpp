/* bench_vtk_filter: vtkAdaptiveContourFilter in a VTK pipeline against
 * vtkContour3DLinearGrid (VTK's SMP backend, TBB in Debian's VTK 9.1, with
 * the same thread count) and vtkContourGrid (serial), and against the core
 * extraction it wraps (<adapt/iso.hpp> called directly on the same arrays):
 * docs/benchmarks-vtk-filter.md; run by
 * `make bench-vtk-filter` (bench/scripts/vtk_filter.sh).
 *
 * The mesh is read once (.vtu, or .vti split into tetrahedra by
 * vtkDataSetTriangleFilter), untimed, into a vtkUnstructuredGrid of
 * tetrahedra holding the contoured array alone ("0 arrays") or with 3 extra
 * point arrays ("3 arrays": float, float x3, double) that every variant
 * interpolates onto the surface. Timed: Update() of each filter (input
 * preparation, extraction, output vtkPolyData: conversion included), and
 * adapt::iso::extract() for the core (its surface reused, as the filter
 * reuses its own). Each round runs every variant once, in the same order
 * (A B C A B C ...); the medians and minima of the rounds and their
 * ratios come from the same run.
 *
 * usage: bench_vtk_filter --mesh NAME --input FILE --array NAME --iso V
 *          [--rounds N] [--workers 1,2] [--csv FILE]        timed rounds
 *        ... --memory VARIANT --workers W --arrays 0|3      peak memory
 *        ... --callgrind VARIANT --workers W --arrays 0|3   one counted run
 * VARIANT: filter, core, c3dlg (vtkContour3DLinearGrid), cg (vtkContourGrid).
 * --memory prints one CSV line: mesh, variant, workers, arrays, the input's
 * RSS (MiB) and the growth of the RSS high-water mark over it during two
 * runs (MiB; the mark reset after loading, /proc/self/clear_refs), the
 * process's minor page faults during the second run.
 * --callgrind runs the variant once untimed, then once between callgrind's
 * client requests (zeroed, dumped as "VARIANT"). Exit status 0, 1 on a
 * failure (message on stderr). */
#include "vtkAdaptiveContourFilter.h"

#include <adapt/adapt.h>
#include <adapt/iso.hpp>

#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkContour3DLinearGrid.h>
#include <vtkContourGrid.h>
#include <vtkDataSetTriangleFilter.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSMPTools.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <tbb/global_control.h>

#include <valgrind/callgrind.h>

#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void Die(const std::string &msg) {
  std::fprintf(stderr, "bench_vtk_filter: %s\n", msg.c_str());
  std::exit(1);
}

struct Options {
  std::string mesh, input, array, csv, memory, callgrind;
  double iso = 0;
  int rounds = 7;
  std::vector<int> workers{1, 2};
  int arrays = 0;
};

std::vector<int> IntList(const std::string &s) {
  std::vector<int> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(std::atoi(item.c_str()));
  return v;
}

Options Parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (i + 1 >= argc)
      Die("option " + a + " needs a value (see the header of bench_vtk_filter.cpp)");
    const std::string v = argv[++i];
    if (a == "--mesh")
      o.mesh = v;
    else if (a == "--input")
      o.input = v;
    else if (a == "--array")
      o.array = v;
    else if (a == "--iso")
      o.iso = std::atof(v.c_str());
    else if (a == "--rounds")
      o.rounds = std::atoi(v.c_str());
    else if (a == "--workers")
      o.workers = IntList(v);
    else if (a == "--arrays")
      o.arrays = std::atoi(v.c_str());
    else if (a == "--csv")
      o.csv = v;
    else if (a == "--memory")
      o.memory = v;
    else if (a == "--callgrind")
      o.callgrind = v;
    else
      Die("unknown option " + a);
  }
  if (o.mesh.empty() || o.input.empty() || o.array.empty())
    Die("--mesh, --input and --array are required");
  if (o.rounds < 1 || o.workers.empty()) Die("--rounds >= 1 and --workers W[,W] needed");
  if (o.arrays != 0 && o.arrays != 3) Die("--arrays: 0 or 3");
  return o;
}

/* Fails on any error a filter reports (the benchmark times only surfaces). */
class Catcher : public vtkCommand {
public:
  static Catcher *New() { return new Catcher; }
  void Execute(vtkObject *, unsigned long, void *data) override {
    Die(std::string("VTK error: ") + static_cast<const char *>(data));
  }
};

/* The mesh as read: tetrahedra, the contoured array. */
vtkSmartPointer<vtkUnstructuredGrid> Read(const Options &o) {
  vtkNew<Catcher> catcher;
  vtkSmartPointer<vtkUnstructuredGrid> ug;
  const bool image = o.input.size() > 4 && o.input.compare(o.input.size() - 4, 4, ".vti") == 0;
  if (image) {
    vtkNew<vtkXMLImageDataReader> r;
    r->SetFileName(o.input.c_str());
    r->AddObserver(vtkCommand::ErrorEvent, catcher);
    vtkNew<vtkDataSetTriangleFilter> split;
    split->SetInputConnection(r->GetOutputPort());
    split->Update();
    ug = split->GetOutput();
  } else {
    vtkNew<vtkXMLUnstructuredGridReader> r;
    r->SetFileName(o.input.c_str());
    r->AddObserver(vtkCommand::ErrorEvent, catcher);
    r->Update();
    ug = r->GetOutput();
  }
  if (!ug || ug->GetNumberOfCells() == 0) Die(o.input + ": no cells");
  if (!ug->GetPointData()->GetArray(o.array.c_str())) Die(o.input + ": no point array " + o.array);
  return ug;
}

/* The grid every variant contours: the read grid's points and cells, its
 * array `array` as the active scalars, and with extra = 3 the arrays
 * "extra_f" (float), "extra_v" (float x 3) and "extra_d" (double), smooth
 * functions of the position. */
vtkSmartPointer<vtkUnstructuredGrid> Grid(vtkUnstructuredGrid *src, const std::string &array,
                                          int extra) {
  auto g = vtkSmartPointer<vtkUnstructuredGrid>::New();
  g->SetPoints(src->GetPoints());
  g->SetCells(src->GetCellTypesArray(), src->GetCells());
  g->GetPointData()->SetScalars(src->GetPointData()->GetArray(array.c_str()));
  if (extra == 0) return g;
  const vtkIdType n = src->GetNumberOfPoints();
  vtkNew<vtkFloatArray> f, v;
  vtkNew<vtkDoubleArray> d;
  f->SetName("extra_f");
  v->SetName("extra_v");
  v->SetNumberOfComponents(3);
  d->SetName("extra_d");
  f->SetNumberOfTuples(n);
  v->SetNumberOfTuples(n);
  d->SetNumberOfTuples(n);
  for (vtkIdType i = 0; i < n; i++) {
    double p[3];
    src->GetPoint(i, p);
    f->SetValue(i, float(p[0] + 2 * p[1] - p[2]));
    v->SetTypedTuple(i, std::vector<float>{float(p[1]), float(p[2]), float(p[0])}.data());
    d->SetValue(i, p[0] * p[1] + p[2]);
  }
  g->GetPointData()->AddArray(f);
  g->GetPointData()->AddArray(v);
  g->GetPointData()->AddArray(d);
  return g;
}

/* What a variant made, checked across variants. */
struct Made {
  long long triangles = 0, points = 0;
};

Made Of(vtkPolyData *pd) {
  if (!pd) Die("no output");
  return Made{pd->GetNumberOfPolys(), pd->GetNumberOfPoints()};
}

/* Sets contour filter f on g's point scalars `array` at isovalue iso,
 * without output scalars, its errors to c. */
template <class Filter>
void Contour(Filter *f, Catcher *c, vtkUnstructuredGrid *g, const std::string &array, double iso) {
  f->AddObserver(vtkCommand::ErrorEvent, c);
  f->SetInputData(g);
  f->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, array.c_str());
  f->SetValue(0, iso);
  f->ComputeScalarsOff();
}

/* Runs f again on its unchanged input; what its polygonal output holds. */
Made Rerun(vtkAlgorithm *f) {
  f->Modified();
  f->Update();
  return Of(vtkPolyData::SafeDownCast(f->GetOutputDataObject(0)));
}

/* The CPUs the process started with, read before libadapt starts:
 * libadapt binds the calling thread (worker 0) to one of them, and TBB sizes
 * its pool from the affinity mask of the thread that first uses it (its
 * workers inherit that mask), as adapt-isosurface's peers do (StartCpus in
 * apps/isosurface/cli/cli_run.h). */
cpu_set_t start_cpus;

/* One variant on one grid at one thread count: set up once, run many
 * times. Enter() and Leave() bracket each run, untimed. */
class Variant {
public:
  virtual ~Variant() = default;
  virtual Made Run() = 0;
  virtual void Enter() {}
  virtual void Leave() {}
};

/* A VTK variant: runs with the process's starting CPUs (see start_cpus),
 * the calling thread's binding restored after. */
class VtkVariant : public Variant {
public:
  void Enter() override {
    pthread_getaffinity_np(pthread_self(), sizeof saved_, &saved_);
    pthread_setaffinity_np(pthread_self(), sizeof start_cpus, &start_cpus);
  }
  void Leave() override { pthread_setaffinity_np(pthread_self(), sizeof saved_, &saved_); }

private:
  cpu_set_t saved_;
};

class FilterVariant : public Variant {
public:
  FilterVariant(vtkUnstructuredGrid *g, const std::string &array, double iso, int workers) {
    Contour(f_.Get(), catcher_, g, array, iso);
    f_->SetNumberOfWorkers(workers);
  }
  Made Run() override { return Rerun(f_); }

private:
  vtkNew<Catcher> catcher_;
  vtkNew<vtkAdaptiveContourFilter> f_;
};

adapt::iso::dtype Dtype(vtkDataArray *a) {
  switch (a->GetDataType()) {
  case VTK_FLOAT: return adapt::iso::dtype::float32;
  case VTK_DOUBLE: return adapt::iso::dtype::float64;
  case VTK_INT: return adapt::iso::dtype::int32;
  case VTK_UNSIGNED_CHAR: return adapt::iso::dtype::uint8;
  case VTK_SHORT: return adapt::iso::dtype::int16;
  case VTK_UNSIGNED_SHORT: return adapt::iso::dtype::uint16;
  case VTK_TYPE_INT64: return adapt::iso::dtype::int64;
  default: Die(std::string("array type ") + a->GetDataTypeAsString() + " not handled here");
  }
}

adapt::iso::array View(vtkDataArray *a) {
  adapt::iso::array v;
  v.data = a->GetVoidPointer(0);
  v.type = Dtype(a);
  v.count = size_t(a->GetNumberOfTuples());
  v.components = a->GetNumberOfComponents();
  return v;
}

/* <adapt/iso.hpp> on the grid's own arrays, as the filter calls it (cell
 * arrays in place, the extra point arrays interpolated), without the
 * pipeline and the output vtkPolyData. */
class CoreVariant : public Variant {
public:
  CoreVariant(vtkUnstructuredGrid *g, double iso, int workers) {
    vtkCellArray *cells = g->GetCells();
    const bool wide = cells->IsStorage64Bit();
    in_.points = View(g->GetPoints()->GetData());
    in_.scalars = View(g->GetPointData()->GetScalars());
    in_.offsets = View(wide ? static_cast<vtkDataArray *>(cells->GetOffsetsArray64())
                            : cells->GetOffsetsArray32());
    in_.connectivity = View(wide ? static_cast<vtkDataArray *>(cells->GetConnectivityArray64())
                                 : cells->GetConnectivityArray32());
    in_.types = View(g->GetCellTypesArray());
    vtkPointData *pd = g->GetPointData();
    for (int a = 0; a < pd->GetNumberOfArrays(); a++)
      if (pd->GetArray(a) != pd->GetScalars()) req_.point_data.push_back(View(pd->GetArray(a)));
    req_.values = {iso};
    req_.policy = adapt::iso::policy().workers(workers);
  }
  Made Run() override {
    if (int rc = adapt::iso::extract(in_, req_, &s_))
      Die(std::string("adapt::iso::extract: ") + s_.message() + " (" + std::to_string(rc) + ")");
    return Made{(long long)s_.num_triangles(), (long long)s_.num_points()};
  }

private:
  adapt::iso::input in_;
  adapt::iso::request req_;
  adapt::iso::surface s_;
};

/* vtkContour3DLinearGrid on VTK's SMP backend with `threads` threads (set
 * before each run: the peers at other counts share the backend), points
 * merged, the point arrays interpolated when there are extra ones. VTK
 * 9.1's Initialize(threads) bounds its For loops (a TBB arena) but not its
 * Sort (tbb::parallel_sort outside the arena, on every core: the edges'
 * sort of a "1-thread" run took a second core); a TBB global_control made
 * at each run bounds both (created in microseconds, against the run's tens
 * of milliseconds). */
class LinearVariant : public VtkVariant {
public:
  LinearVariant(vtkUnstructuredGrid *g, const std::string &array, double iso, int threads,
                bool interpolate)
      : threads_(threads) {
    Contour(f_.Get(), catcher_, g, array, iso);
    f_->MergePointsOn();
    f_->SetInterpolateAttributes(interpolate);
    f_->ComputeNormalsOff();
    f_->UseScalarTreeOff();
    f_->SequentialProcessingOff();
  }
  Made Run() override {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, (size_t)threads_);
    vtkSMPTools::Initialize(threads_);
    return Rerun(f_);
  }

private:
  int threads_;
  vtkNew<Catcher> catcher_;
  vtkNew<vtkContour3DLinearGrid> f_;
};

/* vtkContourGrid (serial; it interpolates every point array). */
class GridVariant : public VtkVariant {
public:
  GridVariant(vtkUnstructuredGrid *g, const std::string &array, double iso) {
    Contour(f_.Get(), catcher_, g, array, iso);
    f_->GenerateTrianglesOn();
    f_->UseScalarTreeOff();
    f_->ComputeNormalsOff();
  }
  Made Run() override { return Rerun(f_); }

private:
  vtkNew<Catcher> catcher_;
  vtkNew<vtkContourGrid> f_;
};

std::unique_ptr<Variant> Make(const std::string &name, vtkUnstructuredGrid *g, const Options &o,
                              int workers, int arrays) {
  if (name == "filter") return std::make_unique<FilterVariant>(g, o.array, o.iso, workers);
  if (name == "core") return std::make_unique<CoreVariant>(g, o.iso, workers);
  if (name == "c3dlg")
    return std::make_unique<LinearVariant>(g, o.array, o.iso, workers, arrays > 0);
  if (name == "cg") return std::make_unique<GridVariant>(g, o.array, o.iso);
  Die("unknown variant " + name + " (filter, core, c3dlg, cg)");
}

/* The runtime with the largest worker count asked for; a call at fewer
 * workers (1) runs on the calling thread. */
void StartRuntime(int workers) {
  if (workers <= 1) return;
  adapt_config cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.workers = workers;
  if (int rc = adapt_init(&cfg)) Die(std::string("adapt_init: ") + adapt_strerror(rc));
}

double Seconds(Variant *v, Made *made) {
  v->Enter();
  const auto t0 = std::chrono::steady_clock::now();
  *made = v->Run();
  const auto t1 = std::chrono::steady_clock::now();
  v->Leave();
  return std::chrono::duration<double>(t1 - t0).count();
}

std::string LoadAverage() {
  std::ifstream f("/proc/loadavg");
  std::string one;
  f >> one;
  return one;
}

/* One timed case: a variant at a worker count and an array count. */
struct Case {
  std::string variant;
  int workers = 1, arrays = 0;
  std::unique_ptr<Variant> v;
  std::vector<double> times;
  Made made;
  double median = 0, min = 0;
};

double Median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  const size_t n = t.size();
  return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

const Case *Find(const std::vector<Case> &cases, const std::string &variant, int workers,
                 int arrays) {
  for (const Case &c : cases)
    if (c.variant == variant && c.workers == workers && c.arrays == arrays) return &c;
  return nullptr;
}

/* The cases of one run: per array count and worker count, filter, core
 * and vtkContour3DLinearGrid; vtkContourGrid once per array count (serial,
 * at the first worker count). */
std::vector<Case> Cases(const Options &o, vtkUnstructuredGrid *g[2]) {
  std::vector<Case> cases;
  for (int a : {0, 3})
    for (int w : o.workers)
      for (const char *name : {"filter", "core", "c3dlg", "cg"}) {
        if (std::string(name) == "cg" && w != o.workers.front()) continue;
        Case c;
        c.variant = name;
        c.workers = w;
        c.arrays = a;
        c.v = Make(name, g[a ? 1 : 0], o, w, a);
        cases.push_back(std::move(c));
      }
  return cases;
}

/* Each variant's surface the same size as the filter's (vtkContour3DLinearGrid
 * may add zero-area triangles where the isovalue equals point values:
 * only its count is printed). */
void Check(const std::vector<Case> &cases) {
  for (const Case &c : cases) {
    const Case *f = Find(cases, "filter", c.workers, c.arrays);
    if (c.variant == "c3dlg" || !f) continue;
    if (c.made.triangles != f->made.triangles)
      Die(c.variant + ": " + std::to_string(c.made.triangles) + " triangles, the filter " +
          std::to_string(f->made.triangles));
  }
}

void WriteCsv(const Options &o, const std::vector<Case> &cases, long long tets,
              const std::string &load) {
  FILE *out = o.csv.empty() ? stdout : std::fopen(o.csv.c_str(), "w");
  if (!out) Die("cannot write " + o.csv);
  std::fprintf(out, "mesh,tetrahedra,workers,arrays,variant,triangles,points,rounds,median_s,"
                    "min_s,vs_c3dlg,vs_c3dlg_min,vs_core,vs_core_min,speedup,load\n");
  for (const Case &c : cases) {
    const Case *l = Find(cases, "c3dlg", c.workers, c.arrays);
    const Case *k = Find(cases, "core", c.workers, c.arrays);
    const Case *s = Find(cases, "filter", 1, c.arrays);
    std::fprintf(out, "%s,%lld,%d,%d,%s,%lld,%lld,%zu,%.6f,%.6f,%.3f,%.3f,%.4f,%.4f,%.3f,%s\n",
                 o.mesh.c_str(), tets, c.workers, c.arrays, c.variant.c_str(), c.made.triangles,
                 c.made.points, c.times.size(), c.median, c.min, c.median / l->median,
                 c.min / l->min, c.median / k->median, c.min / k->min,
                 s ? s->median / c.median : 0.0, load.c_str());
  }
  if (out != stdout) std::fclose(out);
}

/* The timed rounds: one untimed run of each case (first touch, lazy
 * initialisation), then o.rounds rounds of every case in order, but for the
 * filter and the core of a group (same input, one after the other), which
 * swap places from one round to the next: the second of the two finds the
 * input in the caches as the first left it, the first after another
 * variant's run (with 3 point arrays the input is 24 bytes a point larger);
 * in a fixed order that went to the core in every round. */
void Timed(const Options &o, vtkUnstructuredGrid *ug) {
  vtkSmartPointer<vtkUnstructuredGrid> grids[2] = {Grid(ug, o.array, 0), Grid(ug, o.array, 3)};
  vtkUnstructuredGrid *g[2] = {grids[0], grids[1]};
  StartRuntime(*std::max_element(o.workers.begin(), o.workers.end()));
  std::vector<Case> cases = Cases(o, g);
  Made made;
  for (Case &c : cases) Seconds(c.v.get(), &made);
  const std::string load0 = LoadAverage();
  std::vector<Case *> order;
  for (Case &c : cases) order.push_back(&c);
  for (int r = 0; r < o.rounds; r++) {
    for (Case *c : order) c->times.push_back(Seconds(c->v.get(), &c->made));
    for (size_t i = 0; i + 1 < order.size(); i++) {
      const std::string &a = order[i]->variant, &b = order[i + 1]->variant;
      if ((a == "filter" && b == "core") || (a == "core" && b == "filter")) {
        std::swap(order[i], order[i + 1]);
        i++; /* the pair swapped: on to the next group */
      }
    }
  }
  const std::string load = load0 + "-" + LoadAverage();
  for (Case &c : cases) {
    c.median = Median(c.times);
    c.min = *std::min_element(c.times.begin(), c.times.end());
  }
  Check(cases);
  WriteCsv(o, cases, ug->GetNumberOfCells(), load);
}

long Kib(const char *field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  const size_t n = std::strlen(field);
  while (std::getline(f, line))
    if (line.compare(0, n, field) == 0) return std::atol(line.c_str() + n);
  Die(std::string("no ") + field + " in /proc/self/status");
}

/* Peak memory of one variant in this process: the RSS high-water mark,
 * reset after the input is built, over two runs (the second reuses what
 * the first kept). */
void Memory(const Options &o, vtkUnstructuredGrid *ug) {
  vtkSmartPointer<vtkUnstructuredGrid> g = Grid(ug, o.array, o.arrays);
  const int w = o.workers.front();
  StartRuntime(w);
  std::unique_ptr<Variant> v = Make(o.memory, g, o, w, o.arrays);
  malloc_trim(0);
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
  }
  const long base = Kib("VmRSS:");
  if (Kib("VmHWM:") > base + 1024) Die("the RSS high-water mark could not be reset");
  Made made;
  Seconds(v.get(), &made);
  struct rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  Seconds(v.get(), &made);
  getrusage(RUSAGE_SELF, &r1);
  std::printf("%s,%s,%d,%d,%.1f,%.1f,%ld\n", o.mesh.c_str(), o.memory.c_str(), w, o.arrays,
              base / 1024.0, (Kib("VmHWM:") - base) / 1024.0, r1.ru_minflt - r0.ru_minflt);
}

/* One run of a variant counted by callgrind (the counters zeroed before,
 * dumped after as the variant's name). */
void Callgrind(const Options &o, vtkUnstructuredGrid *ug) {
  vtkSmartPointer<vtkUnstructuredGrid> g = Grid(ug, o.array, o.arrays);
  const int w = o.workers.front();
  StartRuntime(w);
  std::unique_ptr<Variant> v = Make(o.callgrind, g, o, w, o.arrays);
  Made m;
  Seconds(v.get(), &m);
  CALLGRIND_ZERO_STATS;
  Seconds(v.get(), &m);
  CALLGRIND_DUMP_STATS_AT(o.callgrind.c_str());
  std::printf("%s: %lld triangles\n", o.callgrind.c_str(), m.triangles);
}

} // namespace

int main(int argc, char **argv) {
  if (sched_getaffinity(0, sizeof start_cpus, &start_cpus) != 0) Die("sched_getaffinity failed");
  const Options o = Parse(argc, argv);
  vtkSmartPointer<vtkUnstructuredGrid> ug = Read(o);
  if (!o.memory.empty())
    Memory(o, ug);
  else if (!o.callgrind.empty())
    Callgrind(o, ug);
  else
    Timed(o, ug);
  return 0;
}
