/* apps/isosurface/io: everything that goes through VTK 9.1 (file readers and
 * writers, the peer filters, rendering), behind an interface free of VTK
 * headers so that only vtk_bridge.cpp, vtk_files.cpp, vtk_peers.cpp and
 * render.cpp pay for them (and the pieces' files and dist.cpp, see pieces.h
 * and dist.h).
 *
 * Calling context: one thread at a time (VTK's pipeline and the global SMP
 * backend setting are not thread-safe); VtkGrid::run may start VTK's SMP
 * threads. Results are returned by value or through the caller's objects;
 * nothing returned is owned by VTK. On error the outputs are untouched.
 */
#ifndef APPS_ISOSURFACE_IO_VTK_BRIDGE_H
#define APPS_ISOSURFACE_IO_VTK_BRIDGE_H

#include "mesh.h"
#include "mt.h"

#include <memory>
#include <string>
#include <vector>

namespace iso {

/* How to read a file. */
struct ReadOptions {
  std::string array;           /* point scalars by name; "" = the active scalars */
  bool tetrahedralize = false; /* split non-tetrahedral 3D cells (vtkDataSetTriangleFilter) */
  Split split = Split::Five;   /* image volumes: hexahedron split */
  Order order = Order::Lex;    /* image volumes: cell order */
  /* Cell scalars: the cell array `array` (or the active cell scalars)
   * converted to point data as vtkCellDataToPointData does (each point the
   * mean of the cells that use it), then contoured. Also when `array`
   * names no point array but a cell array. */
  bool cell_scalars = false;
  /* The arrays carried into Mesh::point_data and Mesh::cell_data for the
   * surface: every numeric point and cell array but the scalars
   * (all_arrays), else those named (an unknown name is an error listing
   * the arrays). Image volumes carry point arrays only. */
  bool all_arrays = false;
  std::vector<std::string> arrays;
};

/* The blocks of a multiblock (.vtm) input as read_mesh read them: the
 * tree's structure and block names (no data), its blocks (the leaves that
 * hold a dataset, in VTK's iterator order) numbered 0 .. count() - 1 as
 * Mesh::tet_block numbers them; no impl for another input. Read-only once
 * made: copies share it, and may be used from any one thread at a time. */
struct BlockTree {
  struct Impl; /* vtk_datasets.h */
  std::shared_ptr<const Impl> impl;
  size_t count() const;
};

/* Read an unstructured grid (.vtu, legacy .vtk), a structured or
 * rectilinear grid (.vts, .vtr, legacy .vtk), a multiblock (.vtm) or an
 * image volume (.vti, .pvti, .mha/.mhd, .nii, .nii.gz, legacy .vtk
 * structured points) through VTK's readers, after check_input
 * (vtk_datasets.h) has checked the counts and sizes the file (and the
 * files an index names) declares; structured and rectilinear grids and a
 * multiblock's blocks are split as vtk_datasets.h says (a .vtm's surfaces
 * are one mesh); image volumes are tetrahedralized by
 * tetrahedralize_grid at their physical place (origin, extent start,
 * spacing, direction; a NIfTI file's sform, else qform, else pixdim). What VTK returns is checked before use: the scalars
 * have one value per point, one cell type per cell, the cell offsets within
 * the connectivity, every point id in range, each cell its type's point
 * count.
 * Errors (message in *err, one line): -ENOENT missing or unreadable file
 * (or one an index names), -ENOTSUP unknown extension, dataset type or
 * file variant, a .vtm block that is not a 3D dataset, -EINVAL a count
 * or size the file cannot hold, an unknown array (the message lists the
 * available ones), an array with more than one component or of the wrong
 * length, a cell with the wrong point count; -ERANGE a point id out of
 * range; -EPROTO a cell that is not a tetrahedron (named in the message;
 * tetrahedralize splits the linear 3D ones, never 2D cells), -EDOM a
 * non-finite image origin, spacing or direction; -EIO VTK failed to parse
 * the file (or threw); plus validate()'s.
 * A .pvtu index (file_format) is read whole by read_pvtu (pieces.h), with
 * opt.array and opt.tetrahedralize only (its cells split by split_cell,
 * mt.h, in the order of their global ids), and its errors (-ENOTSUP when opt asks for cell scalars
 * or names arrays; all_arrays carries none).
 * A .vtm gives mesh->tet_block, each tetrahedron's block, and, when blocks
 * is not null, *blocks its tree (write_surface_blocks); another input an
 * empty tet_block and *blocks without impl. */
int read_mesh(const std::string &path, const ReadOptions &opt, Mesh *mesh, std::string *err,
              BlockTree *blocks);

/* read_mesh without the block tree. */
int read_mesh(const std::string &path, const ReadOptions &opt, Mesh *mesh, std::string *err);

/* VTK's image volume reference: the file read by VTK's reader (after the
 * same checks as read_mesh) and contoured by VTK's vtkContourFilter at iso,
 * its points as VTK places them (origin, extent, spacing, direction). The
 * tests compare read_mesh's geometry with it. Errors: read_mesh's, -ENOTSUP
 * not an image volume, -EIO filter error. */
int vtk_image_contour(const std::string &path, const std::string &array, double iso, Surface *s,
                      std::string *err);

/* VTK's version, e.g. "9.1.0". */
std::string vtk_version();

/* Write the mesh as a .vtu (binary, appended). 0 or -EIO. */
int write_vtu(const Mesh &m, const std::string &path, std::string *err);

/* Write the surface as a .vtp through vtkXMLPolyDataWriter. 0 or -EIO. */
int write_vtp(const Surface &s, const std::string &path, std::string *err);

/* Write the mesh in the format of path's extension (case-insensitive):
 * .vtu (write_vtu) or legacy .vtk (vtkUnstructuredGridWriter, binary).
 * 0, -ENOTSUP another extension (nothing written), -EIO the write failed. */
int write_mesh(const Mesh &m, const std::string &path, std::string *err);

/* Write the surface in the format of path's extension (case-insensitive):
 * .vtp (write_vtp) or legacy .vtk (vtkPolyDataWriter, binary). 0, -ENOTSUP
 * another extension (nothing written), -EIO the write failed. */
int write_surface(const Surface &s, const std::string &path, std::string *err);

/* The same with arrays: point_data (a tuple per surface point) and
 * cell_data (a tuple per triangle) as vtkDataArrays of their type (VTK's
 * code, MeshArray::type) and names; the first point array is made the
 * active scalars when `scalars` is set. Errors: write_surface's, -EINVAL
 * an array of another length or type. */
int write_surface(const Surface &s, const std::vector<MeshArray> &point_data,
                  const std::vector<MeshArray> &cell_data, bool scalars, const std::string &path,
                  std::string *err);

/* A .vtm input's surface a block per block, written to path (.vtm, else
 * -ENOTSUP) through vtkXMLMultiBlockDataWriter: the tree of blocks
 * (structure, names), each block a polydata of the triangles t whose
 * tri_block[t] is its number (their vertices renumbered in order of first
 * use, the arrays' tuples with them), an empty polydata for a block
 * without triangles (VTK's writer leaves it out when it is the last of
 * its parent), a leaf without a dataset left empty; the arrays as
 * write_surface's. Errors:
 * write_surface's, -EINVAL tri_block of another length than the
 * triangles or naming a block the tree lacks, a tree without impl. */
int write_surface_blocks(const BlockTree &blocks, const Surface &s,
                         const std::vector<uint32_t> &tri_block,
                         const std::vector<MeshArray> &point_data,
                         const std::vector<MeshArray> &cell_data, bool scalars,
                         const std::string &path, std::string *err);

/* Read a .vtp written by write_vtp (or any polydata of triangles; one
 * without points is the empty surface): 0, or
 * -ENOENT (missing, not a regular file), -EIO (VTK could not read it;
 * VTK's own messages are caught, the reason is the one line of *err),
 * -EPROTO (a triangle names a point the file does not have), check_file's
 * (its counts and compressed blocks checked first: -EINVAL). */
int read_vtp(const std::string &path, Surface *s, std::string *err);

/* Read a surface by path's extension (case-insensitive): .vtp (read_vtp),
 * .pvtp (vtkXMLPPolyDataReader: the pieces appended, the points they share
 * not merged, after the index's check: points of 3 components) or legacy
 * .vtk (polydata, after check_file). 0, or read_vtp's errors, check_file's,
 * -EPROTO a .pvtp index that fails its check, -ENOTSUP another extension. */
int read_surface(const std::string &path, Surface *s, std::string *err);

/* The VTK peers. */
enum class Peer {
  ContourGrid,      /* vtkContourGrid, serial reference */
  Linear3DTBB,      /* vtkContour3DLinearGrid, merge on, SMP backend TBB */
  Linear3DSTDThread /* same with the STDThread backend */
};
const char *peer_name(Peer p);

/* What a peer produced. */
struct PeerResult {
  double seconds = 0; /* Update() of the filter */
  size_t ntris = 0;
  size_t npoints = 0;      /* output points (VTK keeps those of dropped triangles) */
  size_t npoints_used = 0; /* points referenced by a triangle */
  double area = 0;
};

/* The mesh as a vtkUnstructuredGrid (built once, points as doubles). */
class VtkGrid {
public:
  explicit VtkGrid(const Mesh &m);
  ~VtkGrid();
  VtkGrid(const VtkGrid &) = delete;
  VtkGrid &operator=(const VtkGrid &) = delete;
  /* Run one peer at the isovalues isos (SetValue(i, isos[i])) with
   * `threads` SMP threads (ignored by ContourGrid). Errors: -ENOTSUP the
   * SMP backend is not in this VTK, -EIO filter error. */
  int run(Peer p, const std::vector<double> &isos, int threads, PeerResult *out, std::string *err);
  /* Diagnostic of Debian VTK 9.1's vtkSMPContourGrid (MergePieces on, TBB
   * backend, `threads` threads): its triangles are matched, by their three
   * vertex positions, against vtkContourGrid's. *ntris its triangle count,
   * *unmatched those with no identical triangle in vtkContourGrid's output.
   * Errors: -EIO filter error. */
  int smp_contour_check(double iso, int threads, size_t *ntris, size_t *unmatched,
                        std::string *err);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/* Whether render_png can run here: DISPLAY names an X display that opens
 * (VTK's X window aborts the process when it cannot open it). 0, or -EIO
 * and a one-line message saying to run under xvfb-run. The first success
 * opens a connection to the X server kept until exit (so that the server
 * does not reset before VTK's window connects); later calls return 0.
 * Not thread-safe. Defined in render.cpp. */
int render_check(std::string *err);

/* Render the surface to a PNG (width x height) with VTK's OpenGL2 backend
 * (needs an X display: run under xvfb-run). 0 or -EIO. Defined in
 * render.cpp. */
int render_png(const Surface &s, const std::string &png, int width, int height,
               const std::string &title, std::string *err);

/* Same, the surface coloured by the point array `array` of the dataset in
 * `source` (.vti image or .vtu grid, checked by check_file first) probed at
 * its vertices (vtkProbeFilter: interpolated in the cell that holds the
 * vertex), with a colour bar; the title may hold several lines. Errors:
 * render_png's, check_file's, -ENOTSUP another format, -EINVAL no such
 * array (the message lists the point arrays) or not one component, -EIO
 * VTK failed to read the file. Defined in render.cpp. */
int render_png_colored(const Surface &s, const std::string &png, int width, int height,
                       const std::string &title, const std::string &source,
                       const std::string &array, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_VTK_BRIDGE_H */
