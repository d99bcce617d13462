/* apps/isosurface/io: the datasets read_mesh (vtk_bridge.h) takes besides
 * unstructured grids and image volumes, and the VTK cell types it knows.
 * Used by vtk_bridge.cpp only; the same calling context (one thread at a
 * time, VTK's pipeline); errors are a negative errno and one line naming
 * the file in *err.
 *
 *  - .vts / .vtr (structured and rectilinear grids): their hexahedra or
 *    voxels split into tetrahedra by vtkDataSetTriangleFilter (as
 *    --tetrahedralize splits an unstructured grid's; no option needed),
 *    their points kept at their precision, cell data copied to each
 *    tetrahedron of the cell.
 *  - .pvti (an index of .vti pieces): vtkXMLPImageDataReader's image,
 *    read as a .vti is.
 *  - .vtm (a multiblock index of .vtu, .vti, .vts, .vtr block files): every
 *    non-empty block, tetrahedralized as above when it is not an
 *    unstructured grid (an image block too: --split and --order are those
 *    of a lone image's own tetrahedralization, which a block's split into
 *    one appended grid does not go through), appended into one
 *    unstructured grid (vtkAppendFilter, points not merged: each block
 *    contoured as vtkContourFilter contours it), each cell carrying its
 *    block's number (kBlockArray, taken out by take_blocks into
 *    Mesh::tet_block) so that the surface can be written a block per
 *    block (write_surface_blocks). Arrays are those every block has.
 *  - Blanked cells (VTK 9.1's IsCellVisible: a HIDDENCELL or REFINEDCELL
 *    bit in the vtkGhostType cell array, or a hidden point): a structured
 *    grid's are left out by vtkDataSetTriangleFilter (its GetCell gives an
 *    empty cell), as vtkContourFilter's structured-grid path
 *    (vtkGridSynchronizedTemplates3D) leaves them out; a rectilinear grid's
 *    and an image block's are split and contoured, as vtkContourFilter's
 *    paths for them (vtkRectilinearSynchronizedTemplates, vtkFlyingEdges3D)
 *    contour them; DUPLICATECELL ghosts are kept (a .pvtu's pieces, read by
 *    pieces.h, leave them out), and so are an
 *    unstructured grid's hidden cells (VTK 9.1's vtkContourGrid and
 *    vtkContour3DLinearGrid read no ghost array). */
#ifndef APPS_ISOSURFACE_IO_VTK_DATASETS_H
#define APPS_ISOSURFACE_IO_VTK_DATASETS_H

#include "file_checks.h"
#include "vtk_bridge.h"

#include <vtkDataSet.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkSmartPointer.h>

#include <cstdint>
#include <string>
#include <vector>

namespace iso {

/* The cell array that numbers a multiblock's blocks through the append and
 * the splits (removed by take_blocks before the arrays are carried). */
constexpr char kBlockArray[] = "adapt-isosurface block";

/* A .vtm's tree: its structure and the blocks' names and metadata
 * (vtkDataObjectTree::CopyStructure, no data), and block b's flat index
 * in it (the leaves that hold a dataset, in VTK's iterator order). */
struct BlockTree::Impl {
  vtkSmartPointer<vtkMultiBlockDataSet> tree;
  std::vector<unsigned> flat;
};

/* The point count of the linear 3D cell types --tetrahedralize splits, 0
 * for the others. */
int linear_3d_points(int type);

/* The dimension of a VTK cell type: 3, or 2 and below, -1 if unknown. */
int cell_dimension(int type);

/* What is checked before VTK's reader opens the file at path (format f):
 * check_file, or for an index (.pvti, .vtm) the index and every file it
 * names. A .pvti: a PImageData with a WholeExtent, each piece a .vti with
 * a Source and an Extent inside the whole, passing check_file; its point
 * arrays of at least 1 component; the whole extent's values (points times
 * the largest component count) at most what the pieces' bytes can hold
 * (compressed: 1032 per byte). A .vtm: a vtkMultiBlockDataSet, its block
 * files .vtu, .vti, .vts or .vtr passing check_file, at least one, nested
 * at most 32 deep. Errors: check_file's, -ENOENT a file that cannot be
 * read (named), -EIO an index that is not XML, -EPROTO an index of another
 * type, a piece without Source or Extent, an array of fewer than 1
 * component, -ENOTSUP a block file of another format, -EINVAL an extent
 * outside the whole, more values than the pieces hold, no block file. */
int check_input(const std::string &path, FileFormat f, std::string *err);

/* *ds, a structured or rectilinear grid or an image, replaced by its
 * tetrahedra (vtkDataSetTriangleFilter, tetrahedra only) on ds's points
 * at their precision (the filter rounds them to float), a structured
 * grid's blanked cells left out (see the top); other datasets untouched.
 * 0 or -EIO (the filter failed). */
int structured_to_tets(vtkSmartPointer<vtkDataSet> *ds, std::string *err);

/* The blocks of mb as one unstructured grid (see the top) in *out, its
 * cells' blocks in kBlockArray; mb's tree in *tree when tree is not null.
 * Cell scalars (wants_cell_scalars, vtk_arrays.h) are converted block by
 * block before the split; *array is then their name (else untouched).
 * Errors: cell_scalars_to_points's, -ENOTSUP a block that is not a 3D
 * dataset (polydata), -EINVAL no block with cells, -EIO VTK's filters
 * failed. */
int append_blocks(vtkMultiBlockDataSet *mb, const ReadOptions &opt,
                  vtkSmartPointer<vtkDataSet> *out, std::string *array, BlockTree *tree,
                  std::string *err);

/* ds's kBlockArray (ds of ncells cells, after every split of its cells)
 * removed from its cell data and copied into *tet_block; nothing done
 * without one. 0, -EIO a length other than ncells, -ENOMEM. */
int take_blocks(vtkDataSet *ds, size_t ncells, std::vector<uint32_t> *tet_block, std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_VTK_DATASETS_H */
