/* <adapt/iso.hpp>: isosurfaces of tetrahedral and linear 3D meshes held in
 * the caller's arrays (marching tetrahedra on libadapt's runtime), library
 * libadapt-iso (pkg-config adapt-iso, CMake target adapt::iso). No VTK
 * here; docs/isosurface.md, "The library: <adapt/iso.hpp>", is the guide.
 *
 * One call, adapt::iso::extract(input, request, &surface), contours the
 * mesh at one or several values and fills a surface object whose buffers
 * the next call into the same object reuses. On tetrahedra the surfaces
 * are vtkContourGrid's (docs/isosurface.md, "What the extraction
 * guarantees", has the conventions and the one rounding difference),
 * numbered in order of first appearance, and byte-identical whatever the
 * policy and the number of workers.
 *
 * Errors are returned, never thrown: 0 or a negative errno value, with a
 * one-line message in surface::message(). Nothing here throws. */
#ifndef APPS_ISOSURFACE_CORE_INCLUDE_ADAPT_ISO_HPP
#define APPS_ISOSURFACE_CORE_INCLUDE_ADAPT_ISO_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

/* Marks what libadapt-iso exports (the rest is built hidden). */
#if defined(__GNUC__)
#define ADAPT_ISO_API __attribute__((visibility("default")))
#else
#define ADAPT_ISO_API
#endif

namespace adapt {
namespace iso {

/* The element type of an array. The values are VTK's type codes of the
 * same width (VTK_SIGNED_CHAR, VTK_UNSIGNED_CHAR, VTK_SHORT, ...,
 * VTK_LONG_LONG, VTK_UNSIGNED_LONG_LONG, VTK_FLOAT, VTK_DOUBLE); VTK_CHAR,
 * VTK_LONG, VTK_UNSIGNED_LONG and VTK_ID_TYPE map to the one of their
 * width on the platform. */
enum class dtype : int {
  int8 = 15,
  uint8 = 3,
  int16 = 4,
  uint16 = 5,
  int32 = 6,
  uint32 = 7,
  int64 = 16,
  uint64 = 17,
  float32 = 10,
  float64 = 11
};

/* Bytes of one element of type t; 0 for a value that is not a dtype. */
ADAPT_ISO_API std::size_t dtype_size(dtype t) noexcept;

/* The dtype of a C++ arithmetic type (static_assert on others). */
template <class T>
constexpr dtype dtype_of() noexcept;

/* A view of an array of the caller's: `count` tuples of `components`
 * elements of type `type`, interleaved (tuple i at data + i * components
 * elements), contiguous. Never copied, never freed, never written by the
 * library; the memory must stay valid and unchanged during the call
 * only. A view with data NULL is "absent" where a field is optional. */
struct array {
  const void *data = nullptr;
  dtype type = dtype::float64;
  std::size_t count = 0; /* tuples */
  int components = 1;
};

/* The view of p[0 .. count * components). */
template <class T>
array view(const T *p, std::size_t count, int components = 1) noexcept {
  array a;
  a.data = p;
  a.type = dtype_of<T>();
  a.count = count;
  a.components = components;
  return a;
}

/* The linear 3D cells that extract() takes, with VTK's codes. Other codes
 * (vertices, lines, 2D cells, quadratic cells, polyhedra, ...) are refused
 * with -ENOTSUP. Each cell is split into tetrahedra on the fly (see
 * input::types for the split). */
enum cell_type : std::uint8_t { tetra = 10, voxel = 11, hexahedron = 12, wedge = 13, pyramid = 14 };

/* The mesh and its scalar field, all views of the caller's arrays.
 *
 * points: 3 components, float32 or float64: the positions (the crossings
 *   are computed in double from them).
 * scalars: 1 component, any dtype, points.count tuples: the field
 *   contoured (each value converted to double when read, as VTK's
 *   GetComponent does). A NaN scalar counts as below every value; the
 *   crossings on its edges are not defined (it is not checked for).
 * The cells, in one of two layouts:
 *  - tetrahedra: offsets and types absent; connectivity holds 4 point ids
 *    per tetrahedron (count = 4 * tetrahedra, components 1), int32,
 *    uint32, int64 or uint64.
 *  - VTK 9's cell arrays: offsets (cells + 1 tuples, int32 or int64, the
 *    first 0, non-decreasing, the last connectivity.count), connectivity
 *    (int32 or int64: cell c's ids are connectivity[offsets[c] ..
 *    offsets[c + 1])), types (cells tuples, uint8: a cell_type each).
 *    Each cell is split into tetrahedra when it is read; the tetrahedra of
 *    cell c come before those of cell c + 1. The split: the cell's vertex
 *    of the smallest point id, v, is joined to every face that does not
 *    hold v, each quadrilateral face cut by the diagonal through its own
 *    vertex of the smallest point id (so that two cells sharing a face
 *    cut it alike: the tetrahedra are conforming):
 *    voxel and hexahedron 6 tetrahedra, wedge 3, pyramid 2, tetra 1.
 *    It is not vtkDataSetTriangleFilter's (vtkOrderedTriangulator's
 *    Delaunay split), and vtkContourGrid contours such cells with their
 *    own case tables, not through a split: on meshes with other cells
 *    than tetrahedra the surface is another piecewise-linear
 *    approximation of the same level set, not the same triangles.
 * Every id must be in [0, points.count). */
struct input {
  array points;
  array scalars;
  array connectivity;
  array offsets;
  array types;
};

/* How the cell phase runs: sequential runs plain loops on the calling
 * thread; none, static_ and sliding are libadapt's window modes
 * (<adapt/loop.h>: ADAPT_WINDOW_NONE, _STATIC, _SLIDING) over blocks of
 * cells. */
enum class mode { sequential, none, static_, sliding };

/* The execution policy of one call, a literal value type whose modifiers
 * return a modified copy (as adapt::policy of <adapt/stl.hpp>):
 *   adapt::iso::policy().window(adapt::iso::mode::sliding, 1 << 16).grain(256)
 * Sizes are in cells (tetrahedra after the split). Thread-safe (a value). */
class policy {
public:
  constexpr policy() = default;
  /* The mode and the window size in cells (0: the cells whose footprint,
   * ids and their share of the points, fills a quarter of the shared
   * cache). Default: sliding, 0. */
  constexpr policy window(iso::mode m, std::size_t cells = 0) const {
    policy p = *this;
    p.mode_ = m;
    p.window_ = cells;
    return p;
  }
  /* Workers: 0 (default) the runtime's (ADAPT_WORKERS, else one per PU);
   * 1 runs the call sequentially on the calling thread, whatever the mode;
   * n > 1 the runtime with n workers (see extract's errors when it runs
   * with another count). A call that is not sequential starts the runtime
   * when it is not running, as start_runtime() does (unbound). */
  constexpr policy workers(int n) const {
    policy p = *this;
    p.workers_ = n;
    return p;
  }
  /* Cells per chunk between two steal points (0: ADAPT_GRAIN, else
   * calibrated). */
  constexpr policy grain(std::size_t cells) const {
    policy p = *this;
    p.grain_ = cells;
    return p;
  }
  constexpr iso::mode window_mode() const { return mode_; }
  constexpr std::size_t window_size() const { return window_; }
  constexpr int worker_count() const { return workers_; }
  constexpr std::size_t grain_size() const { return grain_; }

private:
  iso::mode mode_ = iso::mode::sliding;
  std::size_t window_ = 0;
  int workers_ = 0;
  std::size_t grain_ = 0;
};

/* What to compute. values: the isovalues, in order; the surface of each
 * is appended after the previous one's (points and triangles), so that
 * each value's part is contiguous (vtkContourGrid gives the same
 * triangles and points, but interleaves the values cell by cell). Equal
 * values give their surface twice. No value: an empty surface.
 * point_data: arrays of the points (points.count tuples, any dtype, any
 *   number of components), interpolated onto the surface's points as
 *   vtkContourGrid does (vtkDataArray::InterpolateTuple): (1 - t) a + t b
 *   in double, a and b the values at the crossed edge's ends of smaller
 *   and larger scalar, t the crossing's parameter from a; a point of the
 *   mesh on the surface takes its own value. The output keeps the input's
 *   dtype: integers are rounded to the nearest, halves away from zero,
 *   and clamped to the type's range, as VTK does.
 * cell_data: arrays of the cells (as many tuples as cells, before the
 *   split), each triangle taking the tuple of the cell it comes from.
 * normals: per point, the normalised sum of the unit normals of the
 *   triangles that use it (vtkContour3DLinearGrid's ComputeNormals and
 *   vtkPolyDataNormals without splitting: no gradient), float32, pointing
 *   towards smaller scalars (as the triangles' winding, and as
 *   vtkContourGrid's normals); a point of degenerate triangles only gets
 *   (0, 0, 0).
 * cell_ids: per triangle, the index of its source cell (int64).
 * scalars: per point, the isovalue of its surface (float64; VTK's
 *   ComputeScalars). */
struct request {
  std::vector<double> values;
  std::vector<array> point_data;
  std::vector<array> cell_data;
  bool normals = false;
  bool cell_ids = false;
  bool scalars = false;
  iso::policy policy;
};

/* The result of extract(), and the memory the next extraction into it
 * reuses: its output buffers (already faulted in) and the transient memory
 * of the extraction (kept mapped, at most what one call used at once: see
 * kept_bytes). Movable, not copyable. Not thread-safe: one call at a time
 * per surface (distinct surfaces: any threads at once).
 * The pointers returned stay valid until the next extract() into this
 * surface, release() or its destruction. */
class ADAPT_ISO_API surface {
public:
  surface() noexcept;
  ~surface();
  surface(surface &&) noexcept;
  surface &operator=(surface &&) noexcept;
  surface(const surface &) = delete;
  surface &operator=(const surface &) = delete;

  /* Points, 3 doubles each (x, y, z); triangles, 3 point ids each, wound
   * so that (p1 - p0) x (p2 - p0) points towards smaller scalars:
   * vtkContourGrid's triangles, corners in its order, on tetrahedra of
   * positive determinant (VTK's winding flips on the others, ours does
   * not). */
  std::size_t num_points() const noexcept;
  const double *points() const noexcept;
  std::size_t num_triangles() const noexcept;
  const std::int64_t *triangles() const noexcept;
  /* The part of value i (request::values[i]): its points are [first_point(i),
   * first_point(i + 1)), its triangles [first_triangle(i),
   * first_triangle(i + 1)); i = values.size() gives the totals. */
  std::size_t num_values() const noexcept;
  std::size_t first_point(std::size_t i) const noexcept;
  std::size_t first_triangle(std::size_t i) const noexcept;
  /* Interpolated point arrays and per-triangle cell arrays, in request
   * order (views of this surface's memory: type and components those of
   * the input array, count num_points() or num_triangles()). */
  std::size_t num_point_data() const noexcept;
  array point_data(std::size_t i) const noexcept;
  std::size_t num_cell_data() const noexcept;
  array cell_data(std::size_t i) const noexcept;
  /* NULL unless requested: 3 floats per point; one id per triangle; one
   * double per point. */
  const float *normals() const noexcept;
  const std::int64_t *cell_ids() const noexcept;
  const double *scalars() const noexcept;
  /* Sum of the triangles' areas. */
  double area() const noexcept;
  /* The message of the last extract() into this surface that failed ("",
   * after a success). */
  const char *message() const noexcept;
  /* Bytes of transient memory kept for the next call; release() gives
   * them back and empties the surface. */
  std::size_t kept_bytes() const noexcept;
  void release() noexcept;

  struct impl;

private:
  std::unique_ptr<impl> p_;
  friend ADAPT_ISO_API int extract(const input &, const request &, surface *) noexcept;
};

/* Starts libadapt's runtime (<adapt/adapt.h>) as extract() starts it for
 * a call that is not sequential, when it is not running: with `workers`
 * workers (0: ADAPT_WORKERS, else one per processing unit), unbound unless
 * the environment sets ADAPT_BIND. A library's implicit start does not pin
 * its caller: a bound start makes the calling thread worker 0, bound to
 * one CPU until adapt_finalize, and with it what the caller starts later
 * from that thread (a TBB arena of VTK's SMP filters sizes itself to that
 * one CPU). A runtime already running, bound or not, is left as it is.
 * Returns 0 (running after the call), -EINVAL workers < 0, -EBUSY it runs
 * with another worker count (workers > 0), or adapt_init's errors.
 * Calling context: any thread, inside an adapt region or not. Thread-safe.
 * Not guaranteed: that a runtime finalized by another thread between the
 * checks inside this call is not restarted with the environment's
 * binding. */
ADAPT_ISO_API int start_runtime(int workers) noexcept;

/* Extract the isosurfaces of in at req.values into *out (replaced on
 * success; emptied on error, its message set).
 * Memory: nothing of the caller's is copied: the arrays are read in place
 * (64-bit tetrahedra and VTK cell arrays converted, or split, a block of
 * cells at a time into a buffer on the stack), after one pass over the
 * ids and offsets that checks them. *out's buffers are reused when they
 * hold the new surface (and are at most twice as large), and the
 * transient memory of the previous call into *out is taken first.
 * Work: the extraction per value (that of adapt-isosurface); interpolated
 * arrays and cell data, loops over the output; source cells (cell_ids,
 * or needed by cell_data), two passes over the cells per value; normals,
 * one sequential pass over the triangles. Parallel as the policy says.
 * Calling context: any thread, inside an adapt region of the caller's (a
 * worker running a body: the call nests in it) or not. Concurrent calls
 * into distinct surfaces are safe (the input is only read).
 * Runtime: a call that is not sequential starts libadapt's runtime when it
 * is not running, as start_runtime(policy.worker_count()) does: unbound
 * unless ADAPT_BIND is set (the caller's thread keeps its CPUs).
 * Guaranteed: the output is the same, byte for byte, for every policy and
 * worker count. Not guaranteed: which worker runs what, the times.
 * Errors (message in out->message()):
 *  -EINVAL   out NULL (no message), a NULL array with a non-zero count, a
 *            component count or dtype not allowed for the field,
 *            mismatched lengths (scalars or a point array not
 *            points.count tuples, a cell array not one tuple per cell,
 *            tetra connectivity not a multiple of 4, offsets not cells + 1
 *            or not increasing from 0 to connectivity.count, a cell with
 *            the wrong number of points for its type), a non-finite
 *            isovalue, a bad policy value;
 *  -ERANGE   a point id outside [0, points.count);
 *  -ENOTSUP  a cell type other than the linear 3D ones (2D cells
 *            included), message naming the cell and its type;
 *  -EOVERFLOW a count times its element size overflows size_t, 2^32 - 1
 *            points or more, or more tetrahedra than the core takes;
 *  -EBUSY    policy().workers(n > 1) while the runtime runs with another
 *            number of workers;
 *  -ENOMEM, and the runtime's negative errno values. */
ADAPT_ISO_API int extract(const input &in, const request &req, surface *out) noexcept;

/* ---- Inline definitions ---------------------------------------------- */

namespace detail {
/* The integer dtype of `bytes` bytes (1, 2, 4 or 8), signed or not. */
constexpr dtype int_dtype(std::size_t bytes, bool is_signed) noexcept {
  return bytes == 1   ? (is_signed ? dtype::int8 : dtype::uint8)
         : bytes == 2 ? (is_signed ? dtype::int16 : dtype::uint16)
         : bytes == 4 ? (is_signed ? dtype::int32 : dtype::uint32)
                      : (is_signed ? dtype::int64 : dtype::uint64);
}

/* Whether T has a dtype: the char, short, int, long and long long types,
 * signed or not, float and double (not bool, not the wide characters). */
template <class T>
struct has_dtype
    : std::integral_constant<
          bool, (std::is_integral<T>::value && !std::is_same<T, bool>::value &&
                 !std::is_same<T, wchar_t>::value && !std::is_same<T, char16_t>::value &&
                 !std::is_same<T, char32_t>::value) ||
                    std::is_same<T, float>::value || std::is_same<T, double>::value> {};
} // namespace detail

template <class T>
constexpr dtype dtype_of() noexcept {
  static_assert(detail::has_dtype<T>::value,
                "dtype_of<T>: T is a char, short, int, long or long long type, float or double");
  return std::is_same<T, float>::value    ? dtype::float32
         : std::is_same<T, double>::value ? dtype::float64
                                          : detail::int_dtype(sizeof(T), std::is_signed<T>::value);
}

} // namespace iso
} // namespace adapt

#endif /* APPS_ISOSURFACE_CORE_INCLUDE_ADAPT_ISO_HPP */
