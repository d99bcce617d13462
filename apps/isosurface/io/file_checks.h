/* apps/isosurface/io: checks of a mesh file's declared counts and sizes, run
 * before VTK's reader sees the file (no VTK here).
 *
 * VTK's readers allocate what a file's header declares before they read
 * the data, and some trust the header further (Debian VTK 9.1's NIfTI reader
 * dereferences a null pointer for an unknown data type). So every count,
 * dimension and size a file declares is checked first against what the
 * file's bytes can hold:
 *  - legacy .vtk: walked as VTK's reader walks it: the header, then each
 *    keyword (an unknown one is refused) with its arguments on its line,
 *    then the values it announces (POINTS, CELLS or OFFSETS and
 *    CONNECTIVITY, CELL_TYPES, coordinates, the attributes, FIELD arrays):
 *    counts non-negative, at most 8 values per byte of the file (bit arrays
 *    pack 8), and every value there (ASCII: a number per token; binary: the
 *    bytes), so a truncated or malformed file is refused before VTK reads it;
 *    a cell list before version 5 tiles its size with exactly its cells, a
 *    version 5 OFFSETS goes from 0 up to the CONNECTIVITY size; the
 *    METADATA block VTK 9 writes after an array (component names,
 *    information keys), FIELD arrays included, is skipped up to its empty
 *    line;
 *  - XML .vtu/.vti/.vts/.vtr/.vtp: NumberOfPoints, NumberOfCells (a .vtp's
 *    NumberOfVerts, -Lines, -Strips, -Polys), Extent, WholeExtent,
 *    NumberOfComponents, NumberOfTuples: at most 8 values per byte, or 1032
 *    (zlib's largest ratio) per byte when the file declares a compressor;
 *    the header of each binary or appended array (byte count, or block
 *    count and sizes) within what follows it; in every piece's cell
 *    sections (<Cells>, <Verts>, <Lines>, <Strips>, <Polys>) the values VTK
 *    sizes its arrays by, decoded (ascii, base64 or raw, zlib-compressed or
 *    not; appended when the element has an offset attribute, whatever its
 *    format, as VTK reads it): the first NumberOfCells "offsets" present,
 *    non-negative, non-decreasing, the last at most the values of
 *    "connectivity"; a
 *    polyhedron's "faceoffsets" likewise against "faces", whose face lists
 *    must end at the last face offset;
 *  - MetaImage .mha/.mhd: NDims 1..3, DimSize, ElementNumberOfChannels,
 *    ElementType: the image's bytes must be in the data file (LOCAL or the
 *    file named), compressed data at most 1:1032;
 *  - NIfTI-1/-2 .nii/.nii.gz: header size and magic, dim[0] 1..7, every
 *    used dim >= 1, a data type VTK reads with its bitpix, vox_offset past
 *    the header: the image's bytes must be in the (decompressed) file.
 * What VTK then returns is checked by vtk_bridge.cpp (array sizes, point
 * ids, cell types) and validate() (ids, NaN). */
#ifndef APPS_ISOSURFACE_IO_FILE_CHECKS_H
#define APPS_ISOSURFACE_IO_FILE_CHECKS_H

#include <cstddef>
#include <string>

namespace iso {

/* The formats, by file name extension (case-insensitive): the one place
 * that decides how an input is read. Vts, Vtr: XML structured and
 * rectilinear grids. Pvtu: a .pvtu index of pieces (pieces.h; check_file
 * has nothing to check in it, read_pvtu_index does). Pvti, Vtm: a .pvti
 * index of .vti pieces, a .vtm multiblock index of block files (check_file
 * has nothing to check in them either: vtk_datasets.h checks the index and
 * the files it names). Vtp: a surface (read_vtp, a .pvtp's pieces), not a
 * mesh. */
enum class FileFormat {
  Vtu,
  Vti,
  Vts,
  Vtr,
  LegacyVtk,
  MetaImage,
  Nifti,
  NiftiGz,
  Pvtu,
  Pvti,
  Vtm,
  Vtp,
  Unknown
};
FileFormat file_format(const std::string &path);

/* Check the declared counts and sizes of the file at path (format f).
 * 0, or (message naming the file and the value in *err): -EINVAL a count,
 * dimension or size that is negative, malformed where a number is needed,
 * overflows, or exceeds what the file can hold; -ENOTSUP a variant the app
 * does not read (NIfTI data type, MetaImage file lists); -ENOENT the file
 * (or a MetaImage's data file) cannot be read. Reads the file; no
 * allocation larger than the file (XML files are copied once, the others
 * mapped or streamed). */
int check_file(const std::string &path, FileFormat f, std::string *err);

/* s made printable on one line: control characters become '?', and past
 * max bytes it is cut and ends with "...". For messages that quote a file's
 * contents (names, values). */
std::string printable(const std::string &s, size_t max = 400);

} // namespace iso

#endif /* APPS_ISOSURFACE_IO_FILE_CHECKS_H */
