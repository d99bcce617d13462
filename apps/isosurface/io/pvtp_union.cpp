/* apps/isosurface/io: the pieces of a distributed run's .pvtp read back as one
 * surface, coincident points merged, and checked (read_pvtp_union,
 * edge_stats, verify_union, see pieces.h). */
#include "pieces.h"
#include "pieces_shared.h"
#include "pieces_xml.h"
#include "vtk_quiet.h"

#include <vtkCellArray.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPPolyDataReader.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <vector>

namespace iso {

namespace {

/* One undirected edge of a surface. */
struct EdgeUse {
  int count = 0;
  int forward = 0; /* uses from the lower to the higher vertex id */
};

/* The global ids of pd's points against their merge by coordinates
 * (to_merged) into *u. */
void check_gids(vtkPolyData *pd, const std::vector<int64_t> &to_merged, UnionSurface *u) {
  vtkDataArray *g = pd->GetPointData()->GetArray(kGlobalPointIds);
  if (!g || g->GetNumberOfComponents() != 1 || g->GetNumberOfTuples() != pd->GetNumberOfPoints())
    return;
  u->has_gids = true;
  std::vector<int64_t> gid_of(u->s.nverts(), -1);
  std::unordered_map<int64_t, int64_t> place; /* global id -> merged vertex */
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); p++) {
    const int64_t id = (int64_t)g->GetComponent(p, 0), m = to_merged[(size_t)p];
    if (gid_of[(size_t)m] < 0) gid_of[(size_t)m] = id;
    const auto at = place.emplace(id, m).first;
    u->gid_mismatch += gid_of[(size_t)m] != id || at->second != m;
    u->gid_min = p == 0 ? id : std::min(u->gid_min, id);
    u->gid_max = std::max(u->gid_max, id);
  }
  u->gid_distinct = place.size();
}

} // namespace

std::string pvtp_piece_path(const std::string &pvtp, int piece) {
  return strip(pvtp, ".pvtp") + "_" + std::to_string(piece) + ".vtp";
}

int read_pvtp_union(const std::string &path, UnionSurface *out, std::string *err) {
  if (int rc = need_regular_file(path, err)) return rc;
  if (int rc = check_pvtp_index(path, err)) return rc;
  CaughtReader<vtkXMLPPolyDataReader> in(path);
  in.r->Update();
  vtkPolyData *pd = in.r->GetOutput();
  if (in.catcher->failed || !pd || in.r->GetErrorCode() != 0 || !in.quiet.text().empty()) {
    *err = "VTK could not read '" + path + "'" + in.reason();
    return -EIO;
  }
  UnionSurface u;
  u.pieces = (size_t)in.r->GetNumberOfPieces();
  u.points_read = (size_t)pd->GetNumberOfPoints();
  std::unordered_map<XyzKey, int64_t, XyzHash> ids;
  std::vector<int64_t> to_merged((size_t)pd->GetNumberOfPoints());
  for (vtkIdType p = 0; p < pd->GetNumberOfPoints(); p++) {
    XyzKey k;
    pd->GetPoint(p, k.v);
    auto ins = ids.emplace(k, (int64_t)u.s.nverts());
    if (ins.second) u.s.xyz.insert(u.s.xyz.end(), k.v, k.v + 3);
    to_merged[(size_t)p] = ins.first->second;
  }
  vtkCellArray *polys = pd->GetPolys();
  for (vtkIdType c = 0; c < polys->GetNumberOfCells(); c++) {
    vtkIdType n;
    const vtkIdType *pid;
    polys->GetCellAtId(c, n, pid);
    if (n != 3) {
      *err = "'" + path + "': polygon " + std::to_string(c) + " has " + std::to_string(n) +
             " points, not a triangle";
      return -EPROTO;
    }
    for (int k = 0; k < 3; k++)
      if (pid[k] < 0 || pid[k] >= pd->GetNumberOfPoints()) {
        *err = "'" + path + "': polygon " + std::to_string(c) + " names point " +
               std::to_string(pid[k]) + ", not one of its " +
               std::to_string(pd->GetNumberOfPoints());
        return -EPROTO;
      }
    for (int k = 0; k < 3; k++) u.s.tri.push_back(to_merged[(size_t)pid[k]]);
  }
  check_gids(pd, to_merged, &u);
  *out = std::move(u);
  return 0;
}

EdgeStats edge_stats(const Surface &s) {
  EdgeStats st;
  std::unordered_map<uint64_t, EdgeUse> edges;
  std::map<std::pair<int64_t, int64_t>, EdgeUse> wide; /* ids past 2^32 */
  edges.reserve(s.tri.size());
  for (size_t f = 0; f < s.ntris(); f++) {
    const int64_t *v = &s.tri[3 * f];
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) {
      st.degenerate++;
      continue;
    }
    for (int k = 0; k < 3; k++) {
      const int64_t a = v[k], b = v[(k + 1) % 3];
      const int64_t lo = std::min(a, b), hi = std::max(a, b);
      EdgeUse &e = (hi >> 32) ? wide[{lo, hi}] : edges[((uint64_t)lo << 32) | (uint64_t)hi];
      e.count++;
      e.forward += a < b;
    }
  }
  auto tally = [&st](const EdgeUse &e) {
    if (e.count == 1)
      st.border++;
    else if (e.count == 2) {
      st.inner++;
      st.misoriented += e.forward != 1;
    } else
      st.nonmanifold++;
  };
  for (const auto &e : edges) tally(e.second);
  for (const auto &e : wide) tally(e.second);
  return st;
}

bool verify_union(const std::string &path, const UnionReference &ref, double rtol) {
  UnionSurface u;
  std::string err;
  if (read_pvtp_union(path, &u, &err)) {
    std::printf("verify-union: %s: FAILED\n", err.c_str());
    return false;
  }
  const double area = u.s.area();
  const double rel = std::fabs(area - ref.area) / std::max(1e-300, std::fabs(ref.area));
  const bool tris = u.s.ntris() == ref.ntris, verts = u.s.nverts() == ref.nverts;
  const bool area_ok = rel <= rtol || (area == 0 && ref.area == 0);
  const EdgeStats es = edge_stats(u.s);
  std::printf("verify-union: %s: %zu pieces, %zu points read, %zu after merging coincident ones\n",
              path.c_str(), u.pieces, u.points_read, u.s.nverts());
  std::printf("verify-union: triangles %zu vs vtkContourGrid %zu: %s\n", u.s.ntris(), ref.ntris,
              tris ? "ok" : "FAILED");
  std::printf("verify-union: vertices %zu vs vtkContourGrid %zu: %s\n", u.s.nverts(), ref.nverts,
              verts ? "ok" : "FAILED");
  std::printf("verify-union: area %.10g vs vtkContourGrid %.10g, rel. diff %.2e: %s\n", area,
              ref.area, rel, area_ok ? "ok" : "FAILED");
  std::printf("verify-union: manifold: %zu inner edges, %zu border edges, %zu non-manifold, %zu "
              "misoriented, %zu degenerate triangles: %s\n",
              es.inner, es.border, es.nonmanifold, es.misoriented, es.degenerate,
              es.manifold() ? "ok" : "FAILED");
  if (u.has_gids)
    std::printf("verify-union: %s: %zu distinct in [%lld, %lld] for %zu merged vertices, %zu "
                "points at odds with the merge by coordinates: %s\n",
                kGlobalPointIds, u.gid_distinct, (long long)u.gid_min, (long long)u.gid_max,
                u.s.nverts(), u.gid_mismatch, u.gids_ok() ? "ok" : "FAILED");
  else
    std::printf("verify-union: the pieces carry no %s\n", kGlobalPointIds);
  return tris && verts && area_ok && es.manifold() && (!u.has_gids || u.gids_ok());
}

} // namespace iso
