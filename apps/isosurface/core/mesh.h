/* apps/isosurface/core: the tetrahedral mesh (paper §4 layout), its generator
 * and its checks. No VTK here (see vtk_bridge.h for files).
 *
 * Layout: an array of point positions, each three doubles (x, y, z), the
 * array of their scalars beside it (one double per point, same index, as
 * VTK keeps points and point data), and an array of tetrahedra, each four
 * 32-bit point indices (the paper's cells hold 64-bit ones: 32 bytes a cell
 * instead of 16, for no use, as the extraction's vertex keys are 32-bit
 * point pairs anyway). The scalars apart: the extraction's classification
 * reads every point's scalar and nothing else, 8 bytes a point instead of
 * the 32 of a point with its scalar (docs/benchmarks-isosurface.md,
 * "Scalars apart"); only crossed cells read positions. Cells close in the
 * cell array share points, and points are numbered in the order the cells
 * first use them, so processing cells in order reuses cached points.
 */
#ifndef APPS_ISOSURFACE_CORE_MESH_H
#define APPS_ISOSURFACE_CORE_MESH_H

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

namespace iso {

struct Point {
  double x, y, z;
};
static_assert(sizeof(Point) == 24, "a point's position is three doubles");

/* A mesh holds fewer points than this (at most 2^32 - 2), so that every
 * point id fits in 32 bits and the extraction's vertex keys too. The
 * generator and the readers refuse larger meshes with -EOVERFLOW;
 * validate() and extract() check it on meshes made by hand. */
constexpr uint64_t kMaxMeshPoints = 0xFFFFFFFFull;

struct Tet {
  uint32_t v[4];
};
static_assert(sizeof(Tet) == 16, "a tetrahedron is four 32-bit point ids");

/* Bytes malloc'd (free() releases them), aligned to 2 MiB with transparent
 * huge pages asked for when bytes >= ISO_HUGE_MIN_BYTES (the mesh's and
 * the surface's arrays). NULL when out of memory. Thread-safe. */
void *out_alloc_bytes(size_t bytes);

/* Allocator of the mesh's arrays: large ones in huge pages
 * (out_alloc_bytes). Besides the TLB, the reason is the VM measured: while
 * a process maps huge pages (the extraction's slabs and output), its
 * large 4 KiB-page arrays were read several times slower from time to time
 * (docs/benchmarks-isosurface.md, "Transient memory in huge-page slabs").
 * Elements are value-initialised, as with std::allocator. Stateless. */
template <class T>
struct HugeAlloc {
  using value_type = T;
  HugeAlloc() noexcept = default;
  template <class U>
  HugeAlloc(const HugeAlloc<U> &) noexcept {}
  T *allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    void *p = out_alloc_bytes(n * sizeof(T));
    if (!p) throw std::bad_alloc();
    return static_cast<T *>(p);
  }
  void deallocate(T *p, size_t) noexcept { std::free(p); }
  template <class U>
  bool operator==(const HugeAlloc<U> &) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const HugeAlloc<U> &) const noexcept {
    return false;
  }
};

using PointVec = std::vector<Point, HugeAlloc<Point>>;
using ScalarVec = std::vector<double, HugeAlloc<double>>;
using TetVec = std::vector<Tet, HugeAlloc<Tet>>;

/* An array carried by the mesh for the surface (adapt-isosurface's
 * --arrays): `components` elements of `elem_size` bytes per tuple, of the
 * type `type` (VTK's type code, that of <adapt/iso.hpp>'s dtype), one
 * tuple per point or per cell, interleaved, in bytes. */
struct MeshArray {
  std::string name;
  int type = 11; /* VTK_DOUBLE */
  int components = 1;
  size_t elem_size = 8;
  std::vector<unsigned char> bytes;
  size_t tuple_bytes() const { return elem_size * (size_t)components; }
  size_t tuples() const { return tuple_bytes() ? bytes.size() / tuple_bytes() : 0; }
};

/* pts[p] is point p's position and scalars[p] its scalar: the two arrays
 * have the same size (validate() checks it). point_data and cell_data: the
 * arrays carried for the surface (none unless a reader was asked for them),
 * a tuple per point and per tetrahedron, moved with them by the
 * renumberings (reorder.h). */
struct Mesh {
  PointVec pts;
  ScalarVec scalars;
  TetVec tets;
  std::string array_name = "scalars"; /* name of the point scalars */
  std::vector<MeshArray> point_data, cell_data;
  /* For a multiblock input: tetrahedron t's block (the reader's numbering
   * of the blocks, vtk_bridge.h), moved with the tetrahedra by the
   * renumberings; empty for other inputs. */
  std::vector<uint32_t> tet_block;
};

/* Tuple p of every array moved to newid[p] (a permutation of the tuples).
 * Sequential; throws std::bad_alloc (the arrays then untouched). */
void scatter_tuples(std::vector<MeshArray> *arrays, const std::vector<int64_t> &newid);

/* Tuple i of every array replaced by old tuple old_of(i) (a permutation).
 * Sequential; throws std::bad_alloc (the arrays then untouched). */
template <class F>
void gather_tuples(std::vector<MeshArray> *arrays, F old_of) {
  std::vector<std::vector<unsigned char>> moved(arrays->size());
  for (size_t a = 0; a < arrays->size(); a++) {
    const MeshArray &arr = (*arrays)[a];
    const size_t w = arr.tuple_bytes(), n = arr.tuples();
    moved[a].resize(arr.bytes.size());
    for (size_t i = 0; i < n; i++) {
      const unsigned char *src = arr.bytes.data() + (size_t)old_of(i) * w;
      std::copy(src, src + w, moved[a].data() + i * w);
    }
  }
  for (size_t a = 0; a < arrays->size(); a++) (*arrays)[a].bytes.swap(moved[a]);
}

/* Order of the cells (hexahedra of a grid, their tetrahedra kept together). */
enum class Order { Lex, Morton, Hilbert, Random };
/* Split of one hexahedron: 5 tetrahedra with alternating parity, or 6
 * sharing the main diagonal. Both give conforming meshes. */
enum class Split { Five, Six };
/* Built-in scalar fields. Sphere: distance to the centre of the box divided
 * by half the box's largest side (iso 0.6: a sphere in a cube, a ring cut by
 * the faces of a flat box).
 * Waves: a smooth multi-frequency field in [-1.75, 1.75] (iso 0 is a wavy
 * multi-sheet surface). Flat: the constant 1 (no crossing for any iso < 1,
 * every cell inside for iso <= 1). Gyroid: sin X cos Y + sin Y cos Z +
 * sin Z cos X with X = 2 pi x / gyroid_period + 0.25, Y = 2 pi y /
 * gyroid_period + 0.5, Z = 2 pi z / gyroid_period + 0.75 (phases that keep
 * the grid's points off the surface at iso 0), in [-1.5, 1.5];
 * the period is in length units, i.e. cells for --generate, so the surface
 * at iso 0 (a triply periodic minimal surface) crosses about a third of the
 * tetrahedra whatever the grid's size: a large surface, where the vertex
 * merge weighs. */
enum class Field { Sphere, Waves, Flat, Gyroid };
constexpr double gyroid_period = 12.0;

/* The low 21 bits of a, each moved to every third bit (bit i to bit 3i):
 * the interleaving of Morton keys (cell orders here, --reorder). */
inline uint64_t spread3(uint64_t a) {
  a &= 0x1fffff;
  a = (a | a << 32) & 0x1f00000000ffffULL;
  a = (a | a << 16) & 0x1f0000ff0000ffULL;
  a = (a | a << 8) & 0x100f00f00f00f00fULL;
  a = (a | a << 4) & 0x10c30c30c30c30c3ULL;
  a = (a | a << 2) & 0x1249249249249249ULL;
  return a;
}

/* Parse helpers: 0 and *out set, or -EINVAL for an unknown name. */
int parse_order(const std::string &name, Order *out);
int parse_split(const std::string &name, Split *out);
int parse_field(const std::string &name, Field *out);
/* Names: "lex", "5", "sphere", ... */
const char *order_name(Order o);
const char *split_name(Split s);
const char *field_name(Field f);

/* Value of a built-in field at (x, y, z) of the box [0,lx]x[0,ly]x[0,lz]. */
double field_value(Field f, double x, double y, double z, double lx, double ly, double lz);

/* A structured grid of points: np[0] x np[1] x np[2] points (x fastest),
 * point (i,j,k) at origin + (i,j,k) * spacing, its scalar in scalars
 * (point-major, x fastest; NULL: use `field`). */
struct Grid {
  int64_t np[3] = {2, 2, 2};
  double origin[3] = {0, 0, 0};
  double spacing[3] = {1, 1, 1};
  const double *scalars = nullptr;
  Field field = Field::Sphere;
};

/* Split the grid's (np-1)^3 hexahedra into tetrahedra in the given cell
 * order, numbering the points in order of first use. `seed` drives
 * Order::Random. Errors (message in *err, mesh untouched): -EINVAL fewer than
 * 2 points on an axis; -EOVERFLOW the counts do not fit, or kMaxMeshPoints
 * points or more; -ENOMEM. */
int tetrahedralize_grid(const Grid &g, Split split, Order order, uint64_t seed, Mesh *mesh,
                        std::string *err);

/* Bytes of a mesh's arrays (positions, scalars, cells). */
inline size_t mesh_bytes(const Mesh &m) {
  return m.pts.size() * sizeof(Point) + m.scalars.size() * sizeof(double) +
         m.tets.size() * sizeof(Tet);
}

/* Bytes a cell brings into the cache on average: its four ids and its
 * share of the points (positions and scalars). The footprint of the window
 * modes (paper §4: m cells should fit in the shared cache). */
inline size_t cell_bytes(const Mesh &m) {
  return sizeof(Tet) +
         (m.tets.empty() ? 0 : (sizeof(Point) + sizeof(double)) * m.pts.size() / m.tets.size());
}

/* Check a mesh before extraction: as many scalars as points, no block
 * numbers or one per cell, fewer than kMaxMeshPoints points, every
 * index in [0, npts), finite coordinates, no NaN scalar (message names the
 * first offending cell or point). 0 or -EINVAL (malformed), -EOVERFLOW (too
 * many points), -ERANGE (index out of range), -EDOM (NaN or infinite
 * value). */
int validate(const Mesh &m, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_CORE_MESH_H */
