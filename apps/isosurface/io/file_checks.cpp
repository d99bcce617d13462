/* apps/isosurface/io: checks of a mesh file's declared counts and sizes (see
 * file_checks.h): the format of a path, and the checker of each format
 * (file_checks_legacy.cpp, file_checks_xml.cpp, file_checks_image.cpp). */
#include "file_checks.h"
#include "file_checks_shared.h"

#include <string>

namespace iso {

using checks::cannot_read;
using checks::check_legacy;
using checks::check_metaimage;
using checks::check_nifti;
using checks::check_xml;
using checks::ends_with;
using checks::lower;
using checks::Mapped;

std::string printable(const std::string &s, size_t max) {
  std::string out = s.size() > max ? s.substr(0, max) + "..." : s;
  for (char &c : out)
    if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
  return out;
}

FileFormat file_format(const std::string &path) {
  const std::string l = lower(path);
  if (ends_with(l, ".vtu")) return FileFormat::Vtu;
  if (ends_with(l, ".vti")) return FileFormat::Vti;
  if (ends_with(l, ".vts")) return FileFormat::Vts;
  if (ends_with(l, ".vtr")) return FileFormat::Vtr;
  if (ends_with(l, ".vtk")) return FileFormat::LegacyVtk;
  if (ends_with(l, ".mha") || ends_with(l, ".mhd")) return FileFormat::MetaImage;
  if (ends_with(l, ".nii")) return FileFormat::Nifti;
  if (ends_with(l, ".nii.gz")) return FileFormat::NiftiGz;
  if (ends_with(l, ".pvtu")) return FileFormat::Pvtu;
  if (ends_with(l, ".pvti")) return FileFormat::Pvti;
  if (ends_with(l, ".vtm")) return FileFormat::Vtm;
  if (ends_with(l, ".vtp")) return FileFormat::Vtp;
  return FileFormat::Unknown;
}

int check_file(const std::string &path, FileFormat f, std::string *err) {
  if (f == FileFormat::Nifti || f == FileFormat::NiftiGz)
    return check_nifti(path, f == FileFormat::NiftiGz, err);
  if (f == FileFormat::Unknown || f == FileFormat::Pvtu || f == FileFormat::Pvti ||
      f == FileFormat::Vtm)
    return 0;
  Mapped m(path);
  if (m.error()) return cannot_read(path, m.error(), err);
  switch (f) {
  case FileFormat::LegacyVtk: return check_legacy(path, m, err);
  case FileFormat::Vtu:
  case FileFormat::Vti:
  case FileFormat::Vts:
  case FileFormat::Vtr:
  case FileFormat::Vtp: return check_xml(path, m, err);
  case FileFormat::MetaImage: return check_metaimage(path, m, err);
  default: return 0;
  }
}

} // namespace iso
