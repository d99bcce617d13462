/* apps/isosurface/io: meshes and surfaces in VTK's parallel XML formats (see
 * docs/distributed.md), behind an interface free of VTK and MPI headers.
 *
 *  - A .pvtu (vtkXMLPUnstructuredGridWriter) holds N pieces, piece i the
 *    contiguous range [i*T/N, (i+1)*T/N) of the T cells, its points those
 *    its cells use (numbered in the order of first use: the locality of the
 *    cell order is kept), with the point scalars and the input point ids as
 *    VTK global ids (point array "GlobalPointIds").
 *  - A reader of pieces [first, last) of a .pvtu makes one mesh of them,
 *    points shared by its pieces merged (by global id, else by exact
 *    coordinates when the pieces have no global ids), the cells marked
 *    DUPLICATECELL in a piece's vtkGhostType cell array left out (ghost
 *    cells: another piece owns each and contours it; VTK 9.1's contour
 *    filters contour them and mark their triangles, the union of the
 *    pieces' surfaces is theirs without the marked triangles). The points
 *    used by no kept cell (those of ghost cells only) are then left out,
 *    the others keeping their order (scalars and global ids with them).
 *  - A .pvtp written by the ranks (dist.cpp) is read back as one surface,
 *    coincident points merged, and checked (manifold, against VTK).
 *
 * Calling context: one thread at a time (VTK's pipeline). Errors: a negative
 * errno and a one-line message naming the file in *err; outputs untouched.
 */
#ifndef APPS_ISOSURFACE_IO_PIECES_H
#define APPS_ISOSURFACE_IO_PIECES_H

#include "iso_config.h"
#include "mesh.h"
#include "mt.h"

#include <cstddef>
#include <string>
#include <vector>

namespace iso {

/* Name of the point array holding the input point ids in the pieces. */
extern const char *const kGlobalPointIds;

/* True if path ends with the extension ext (".pvtu"), case-insensitive. */
bool has_extension(const std::string &path, const char *ext);

/* Write m as path (.pvtu) and npieces piece files beside it (path without
 * ".pvtu" + "_<i>.vtu"), through vtkXMLPUnstructuredGridWriter. More pieces
 * than cells give empty pieces. Errors: -EINVAL npieces < 1 or path not a
 * .pvtu, -EIO VTK could not write a file (named). */
int write_pieces(const Mesh &m, const std::string &path, int npieces, std::string *err);

/* One point array as a .pvtu index declares it. */
struct ArrayDecl {
  std::string name, type; /* type as in the XML: Float64, Int64, ... */
  int components = 1;
};

/* What a .pvtu index says. */
struct PvtuIndex {
  std::string path;                /* the index */
  std::vector<std::string> pieces; /* piece files, resolved against the index's directory */
  std::vector<ArrayDecl> arrays;   /* its point arrays (PPointData) */
  std::string scalars;             /* the active scalars' name, "" if none */
};

/* Parse a .pvtu index with VTK's XML parser (the pieces are not opened).
 * Errors: -ENOENT unreadable, -EIO not XML, -EPROTO not a
 * PUnstructuredGrid index or a piece without Source, -EINVAL no pieces. */
int read_pvtu_index(const std::string &path, PvtuIndex *out, std::string *err);

/* How read_pieces reads. */
struct PieceReadOptions {
  std::string array; /* the scalars; "" the index's active scalars */
  /* Split voxels, hexahedra, wedges and pyramids into tetrahedra (split_cell,
   * mt.h), else they are refused. The split of a cell follows the order of
   * its points' global ids (by their coordinates in pieces without global
   * ids), so that a face shared by cells of different pieces, read by
   * different ranks, is cut the same way on both sides. */
  bool tetrahedralize = false;
  /* Keep each mesh point's global id: mesh->point_data gets the array
   * kGlobalPointIds (8-byte integers, VTK_ID_TYPE), which the renumberings
   * of reorder.h move with the points, when every piece read has global
   * ids (else no array is added). */
  bool global_ids = false;
};

/* Pieces [first, last) of idx as one mesh of tetrahedra. Each piece file is
 * checked (check_file) before VTK reads it, then its point arrays against
 * the index (names, types, components: pieces whose arrays differ are
 * refused), its cells (tetrahedra, or the cells opt.tetrahedralize
 * splits), its point ids. VTK's reader parses each piece's XML; its arrays
 * (only the points, the scalars, the global ids, the cells and their
 * ghost values) are then
 * read through VTK's parser ISO_PIECE_CHUNK values at a time and converted
 * at once: the peak memory is the mesh, the global-id table and one chunk.
 * first == last gives an empty mesh.
 * Errors: check_file's and VTK's on a piece (-ENOENT, -EINVAL, -EIO, named),
 * -EPROTO arrays that differ from the index, a cell that is not a
 * tetrahedron (nor split), a vtkGhostType cell array that is not one
 * integer per cell, -EINVAL an unknown array (the index's are
 * listed), -ERANGE a point id out of range, validate()'s. */
int read_pieces(const PvtuIndex &idx, size_t first, size_t last, const PieceReadOptions &opt,
                Mesh *mesh, std::string *err);

/* The whole .pvtu as one mesh (all its pieces; opt.global_ids ignored). */
int read_pvtu(const std::string &path, const PieceReadOptions &opt, Mesh *mesh, std::string *err);

/* Piece `piece` of a .pvtp output: its file name beside the index (path
 * without ".pvtp" + "_<piece>.vtp"), as vtkXMLPPolyDataWriter names it. */
std::string pvtp_piece_path(const std::string &pvtp, int piece);

/* A surface read back from a .pvtp (vtkXMLPPolyDataReader, every piece),
 * its coincident points (identical coordinates) merged; its global point
 * ids (VTK's, kGlobalPointIds as the distributed run writes them) checked
 * against that merge when the pieces have them. */
struct UnionSurface {
  Surface s;
  size_t pieces = 0;
  size_t points_read = 0; /* before merging */
  bool has_gids = false;
  size_t gid_distinct = 0; /* distinct global ids */
  size_t gid_mismatch = 0; /* points whose id differs from another's at the same place, or
                            * whose id another place has too */
  int64_t gid_min = 0, gid_max = -1;
  /* One id per merged vertex, dense from 0: ParaView merges by them what
   * coordinates merge. */
  bool gids_ok() const {
    return has_gids && gid_mismatch == 0 && gid_distinct == s.nverts() && gid_min == 0 &&
           gid_max + 1 == (int64_t)gid_distinct;
  }
};
/* Read the .pvtp at path into *out. Errors (one line naming the file in
 * *err, *out untouched): -ENOENT missing or not a regular file, -EIO VTK
 * could not read it, -EPROTO an index VTK's reader would crash on
 * (points of other than 3 components), a polygon that is not a triangle or
 * names a point the file does not have. */
int read_pvtp_union(const std::string &path, UnionSurface *out, std::string *err);

/* Edges of a triangle surface: each edge in one triangle (a border), in
 * two (inner; opposite directions when consistently oriented), in more
 * (not a manifold). Degenerate triangles (a repeated vertex) counted. */
struct EdgeStats {
  size_t border = 0, inner = 0, nonmanifold = 0, misoriented = 0, degenerate = 0;
  bool manifold() const { return nonmanifold == 0 && misoriented == 0 && degenerate == 0; }
};
EdgeStats edge_stats(const Surface &s);

/* The reference a union is checked against (vtkContourGrid on the whole
 * mesh): triangles, vertices used, area. */
struct UnionReference {
  size_t ntris = 0, nverts = 0;
  double area = 0;
};

/* Read the .pvtp at path, merge it, print one verification line per check
 * (triangles, vertices, area within rtol, manifold, and the global ids
 * when the pieces have them: UnionSurface::gids_ok) to stdout; true if all
 * pass. A read error is printed (naming the file) and fails. */
bool verify_union(const std::string &path, const UnionReference &ref, double rtol);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_PIECES_H */
