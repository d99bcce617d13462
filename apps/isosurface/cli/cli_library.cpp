/* apps/isosurface/cli: adapt-isosurface's extractions through <adapt/iso.hpp>:
 * several isovalues, and the surface file with arrays (see cli_run.h). */
#include "cli_run.h"
#include "pieces.h"

#include <cstdio>
#include <cstring>

namespace iso {
namespace cli {

namespace {

/* The mesh as the library's input: its arrays read in place. */
adapt::iso::input input_of(const Mesh &m) {
  adapt::iso::input in;
  in.points = adapt::iso::view(m.pts.empty() ? nullptr : &m.pts[0].x, m.pts.size(), 3);
  in.scalars = adapt::iso::view(m.scalars.data(), m.scalars.size());
  in.connectivity = adapt::iso::view(m.tets.empty() ? nullptr : &m.tets[0].v[0], 4 * m.tets.size());
  return in;
}

/* The policy of a row's mode, window and grain. */
adapt::iso::policy policy_of(Mode mode, const AdaptOptions &a) {
  const adapt::iso::mode m = mode == Mode::Seq      ? adapt::iso::mode::sequential
                             : mode == Mode::NoWin  ? adapt::iso::mode::none
                             : mode == Mode::Static ? adapt::iso::mode::static_
                                                    : adapt::iso::mode::sliding;
  return adapt::iso::policy().window(m, a.window_size).grain(a.grain);
}

/* A view of the library's output as a MeshArray named name. */
MeshArray mesh_array(const std::string &name, const adapt::iso::array &a) {
  MeshArray out;
  out.name = name;
  out.type = (int)a.type;
  out.components = a.components;
  out.elem_size = adapt::iso::dtype_size(a.type);
  const auto *p = static_cast<const unsigned char *>(a.data);
  out.bytes.assign(p, p + a.count * out.tuple_bytes());
  return out;
}

adapt::iso::array view_of(const MeshArray &a) {
  adapt::iso::array v;
  v.data = a.bytes.data();
  v.type = (adapt::iso::dtype)a.type;
  v.count = a.tuples();
  v.components = a.components;
  return v;
}

void copy_surface(const adapt::iso::surface &ls, Surface *s) {
  s->xyz.assign(ls.points(), ls.points() + 3 * ls.num_points());
  s->tri.assign(ls.triangles(), ls.triangles() + 3 * ls.num_triangles());
}

} // namespace

std::string iso_text(const Options &o) {
  std::string s;
  for (double v : o.isos) s += (s.empty() ? "" : ",") + number_text(v);
  return s;
}

int extract_values(Run &r, size_t i, std::string *err) {
  adapt::iso::request req;
  req.values = r.o.isos;
  req.policy = policy_of(r.rows[i].mode, r.aopt);
  const int rc = adapt::iso::extract(input_of(r.mesh), req, &r.libs[i]);
  if (rc) *err = r.libs[i].message();
  return rc;
}

void copy_values(Run &r, size_t i, Surface *s) {
  const adapt::iso::surface &ls = r.libs[i];
  copy_surface(ls, s);
  Row &row = r.rows[i];
  row.value_tris.clear();
  for (size_t k = 0; k < ls.num_values(); k++)
    row.value_tris.push_back(ls.first_triangle(k + 1) - ls.first_triangle(k));
}

int write_surface_arrays(const Run &r, std::string *err) {
  adapt::iso::request req;
  req.values = r.o.isos;
  req.scalars = true;
  for (const MeshArray &a : r.mesh.point_data) req.point_data.push_back(view_of(a));
  for (const MeshArray &a : r.mesh.cell_data) req.cell_data.push_back(view_of(a));
  /* A .vtm input's blocks: a last cell array, each triangle's block. */
  const bool by_block = has_extension(r.o.output, ".vtm");
  if (by_block)
    req.cell_data.push_back(adapt::iso::view(r.mesh.tet_block.data(), r.mesh.tet_block.size()));
  req.policy = policy_of(r.o.modes[0], r.aopt);
  adapt::iso::surface ls;
  const double t0 = now();
  if (int rc = adapt::iso::extract(input_of(r.mesh), req, &ls)) {
    *err = std::string("the surface with its arrays: ") + ls.message();
    return rc;
  }
  const double secs = now() - t0;
  Surface s;
  std::vector<MeshArray> pd, cd;
  std::vector<uint32_t> tri_block;
  try {
    copy_surface(ls, &s);
    pd.push_back(mesh_array(r.mesh.array_name, adapt::iso::view(ls.scalars(), ls.num_points())));
    for (size_t k = 0; k < ls.num_point_data(); k++)
      pd.push_back(mesh_array(r.mesh.point_data[k].name, ls.point_data(k)));
    for (size_t k = 0; k < r.mesh.cell_data.size(); k++)
      cd.push_back(mesh_array(r.mesh.cell_data[k].name, ls.cell_data(k)));
    if (by_block) {
      const adapt::iso::array b = ls.cell_data(r.mesh.cell_data.size());
      const auto *p = static_cast<const uint32_t *>(b.data);
      tri_block.assign(p, p + b.count);
    }
  } catch (const std::bad_alloc &) {
    *err = "out of memory copying the surface's arrays";
    return -ENOMEM;
  }
  const int rc = by_block
                     ? write_surface_blocks(r.blocks, s, tri_block, pd, cd, true, r.o.output, err)
                     : write_surface(s, pd, cd, true, r.o.output, err);
  if (rc) return rc;
  if (!r.o.quiet)
    std::printf("surface written to %s%s with the scalars '%s', %zu point and %zu cell array(s) "
                "(extracted again with them, mode %s: %.1f ms)\n",
                r.o.output.c_str(),
                by_block ? (", " + std::to_string(r.blocks.count()) + " block(s),").c_str() : "",
                r.mesh.array_name.c_str(), pd.size() - 1, cd.size(), mode_name(r.o.modes[0]),
                1e3 * secs);
  return 0;
}

} // namespace cli
} // namespace iso
