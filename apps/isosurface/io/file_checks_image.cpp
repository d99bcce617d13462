/* apps/isosurface/io: the checks of the image formats (see file_checks.h):
 * MetaImage .mha/.mhd, NIfTI-1/-2 .nii/.nii.gz. */
#include "file_checks.h"
#include "file_checks_shared.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

namespace iso {
namespace checks {

namespace {

/* ---- MetaImage .mha / .mhd --------------------------------------------- */

/* Bytes of one value of a MetaImage element type (the smallest for
 * platform-dependent ones), 0 if unknown. */
uint64_t meta_type_size(const std::string &t) {
  static const WordGroup types[] = {{1, "MET_CHAR MET_UCHAR"},
                                    {2, "MET_SHORT MET_USHORT"},
                                    {4, "MET_INT MET_UINT MET_LONG MET_ULONG MET_FLOAT"},
                                    {8, "MET_LONG_LONG MET_ULONG_LONG MET_DOUBLE"}};
  return (uint64_t)group_of(types, t, 0);
}

/* What a MetaImage header declares. */
struct MetaHeader {
  uint64_t ndims = 0, channels = 1, elem = 0, dims[3] = {0, 0, 0};
  int64_t header_size = 0;
  bool have_dims = false, compressed = false, have_type = false;
  std::string data_file; /* ElementDataFile, trimmed: the last line of the header */
  size_t data_start = 0; /* where the header ends */
};

/* One header line "key = value" (v: value's words) into *h. */
int meta_key(Report &r, const std::string &key, const std::vector<std::string> &v,
             const std::string &value, MetaHeader *h) {
  if (key == "NDims") {
    if (v.size() != 1 || !parse_count(v[0], &h->ndims) || h->ndims < 1 || h->ndims > 3)
      return r.fail("NDims: expected 1, 2 or 3");
  } else if (key == "DimSize") {
    if (h->ndims == 0) return r.fail("DimSize before NDims");
    if (v.size() != h->ndims)
      return r.fail("DimSize: expected " + std::to_string(h->ndims) + " sizes");
    for (size_t d = 0; d < h->ndims; d++)
      if (!parse_count(v[d], &h->dims[d]) || h->dims[d] < 1 || h->dims[d] > INT32_MAX)
        return r.fail("DimSize: expected positive 32-bit integers, got '" + v[d] + "'");
    h->have_dims = true;
  } else if (key == "ElementNumberOfChannels") {
    if (v.size() != 1 || !parse_count(v[0], &h->channels) || h->channels < 1 || h->channels > 4096)
      return r.fail("ElementNumberOfChannels: expected 1..4096");
  } else if (key == "ElementType") {
    if (v.size() != 1 || !(h->elem = meta_type_size(v[0])))
      return r.fail("ElementType: unknown type '" + (v.empty() ? "" : v[0]) + "'");
    h->have_type = true;
  } else if (key == "CompressedData") {
    h->compressed = v.size() == 1 && (v[0] == "True" || v[0] == "true");
  } else if (key == "HeaderSize") {
    if (v.size() != 1 || !parse_signed(v[0], &h->header_size) || h->header_size < -1)
      return r.fail("HeaderSize: expected an integer >= -1");
  } else if (key == "ObjectType") {
    if (v.size() != 1 || v[0] != "Image") return r.fail("ObjectType: expected Image");
  } else if (key == "ElementDataFile") {
    if (v.empty()) return r.fail("ElementDataFile: no file named");
    h->data_file = value;
    h->data_file.erase(0, h->data_file.find_first_not_of(" \t"));
    h->data_file.erase(h->data_file.find_last_not_of(" \t\r") + 1);
  }
  return 0;
}

/* The header's lines, up to ElementDataFile, into *h. */
int meta_header(Report &r, const Mapped &f, MetaHeader *h) {
  size_t pos = 0;
  h->data_start = f.size();
  while (pos < f.size()) {
    const char *start = f.data() + pos;
    const char *nl = static_cast<const char *>(std::memchr(start, '\n', f.size() - pos));
    const size_t len = nl ? (size_t)(nl - start) : f.size() - pos;
    pos += len + 1;
    const std::string line(start, len);
    const size_t eq = line.find('=');
    if (eq == std::string::npos) {
      if (split_ws(line).empty()) continue;
      return r.fail("MetaImage header line without '=': '" + line.substr(0, 60) + "'");
    }
    const std::vector<std::string> k = split_ws(line.substr(0, eq));
    if (k.size() != 1)
      return r.fail("malformed MetaImage header line '" + line.substr(0, 60) + "'");
    if (int rc = meta_key(r, k[0], split_ws(line.substr(eq + 1)), line.substr(eq + 1), h))
      return rc;
    if (k[0] == "ElementDataFile") {
      h->data_start = pos;
      break;
    }
  }
  if (h->data_file.empty()) return r.fail("no ElementDataFile in the MetaImage header");
  if (!h->have_dims || !h->have_type)
    return r.fail("the MetaImage header lacks DimSize or ElementType");
  return 0;
}

/* The bytes of image data there are: after the header (LOCAL) or in the
 * data file, less HeaderSize. */
int meta_available(Report &r, const std::string &path, const Mapped &f, const MetaHeader &h,
                   uint64_t *avail, std::string *err) {
  if (h.data_file == "LOCAL") {
    *avail = h.data_start >= f.size() ? 0 : (uint64_t)(f.size() - h.data_start);
  } else {
    const std::string &file = h.data_file;
    if (file.find('%') != std::string::npos || file.compare(0, 4, "LIST") == 0)
      return r.fail("ElementDataFile: file lists and patterns are not supported ('" + file + "')");
    const size_t slash = path.rfind('/');
    const std::string full =
        file[0] == '/' || slash == std::string::npos ? file : path.substr(0, slash + 1) + file;
    struct stat st;
    if (stat(full.c_str(), &st) != 0) return cannot_read(full, errno, err);
    *avail = (uint64_t)st.st_size;
  }
  const int64_t skip = h.header_size;
  if (skip > 0) *avail = *avail > (uint64_t)skip ? *avail - (uint64_t)skip : 0;
  return 0;
}

} // namespace

int check_metaimage(const std::string &path, const Mapped &f, std::string *err) {
  Report r{path, err};
  MetaHeader h;
  if (int rc = meta_header(r, f, &h)) return rc;
  uint64_t avail = 0;
  if (int rc = meta_available(r, path, f, h, &avail, err)) return rc;
  uint64_t need = 0;
  if (!product(
          {h.dims[0], h.ndims > 1 ? h.dims[1] : 1, h.ndims > 2 ? h.dims[2] : 1, h.channels, h.elem},
          &need))
    return r.fail("the image size overflows");
  const uint64_t can =
      h.compressed
          ? (avail > UINT64_MAX / compression_ratio ? UINT64_MAX : avail * compression_ratio)
          : avail;
  if (need > can)
    return r.fail("the header declares " + std::to_string(need) + " bytes of image data, the " +
                  (h.compressed ? "compressed " : "") + "data holds " + std::to_string(avail) +
                  " bytes");
  return 0;
}

namespace {

/* ---- NIfTI .nii / .nii.gz ---------------------------------------------- */

/* Bytes per voxel of the NIfTI data types VTK 9.1 reads, 0 otherwise. */
uint64_t nifti_type_size(int t) {
  switch (t) {
  case 2:
  case 256: return 1; /* uint8, int8 */
  case 4:
  case 512: return 2; /* int16, uint16 */
  case 8:
  case 768:
  case 16: return 4; /* int32, uint32, float32 */
  case 1024:
  case 1280:
  case 64: return 8;    /* int64, uint64, float64 */
  case 128: return 3;   /* RGB24 */
  case 2304: return 4;  /* RGBA32 */
  case 32: return 8;    /* complex64 */
  case 1792: return 16; /* complex128 */
  default: return 0;
  }
}

/* The bytes of a file, or of its gzip stream decompressed: up to
 * head.size() into head, *total all of them. */
int read_head(const std::string &path, bool gz, std::vector<unsigned char> *head, uint64_t *total,
              std::string *err) {
  gzFile z = gzopen(path.c_str(), "rb"); /* reads plain files as they are */
  if (!z) return cannot_read(path, errno ? errno : EIO, err);
  uint64_t n = 0;
  size_t got = 0;
  std::vector<unsigned char> buf(1 << 16);
  for (;;) {
    const int k = gzread(z, buf.data(), (unsigned)buf.size());
    if (k < 0) {
      int zerr;
      *err =
          "'" + path + "': " + (gz ? "gzip stream" : "file") + " unreadable: " + gzerror(z, &zerr);
      gzclose(z);
      return -EINVAL;
    }
    if (k == 0) break;
    const size_t take = std::min((size_t)k, head->size() - got);
    std::memcpy(head->data() + got, buf.data(), take);
    got += take;
    n += (uint64_t)k;
  }
  gzclose(z);
  head->resize(got);
  *total = n;
  return 0;
}

template <class T>
T get(const std::vector<unsigned char> &h, size_t off, bool swap) {
  T v;
  unsigned char b[sizeof(T)];
  std::memcpy(b, &h[off], sizeof(T));
  if (swap) std::reverse(b, b + sizeof(T));
  std::memcpy(&v, b, sizeof(T));
  return v;
}

} // namespace

int check_nifti(const std::string &path, bool gz, std::string *err) {
  Report r{path, err};
  std::vector<unsigned char> h(540);
  uint64_t total = 0;
  if (int rc = read_head(path, gz, &h, &total, err)) return rc;
  if (h.size() < 348) return r.fail("too short for a NIfTI header");
  const int32_t sz = get<int32_t>(h, 0, false);
  const bool swap = sz == 0x5c010000 || sz == 0x1c020000;
  const int32_t hsize = swap ? get<int32_t>(h, 0, true) : sz;
  int version;
  if (hsize == 348)
    version = 1;
  else if (hsize == 540 && h.size() >= 540)
    version = 2;
  else
    return r.fail("not a NIfTI-1 or NIfTI-2 header (sizeof_hdr " + std::to_string(hsize) + ")");
  int64_t dim[8];
  int datatype, bitpix;
  double vox_offset, pixdim[4];
  if (version == 1) {
    if (std::memcmp(&h[344], "n+1", 4) != 0)
      return r.fail("NIfTI-1 magic is not \"n+1\" (a single-file .nii is needed)");
    for (int k = 0; k < 8; k++) dim[k] = get<int16_t>(h, 40 + 2 * (size_t)k, swap);
    datatype = get<int16_t>(h, 70, swap);
    bitpix = get<int16_t>(h, 72, swap);
    for (int k = 0; k < 4; k++) pixdim[k] = get<float>(h, 76 + 4 * (size_t)k, swap);
    vox_offset = get<float>(h, 108, swap);
  } else {
    if (std::memcmp(&h[4], "n+2\0\r\n\032\n", 8) != 0)
      return r.fail("NIfTI-2 magic is not \"n+2\" (a single-file .nii is needed)");
    datatype = get<int16_t>(h, 12, swap);
    bitpix = get<int16_t>(h, 14, swap);
    for (int k = 0; k < 8; k++) dim[k] = get<int64_t>(h, 16 + 8 * (size_t)k, swap);
    for (int k = 0; k < 4; k++) pixdim[k] = get<double>(h, 104 + 8 * (size_t)k, swap);
    vox_offset = (double)get<int64_t>(h, 168, swap);
  }
  if (dim[0] < 1 || dim[0] > 7)
    return r.fail("dim[0] (the number of dimensions) is " + std::to_string(dim[0]) +
                  ", expected 1..7");
  uint64_t voxels = 1;
  for (int k = 1; k <= dim[0]; k++) {
    if (dim[k] < 1 || dim[k] > INT32_MAX)
      return r.fail("dim[" + std::to_string(k) + "] is " + std::to_string(dim[k]) +
                    ", expected 1..2^31-1");
    if (__builtin_mul_overflow(voxels, (uint64_t)dim[k], &voxels))
      return r.fail("the image size overflows");
  }
  const uint64_t vsize = nifti_type_size(datatype);
  if (!vsize) {
    *err = "'" + path + "': NIfTI data type " + std::to_string(datatype) + " is not supported";
    return -ENOTSUP;
  }
  if ((uint64_t)bitpix != 8 * vsize)
    return r.fail("bitpix " + std::to_string(bitpix) + " does not match data type " +
                  std::to_string(datatype) + " (" + std::to_string(8 * vsize) + ")");
  for (int k = 1; k <= 3 && k <= dim[0]; k++)
    if (!std::isfinite(pixdim[k]))
      return r.fail("pixdim[" + std::to_string(k) + "] is not a finite number");
  if (!std::isfinite(vox_offset) || vox_offset < (double)hsize || vox_offset > (double)total)
    return r.fail("vox_offset " + std::to_string(vox_offset) + " is not within the file (" +
                  std::to_string(hsize) + ".." + std::to_string(total) + ")");
  uint64_t need;
  if (!product({voxels, vsize}, &need)) return r.fail("the image size overflows");
  const uint64_t avail = total - (uint64_t)vox_offset;
  if (need > avail)
    return r.fail("the header declares " + std::to_string(need) + " bytes of image data, the " +
                  (gz ? "decompressed " : "") + "file holds " + std::to_string(avail));
  return 0;
}

} // namespace checks
} // namespace iso
