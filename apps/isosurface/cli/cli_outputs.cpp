/* apps/isosurface/cli: adapt-isosurface's --smp-check and outputs: the surface
 * written and rendered, --render (see cli_run.h). */
#include "cli_run.h"
#include "pieces.h"
#include "file_checks.h"

#include <cerrno>
#include <cstdio>

namespace iso {
namespace cli {

namespace {

/* Render surface s to o.png, titled. */
void render(const Options &o, const Surface &s, const char *title) {
  std::string err;
  const std::string t = o.title.empty() ? title : o.title;
  const int rc = o.color_array.empty()
                     ? render_png(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, t, &err)
                     : render_png_colored(s, o.png, ISO_PNG_WIDTH, ISO_PNG_HEIGHT, t,
                                          o.color_source.empty() ? o.input : o.color_source,
                                          o.color_array, &err);
  if (rc) die(rc == -EIO ? EXIT_RUN : EXIT_INPUT, err);
}

} // namespace

/* ---- Phase (alone): --render FILE.vtp --png FILE.png ------------------- */

int render_file(const Options &o) {
  Surface s;
  std::string err;
  if (read_surface(o.render, &s, &err)) die(EXIT_INPUT, err);
  if (s.ntris() == 0)
    die(EXIT_EMPTY,
        "'" + printable(o.render) + "': an empty surface (no triangles): nothing to render");
  char title[160];
  std::snprintf(title, sizeof title, "%s: %zu triangles, %zu vertices", o.render.c_str(), s.ntris(),
                s.nverts());
  render(o, s, title);
  if (!o.quiet) std::printf("rendered %s -> %s\n", o.render.c_str(), o.png.c_str());
  return EXIT_OK;
}

/* ---- Phase: --smp-check ----------------------------------------------- */

void smp_check(Run &r) {
  if (!r.o.smp_check) return;
  if (!r.vgrid) r.vgrid.reset(new VtkGrid(r.mesh));
  size_t nt = 0, bad = 0;
  std::string err;
  StartCpus unbind;
  if (r.vgrid->smp_contour_check(r.o.iso, r.workers, &nt, &bad, &err)) die(EXIT_RUN, err);
  std::printf("smp-check: vtkSMPContourGrid (TBB, %d threads): %zu triangles, %zu (%.2f%%) not in "
              "vtkContourGrid's output\n",
              r.workers, nt, bad, nt ? 100.0 * (double)bad / (double)nt : 0.0);
}

/* ---- Phase: the surface: empty, or written and rendered ---------------- */

void write_outputs(Run &r) {
  const Surface *ref = reference(r);
  if (!ref) return;
  if (ref->ntris() == 0) {
    const auto range = std::minmax_element(r.mesh.scalars.begin(), r.mesh.scalars.end());
    std::fprintf(
        stderr,
        "adapt-isosurface: empty surface: no cell crosses iso=%s (scalars of '%s' in [%g, %g])\n",
        iso_text(r.o).c_str(), r.mesh.array_name.c_str(), *range.first, *range.second);
    if (r.exit_code == EXIT_OK) r.exit_code = EXIT_EMPTY;
    return;
  }
  std::string err;
  if (!r.o.output.empty() && (r.o.all_arrays || !r.o.arrays.empty() || r.o.isos.size() > 1 ||
                              has_extension(r.o.output, ".vtm"))) {
    if (write_surface_arrays(r, &err)) die(EXIT_RUN, err);
  } else if (!r.o.output.empty()) {
    if (write_surface(*ref, r.o.output, &err)) die(EXIT_RUN, err);
    if (!r.o.quiet) std::printf("surface written to %s\n", r.o.output.c_str());
  }
  if (!r.o.png.empty()) {
    char title[160];
    std::snprintf(title, sizeof title, "iso=%s: %zu triangles, %zu vertices", iso_text(r.o).c_str(),
                  ref->ntris(), ref->nverts());
    render(r.o, *ref, title);
    if (!r.o.quiet) std::printf("rendering written to %s\n", r.o.png.c_str());
  }
}

} // namespace cli
} // namespace iso
