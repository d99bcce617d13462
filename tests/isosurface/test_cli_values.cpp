/* adapt-isosurface's several isovalues, arrays and cell scalars (its
 * command line, run as a program) against vtkContourGrid: test_cli_values,
 * a test of test_isosurface. */
#include "test_cli_vtk.h"

#ifdef ISO_TEST_BIN

using namespace iso;
using namespace iso::cli_test;

/* Several values and a range, the arrays, cell scalars, bad arguments. */
void test_cli_values(void **) {
  const std::string in = dir() + "/values.vtu", out = dir() + "/values.vtp";
  vtkSmartPointer<vtkUnstructuredGrid> ug = grid();
  vtkNew<vtkXMLUnstructuredGridWriter> w;
  w->SetFileName(in.c_str());
  w->SetInputData(ug);
  assert_int_equal(w->Write(), 1);
  const std::string run = "--input " + in + " --events none --reps 1 --reorder hilbert ";
  const std::vector<std::string> all = {"s", "temp", "vel", "ids"}, cells = {"cval", "region"};
  std::string log;
  /* Several values (two workers, the peers verified with SetValue(i, v)). */
  assert_int_equal(run_cli(run +
                               "--array s --iso 0.3,0.5,0.7 --mode sliding --workers 2 "
                               "--verify --csv " +
                               dir() + "/values.csv --output " + out,
                           &log),
                   0);
  assert_true(has(log, "isovalues (sliding): 0.3: ") && has(log, "vtkContourGrid "));
  compare(read_vtp(out), contour(ug, {0.3, 0.5, 0.7}, "s"), all, cells);
  const std::string list_bytes = slurp(out);
  const auto counts = csv_column(dir() + "/values.csv", "triangles");
  std::ifstream csv(dir() + "/values.csv");
  std::string header, row;
  std::getline(csv, header), std::getline(csv, row);
  assert_true(has(header, ",best_speedup,isovalues,iso_triangles"));
  assert_true(has(row, ",0.3;0.5;0.7,"));
  size_t sum = 0;
  for (std::stringstream ss(row.substr(row.rfind(',') + 1)); std::getline(ss, header, ';');)
    sum += std::stoul(header);
  assert_int_equal(sum, (size_t)counts.at("sliding"));
  /* The range A:B:N gives the same values: the same file. */
  assert_int_equal(run_cli(run + "--array s --iso 0.3:0.7:3 --mode sliding --output " + out, &log),
                   0);
  assert_true(slurp(out) == list_bytes);
  /* Some arrays; none (one value: the surface as before, no arrays). */
  assert_int_equal(
      run_cli(run + "--array s --iso 0.45 --arrays vel,region --point-order random --output " + out,
              &log),
      0);
  compare(read_vtp(out), contour(ug, {0.45}, "s"), {"s", "vel"}, {"region"});
  assert_int_equal(run_cli(run + "--array s --iso 0.45 --arrays none --output " + out, &log), 0);
  vtkSmartPointer<vtkPolyData> bare = read_vtp(out);
  assert_int_equal(bare->GetPointData()->GetNumberOfArrays(), 0);
  assert_int_equal(bare->GetCellData()->GetNumberOfArrays(), 0);
  /* The default (all arrays): the same points and triangles, in order. */
  assert_int_equal(run_cli(run + "--array s --iso 0.45 --output " + out, &log), 0);
  vtkSmartPointer<vtkPolyData> full = read_vtp(out);
  assert_int_equal(full->GetPointData()->GetNumberOfArrays(), 4);
  assert_int_equal(full->GetNumberOfPoints(), bare->GetNumberOfPoints());
  assert_int_equal(full->GetNumberOfCells(), bare->GetNumberOfCells());
  for (vtkIdType p = 0; p < full->GetNumberOfPoints(); p++)
    for (int k = 0; k < 3; k++) assert_true(full->GetPoint(p)[k] == bare->GetPoint(p)[k]);
  for (vtkIdType c = 0; c < full->GetNumberOfCells(); c++) {
    vtkIdType n1, n2;
    const vtkIdType *a, *b;
    full->GetCellPoints(c, n1, a);
    bare->GetCellPoints(c, n2, b);
    assert_true(n1 == 3 && n2 == 3 && std::equal(a, a + 3, b));
  }
  /* Cell scalars, named or with --cell-scalars: vtkCellDataToPointData. */
  vtkNew<vtkCellDataToPointData> c2p;
  c2p->SetInputData(ug);
  c2p->ProcessAllArraysOff();
  c2p->AddCellDataArray("cval");
  c2p->PassCellDataOn();
  c2p->Update();
  vtkSmartPointer<vtkPolyData> ref = contour(c2p->GetOutput(), {2.13, 3.37}, "cval");
  for (const char *how : {"--array cval", "--cell-scalars --array cval"}) {
    assert_int_equal(run_cli(run + how + " --iso 2.13,3.37 --output " + out, &log), 0);
    compare(read_vtp(out), ref, {"cval", "s", "temp", "vel", "ids"}, cells);
  }
  /* An image volume (its points renumbered by the app's split, Morton
   * order): "lin", linear in the position, interpolates exactly; "copy",
   * the scalars again, gives the isovalue. */
  vtkNew<vtkImageData> img;
  img->SetDimensions(7, 6, 5);
  img->SetOrigin(1, 2, 3);
  img->SetSpacing(0.5, 1, 2);
  vtkNew<vtkDoubleArray> f, lin, copy;
  f->SetName("f"), lin->SetName("lin"), copy->SetName("copy");
  for (vtkIdType p = 0; p < img->GetNumberOfPoints(); p++) {
    double x[3];
    img->GetPoint(p, x);
    const double v = std::sin(x[0]) + std::cos(0.7 * x[1]) * x[2];
    f->InsertNextValue(v), copy->InsertNextValue(v);
    lin->InsertNextValue(x[0] + 2 * x[1] - 3 * x[2]);
  }
  img->GetPointData()->AddArray(f);
  img->GetPointData()->AddArray(lin);
  img->GetPointData()->AddArray(copy);
  vtkNew<vtkXMLImageDataWriter> iw;
  iw->SetFileName((dir() + "/img.vti").c_str());
  iw->SetInputData(img);
  assert_int_equal(iw->Write(), 1);
  assert_int_equal(run_cli("--input " + dir() + "/img.vti --array f --iso 0.5 --order morton " +
                               "--events none --reps 1 --output " + out,
                           &log),
                   0);
  vtkSmartPointer<vtkPolyData> surf = read_vtp(out);
  assert_true(surf->GetNumberOfPoints() > 50);
  vtkDataArray *sl = surf->GetPointData()->GetArray("lin");
  vtkDataArray *sc = surf->GetPointData()->GetArray("copy");
  assert_non_null(sl);
  assert_non_null(sc);
  for (vtkIdType p = 0; p < surf->GetNumberOfPoints(); p++) {
    double x[3];
    surf->GetPoint(p, x);
    assert_true(std::fabs(sl->GetComponent(p, 0) - (x[0] + 2 * x[1] - 3 * x[2])) <= 1e-9);
    assert_true(std::fabs(sc->GetComponent(p, 0) - 0.5) <= 1e-9);
  }
  /* The values of a range printed exactly (the CSV, the report): read back,
   * they are the values extracted, 0.8999999999999999 not 0.9. */
  assert_int_equal(run_cli(run + "--array s --iso 0.2:0.9:7 --mode seq --csv " + dir() +
                               "/range.csv --output " + out,
                           &log),
                   0);
  std::ifstream range_csv(dir() + "/range.csv");
  std::getline(range_csv, header), std::getline(range_csv, row);
  std::vector<std::string> fields;
  for (std::stringstream ss(row); std::getline(ss, header, ',');) fields.push_back(header);
  assert_true(fields.size() >= 2);
  std::stringstream printed(fields[fields.size() - 2]);
  std::string logged = log.substr(log.find("isovalues (seq):"));
  for (int i = 0; i < 7; i++) {
    const double v = 0.2 + (0.9 - 0.2) * i / 6.0;
    std::string text;
    assert_true((bool)std::getline(printed, text, ';'));
    if (std::strtod(text.c_str(), nullptr) != v)
      fail_msg("CSV isovalue %s, not %.17g", text.c_str(), v);
    const size_t at = logged.find(i ? ", " : ": ") + 2, colon = logged.find(':', at);
    assert_true(std::strtod(logged.substr(at, colon - at).c_str(), nullptr) == v);
    logged = logged.substr(colon);
  }
  assert_true(has(row, ";0.8999999999999999,"));
  /* Bad arguments. */
  for (const char *bad : {"--iso ,", "--iso 0.1,,0.2", "--iso 0:1:0", "--iso 0:1", "--iso 0:1:x",
                          "--iso 0.1 --arrays ,", "--iso 0.1 --arrays temp"}) {
    assert_int_equal(run_cli(run + "--array s " + bad, &log), 1);
    assert_true(has(log, "--iso") || has(log, "--arrays"));
  }
  assert_int_equal(run_cli(run + "--array s --iso 0.4 --arrays temp,nope --output " + out, &log),
                   2);
  assert_true(has(log, "unknown array 'nope'") &&
              has(log, "point arrays: s, temp, vel, ids; cell arrays: cval, region"));
  assert_int_equal(run_cli(run + "--cell-scalars --array nope --iso 0.4", &log), 2);
  assert_true(has(log, "unknown cell array 'nope'") && has(log, "cell arrays: cval, region"));
  assert_int_equal(
      run_cli("--input " + dir() + "/none.pvtu --iso 0,0.5 --output " + dir() + "/d.pvtp", &log),
      1);
  assert_true(has(log, "distributed run") && has(log, "one isovalue"));
  assert_int_equal(run_cli("--generate 4 --iso 0,0.5 --predict-misses", &log), 1);
}

#endif
