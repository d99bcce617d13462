/* apps/isosurface/tools/locality_tool.h: what the two tools of the locality model
 * (locality_map.cpp, locality_sim.cpp) share: the usage error, comma lists,
 * the clock, the generated mesh and the options that describe it.
 * Header-only: each tool is one source file (bench/mk/locality.mk). No VTK
 * here. */
#ifndef APPS_ISOSURFACE_TOOLS_LOCALITY_TOOL_H
#define APPS_ISOSURFACE_TOOLS_LOCALITY_TOOL_H

#include "mesh.h"
#include "reorder.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace iso {

/* Print "tool: msg" and where the usage is, and exit with status 1. */
[[noreturn]] inline void tool_usage(const char *tool, const std::string &msg) {
  std::fprintf(stderr, "%s: %s (see the comment at the top of %s.cpp)\n", tool, msg.c_str(), tool);
  std::exit(1);
}

/* The items of a comma-separated list; empty ones dropped unless
 * keep_empty (a trailing comma never makes one). */
inline std::vector<std::string> split_list(const std::string &s, bool keep_empty = false) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (keep_empty || !item.empty()) out.push_back(item);
  return out;
}

/* Seconds on the steady clock. */
inline double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* The generated mesh: a box of dims hexahedra split into tetrahedra in a
 * cell order, its points numbered by porder afterwards. */
struct MeshArgs {
  int64_t dims[3] = {0, 0, 0};
  Split split = Split::Five;
  Order order = Order::Lex;
  PointOrder porder = PointOrder::Keep;
  Field field = Field::Sphere;
  uint64_t seed = 1;
  bool given() const { return dims[0] >= 1 && dims[1] >= 1 && dims[2] >= 1; }
};

/* The options --generate, --order and --point-order into *m: true when a
 * is one of them (value() gives its value), false otherwise; bad values
 * end the tool (tool_usage). */
template <class Value>
bool mesh_option(const char *tool, const std::string &a, Value value, MeshArgs *m) {
  if (a == "--generate") {
    const std::string v = value();
    if (std::sscanf(v.c_str(), "%ldx%ldx%ld", &m->dims[0], &m->dims[1], &m->dims[2]) != 3)
      tool_usage(tool, "--generate: expected NXxNYxNZ");
  } else if (a == "--order") {
    if (parse_order(value(), &m->order))
      tool_usage(tool, "--order: lex, morton, hilbert or random");
  } else if (a == "--point-order") {
    if (parse_point_order(value(), &m->porder))
      tool_usage(tool, "--point-order: keep, first-use or random");
  } else {
    return false;
  }
  return true;
}

/* The command line of tool: the mesh's options (mesh_option) into *mesh,
 * each other option a to parse(a, value), which returns whether it knows
 * a (value() takes the next argument as a's value, or ends the tool when
 * there is none). An unknown option, or no --generate, ends the tool. */
template <class Parse>
void parse_command_line(const char *tool, int argc, char **argv, MeshArgs *mesh, Parse parse) {
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) tool_usage(tool, a + " needs a value");
      return argv[++i];
    };
    if (!mesh_option(tool, a, value, mesh) && !parse(a, value))
      tool_usage(tool, "unknown option " + a);
  }
  if (!mesh->given()) tool_usage(tool, "--generate NXxNYxNZ is required");
}

/* The mesh of a (a.given()) into *mesh; bad sizes end the tool. */
inline void generate_mesh(const char *tool, const MeshArgs &a, Mesh *mesh) {
  Grid g;
  for (int k = 0; k < 3; k++) g.np[k] = a.dims[k] + 1;
  g.field = a.field;
  std::string err;
  if (tetrahedralize_grid(g, a.split, a.order, a.seed, mesh, &err)) tool_usage(tool, err);
  int rc = 0;
  if (a.porder == PointOrder::FirstUse)
    rc = renumber_points_first_use(mesh, &err);
  else if (a.porder == PointOrder::Random)
    rc = shuffle_points(mesh, a.seed, &err);
  if (rc) tool_usage(tool, err);
}

} // namespace iso

#endif /* APPS_ISOSURFACE_TOOLS_LOCALITY_TOOL_H */
