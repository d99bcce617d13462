/* adapt-isosurface's command line (run as a program): exit codes and
 * messages, refused options, renders, output options; tests of
 * test_isosurface (its arrays and readers: test_cli_values.cpp,
 * test_cli_readers.cpp). */
#include "mesh.h"
#include "pieces.h"
#include "vtk_bridge.h"

#include <adapt/adapt.h>

#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkPolyDataReader.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
}

#include "test_util.h"

using namespace iso;

#ifdef ISO_TEST_BIN
namespace iso_suite {

/* The command line: exit codes and messages of bad input, a verified run. */
void test_cli(void **) {
  std::string out;
  assert_int_equal(run_cli("--input " + tmpdir() + "/missing.vtu --iso 1", &out), 2);
  assert_true(contains(out, "missing.vtu") && contains(out, "No such file"));
  assert_int_equal(run_cli("--generate 4 --mode turbo", &out), 1);
  assert_true(contains(out, "unknown mode 'turbo'"));
  /* 2^32 points and more: refused before anything is allocated. */
  assert_int_equal(run_cli("--generate 2048x2048x1024 --events none", &out), 2);
  assert_true(contains(out, "point ids are 32-bit"));
  assert_int_equal(run_cli("--generate 4", &out), 0);
  assert_int_equal(run_cli("--iso 1", &out), 1);
  assert_true(contains(out, "exactly one of --input"));
  const std::string tets = write_file(
      "cli.vtk", std::string(legacy_head) +
                     "CELLS 2 10\n4 0 1 2 4\n4 1 3 2 7\nCELL_TYPES 2\n10\n10\n" + legacy_scalars);
  assert_int_equal(run_cli("--input " + tets + " --array nope --iso 1 --events none", &out), 2);
  assert_true(contains(out, "unknown point array 'nope'"));
  assert_int_equal(run_cli("--input " + tets + " --iso 100 --events none", &out), 3);
  assert_true(contains(out, "empty surface"));
  /* --save-mesh of a file needs no --iso (nothing is extracted), unless a
   * surface is asked for too. */
  const std::string saved = tmpdir() + "/cli_saved.vtu";
  assert_int_equal(run_cli("--input " + tets + " --save-mesh " + saved, &out), 0);
  assert_true(contains(out, "mesh written to " + saved) && !contains(out, "isosurface at"));
  Mesh back;
  std::string err;
  assert_int_equal(read_mesh(saved, ReadOptions(), &back, &err), 0);
  assert_int_equal(back.tets.size(), 2);
  assert_int_equal(run_cli("--input " + tets + " --save-mesh " + saved + " --output x.vtp", &out),
                   1);
  assert_true(contains(out, "--iso VALUE is required to extract a surface"));
  const std::string hex = write_file(
      "clihex.vtk", std::string(legacy_head) + "CELLS 1 9\n8 0 1 3 2 4 5 7 6\nCELL_TYPES 1\n12\n" +
                        legacy_scalars);
  assert_int_equal(run_cli("--input " + hex + " --iso 3.5 --events none", &out), 2);
  assert_true(contains(out, "not a tetrahedron"));
  assert_int_equal(run_cli("--input " + hex + " --iso 3.5 --tetrahedralize --events none", &out),
                   0);
  const std::string vtp = tmpdir() + "/cli.vtp", csv = tmpdir() + "/cli.csv";
  const std::string modes = "all";
  assert_int_equal(run_cli("--generate 12x10x8 --order morton --mode " + modes +
                               " --workers 2 --verify --reps 2 --events none --output " + vtp +
                               " --csv " + csv,
                           &out),
                   0);
  assert_true(contains(out, "vtkContourGrid") && contains(out, ": ok"));
  assert_false(out.find("FAILED") != std::string::npos);
  assert_int_equal(access(vtp.c_str(), R_OK), 0);
  assert_int_equal(access(csv.c_str(), R_OK), 0);
}

/* The command line of issue 11: option values, limits, output paths,
 * undefined columns, --version, the counters' warning. */
/* Under ThreadSanitizer the CLI's refusals and its renders of files are
 * not run: the options are refused on one thread before the runtime starts,
 * and a render reads a file and draws it with Mesa, whose calls TSan cannot
 * follow (suppressed below): nothing of ours runs concurrently there, each
 * start of the app under TSan costs about half a second, and the release
 * and asan+ubsan variants run them (tsan_single_threaded, test_util.h). */

void test_cli_refusals(void **) {
  if (tsan_single_threaded()) return;
  std::string out;
  /* A missing value is an error, not the next option. */
  assert_int_equal(run_cli("--generate 4 --array --iso 150", &out), 1);
  assert_true(contains(out, "--array needs a value") && contains(out, "'--iso'"));
  assert_int_equal(run_cli("--generate 4 --output", &out), 1);
  assert_true(contains(out, "--output needs a value"));
  /* Too many workers: libadapt's message, naming its limit. */
  assert_int_equal(run_cli("--generate 4 --workers 300 --events none", &out), 1);
  assert_true(contains(out, "--workers 300: ") && contains(out, "expected"));
  assert_false(out.find("invalid argument, attribute") != std::string::npos);
  /* Unwritable outputs: one line, before any extraction, no VTK dump. */
  const std::string nodir = tmpdir() + "/no-such-dir/s.vtp";
  assert_int_equal(run_cli("--generate 4 --events none --output " + nodir, &out), 1);
  assert_true(contains(out, "--output: cannot write '" + nodir + "'"));
  assert_false(out.find("isosurface at") != std::string::npos);
  assert_false(out.find('\033') != std::string::npos);
  assert_false(out.find("vtkExecutive") != std::string::npos);
  assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
  assert_int_equal(run_cli("--generate 4 --events none --csv " + tmpdir(), &out), 1);
  assert_true(contains(out, "--csv: cannot write") && contains(out, "is a directory"));
  /* The file type follows the extension, another one is refused before
   * any work: legacy .vtk for the surface and the mesh. */
  for (const char *bad : {"--output s.obj", "--save-mesh m.stl", "--png p.jpg"}) {
    assert_int_equal(run_cli(std::string("--generate 4 --events none ") + bad, &out), 1);
    assert_true(contains(out, "unknown file type of") && !contains(out, "mesh: generating"));
  }
}

void test_cli_render(void **) {
  if (tsan_single_threaded()) return;
  std::string out, err;
  const std::string lvtk = tmpdir() + "/r.vtk";
  assert_int_equal(run_cli("--generate 4 --events none --reps 1 --output " + lvtk, &out), 0);
  /* --png (and --render) without an X display that opens: said before any
   * work, not after the extraction (nor an abort in VTK's X window). */
  const std::string png = tmpdir() + "/p.png";
  for (const char *env : {"env -u DISPLAY", "env DISPLAY=:8123"}) {
    assert_int_equal(run_cli("--generate 4 --events none --png " + png, &out, env), 5);
    assert_true(contains(out, "--png: ") && contains(out, "xvfb-run -a") &&
                !contains(out, "mesh: generating"));
    assert_int_equal(run_cli("--render " + lvtk + " --png " + png, &out, env), 5);
    assert_true(contains(out, "--png: ") && !contains(out, "vtkXOpenGLRenderWindow"));
  }
  /* --render reads a .pvtp (its pieces appended); VTK's multi-line log of
   * a file it cannot parse is caught: one line. */
  const Mesh a = make_mesh(3, 3, 3, Field::Waves, Split::Five, Order::Lex);
  const Surface sa = run(a, 0.0, Mode::Seq), sb = run(a, 0.3, Mode::Seq);
  assert_int_equal(write_vtp(sa, tmpdir() + "/pa.vtp", &err), 0);
  assert_int_equal(write_vtp(sb, tmpdir() + "/pb.vtp", &err), 0);
  const std::string pvtp =
      write_file("p.pvtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"0.1\" "
                           "byte_order=\"LittleEndian\">\n<PPolyData GhostLevel=\"0\">\n<PPoints>"
                           "<PDataArray type=\"Float64\" NumberOfComponents=\"3\"/></PPoints>\n"
                           "<Piece Source=\"pa.vtp\"/>\n<Piece Source=\"pb.vtp\"/>\n</PPolyData>\n"
                           "</VTKFile>\n");
  Surface both;
  assert_int_equal(read_surface(pvtp, &both, &err), 0);
  assert_int_equal(both.ntris(), sa.ntris() + sb.ntris());
  assert_int_equal(both.nverts(), sa.nverts() + sb.nverts());
  assert_true(std::equal(sa.xyz.begin(), sa.xyz.end(), both.xyz.begin()));
  /* xvfb-run -a picks the first free display from 99 up: several test runs
   * at once race for it, so each starts from its own. */
  const std::string xvfb = "xvfb-run -a -n " + std::to_string(100 + getpid() % 20000);
  /* Under ASan: Mesa's GL driver, loaded and unloaded by VTK's window,
   * leaves allocations LeakSanitizer cannot attribute (an unknown module);
   * the app's own are checked by every other run. */
  /* Under TSan: Mesa's software rasteriser (uninstrumented) syncs its
   * threads in ways TSan cannot follow, and destroys their locks from the
   * render window's teardown: its calls are not checked (the app's are). */
  const std::string supp = write_file("gl.supp", "race:swrast_dri.so\nmutex:swrast_dri.so\n");
  const std::string gl = "ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
                         "TSAN_OPTIONS=\"${TSAN_OPTIONS:+$TSAN_OPTIONS:}suppressions=" +
                         supp + "\" ";
  assert_int_equal(run_cli("--render " + pvtp + " --png " + png, &out, gl + xvfb), 0);
  assert_true(contains(out, "rendered " + pvtp) && access(png.c_str(), R_OK) == 0);
  const std::string bad = write_file("bad.vtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"Poly");
  assert_int_equal(read_surface(bad, &both, &err), -EIO);
  assert_int_equal(run_cli("--render " + bad + " --png " + png, &out, xvfb), 2);
  assert_true(contains(out, "VTK could not read '" + bad + "'"));
  assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
  assert_false(contains(out, "\033") || contains(out, "vtkExecutive") || contains(out, "(0x"));
  /* An empty file, and a surface without points (as VTK writes one): one
   * line each, exit 2 and 3 (nothing to render). */
  const std::string none = write_file("none.vtp", ""), zero = tmpdir() + "/zero.vtp";
  const std::string nopoints = write_file(
      "nopoints.vtp", "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\">\n"
                      "<PolyData><Piece NumberOfPoints=\"0\" NumberOfPolys=\"0\"><Points>"
                      "</Points></Piece></PolyData>\n</VTKFile>\n");
  assert_int_equal(write_vtp(Surface(), zero, &err), 0);
  for (const std::string &f : {zero, nopoints}) {
    assert_int_equal(read_surface(f, &both, &err), 0);
    assert_int_equal(both.ntris() + both.nverts(), 0);
  }
  for (const std::string &f : {none, zero, nopoints}) {
    assert_int_equal(run_cli("--render " + f + " --png " + png, &out, xvfb), f == none ? 2 : 3);
    assert_true(contains(out, "'" + f + "'"));
    assert_int_equal(std::count(out.begin(), out.end(), '\n'), 1);
    assert_false(contains(out, "\033") || contains(out, "(0x"));
  }
}

void test_cli_options(void **) {
  std::string out;
  const std::string lvtk = tmpdir() + "/s.vtk", mvtk = tmpdir() + "/m.vtk";
  const std::string tcsv = tmpdir() + "/tris.csv";
  assert_int_equal(run_cli("--generate 4 --events none --reps 1 --output " + lvtk +
                               " --save-mesh " + mvtk + " --csv " + tcsv,
                           &out),
                   0);
  Mesh saved;
  std::string err;
  assert_int_equal(read_mesh(mvtk, ReadOptions(), &saved, &err), 0);
  assert_int_equal(saved.tets.size(), 4 * 4 * 4 * 5);
  vtkNew<vtkPolyDataReader> pr;
  pr->SetFileName(lvtk.c_str());
  pr->Update();
  assert_true(pr->IsFilePolyData() == 1 && pr->GetFileType() == VTK_BINARY);
  assert_true(pr->GetOutput()->GetNumberOfPolys() > 0);
  assert_true((double)pr->GetOutput()->GetNumberOfPolys() == csv_column(tcsv, "triangles")["seq"]);
  /* --positions records each mode's window (trace_plot.py prints it in the
   * titles of workers.png): the one given, 0 without one. */
  const std::string pos = tmpdir() + "/pos.csv";
  assert_int_equal(run_cli("--generate 8 --mode nowin,static --workers 2 --window 300 --reps 1 "
                           "--events none --positions " +
                               pos,
                           &out),
                   0);
  std::ifstream pin(pos);
  std::string line;
  assert_true(std::getline(pin, line) && line == "mode,worker,begin,end,t_ns,window");
  size_t nowin = 0, windowed = 0;
  while (std::getline(pin, line)) {
    const std::string last = line.substr(line.rfind(',') + 1);
    if (line.rfind("nowin,", 0) == 0 && last == "0") nowin++;
    if (line.rfind("static,", 0) == 0 && last == "300") windowed++;
  }
  assert_true(nowin > 0 && windowed > 0);
  /* No seq row: the speedup (table and CSV) is "-" / empty, never nan. */
  const std::string csv = tmpdir() + "/noseq.csv";
  assert_int_equal(
      run_cli("--generate 4 --mode static --workers 2 --reps 1 --events none --csv " + csv, &out),
      0);
  assert_false(out.find("nan") != std::string::npos);
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  assert_true(contains(text, "static,libadapt"));
  assert_false(text.find("nan") != std::string::npos);
  assert_true(contains(text, ",best_s,best_speedup,isovalues,iso_triangles\n") &&
              contains(out, "best ms"));
  /* --version: the app's and the library's versions. */
  assert_int_equal(run_cli("--version", &out), 0);
  assert_true(contains(out, "adapt-isosurface ") &&
              contains(out, std::string("libadapt ") + adapt_version_string()));
  /* Counters that cannot start: one warning, none with --quiet. */
  const std::string bogus = "--generate 4 --reps 2 --mode seq,static --events NOT_AN_EVENT";
  assert_int_equal(run_cli(bogus, &out), 0);
  size_t warnings = 0;
  for (size_t p = 0; (p = out.find("adapt-isosurface: ", p)) != std::string::npos; p++) warnings++;
  assert_int_equal(warnings, 1);
  assert_int_equal(run_cli(bogus + " --quiet", &out), 0);
  assert_false(out.find("adapt-isosurface: ") != std::string::npos);
  /* The first run's time apart (into fresh memory), and whether the later
   * runs reuse the previous surface; one run: no such line. */
  const std::string two = "--generate 6 --reps 2 --mode seq,nowin --workers 2 --events none";
  assert_int_equal(run_cli(two + " --verify", &out), 0);
  assert_true(contains(out, "first run (fresh output memory): seq ") && contains(out, ", nowin ") &&
              contains(out, "reuse the previous surface") &&
              contains(out, "(kept after the last run: seq "));
  assert_true(contains(out, "nowin    == seq byte for byte: ok"));
  assert_true(contains(out, "verify: nowin    1 run(s) into the previous surface's memory == its "
                            "first: ok"));
  assert_int_equal(run_cli(two + " --fresh-output", &out), 0);
  assert_true(contains(out, "every run into fresh memory (--fresh-output)") &&
              !contains(out, "kept after"));
  assert_int_equal(run_cli("--generate 6 --reps 1 --events none", &out), 0);
  assert_false(out.find("first run") != std::string::npos);
}

} // namespace iso_suite
#endif
