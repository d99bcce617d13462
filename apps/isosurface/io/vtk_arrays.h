/* apps/isosurface/io: the arrays a mesh read through VTK carries for the
 * surface (ReadOptions::arrays, vtk_bridge.h), and cell scalars made point
 * scalars. Used by vtk_bridge.cpp only; the same calling context (one
 * thread at a time, VTK's pipeline). */
#ifndef APPS_ISOSURFACE_IO_VTK_ARRAYS_H
#define APPS_ISOSURFACE_IO_VTK_ARRAYS_H

#include "mesh.h"
#include "vtk_bridge.h"

#include <vtkDataSet.h>
#include <vtkSmartPointer.h>

#include <cstdint>
#include <string>
#include <vector>

namespace iso {

/* Whether opt asks for cell scalars on ds: opt.cell_scalars, or opt.array
 * naming no point array but a cell array of ds. */
bool wants_cell_scalars(vtkDataSet *ds, const ReadOptions &opt);

/* The cell array opt.array (or ds's active cell scalars) converted to point
 * data by vtkCellDataToPointData (each point the mean of the cells that
 * use it; the other arrays passed, not converted): *ds replaced by the
 * converted dataset, *name the array's name. Errors: -EINVAL no such cell
 * array (the message lists the cell arrays), more than one component;
 * -EIO VTK's filter failed. */
int cell_scalars_to_points(vtkSmartPointer<vtkDataSet> *ds, const ReadOptions &opt,
                           std::string *name, std::string *err);

/* The arrays opt asks for (opt.all_arrays: every numeric point and cell
 * array but the scalars `scalars`; else opt.arrays by name, point arrays
 * first) copied from ds into m->point_data and m->cell_data, in ds's
 * order. Mesh point p takes ds's point point_src[p] (point_src empty: p);
 * cell arrays only when with_cells (one tuple per ds cell, m's cells those
 * of ds in order). Types kept (VTK_LONG, VTK_ID_TYPE, VTK_CHAR, ... as
 * the integer of their width), arrays not in VTK's standard layout read as
 * doubles. Errors: -EINVAL a named array not there (the message lists the
 * point and cell arrays), not numeric, of the wrong length; -ENOTSUP a
 * named cell array when !with_cells; -ENOMEM. */
int copy_arrays(vtkDataSet *ds, const ReadOptions &opt, const std::string &scalars,
                const std::vector<int64_t> &point_src, bool with_cells, Mesh *m, std::string *err);

/* Whether opt asks for point arrays of ds other than `scalars`. */
bool wants_point_arrays(vtkDataSet *ds, const ReadOptions &opt, const std::string &scalars);

/* The image point each point of the mesh tetrahedralize_grid makes of an
 * image of dims points with opt's split and order comes from (its
 * numbering by first use): the same split of a grid whose scalars are the
 * point indices. Errors: tetrahedralize_grid's, -ENOMEM. */
int image_point_sources(const int64_t dims[3], const ReadOptions &opt, std::vector<int64_t> *src,
                        std::string *err);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_VTK_ARRAYS_H */
