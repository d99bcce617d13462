/* adapt-isosurface's structured, parallel image and multiblock inputs, a
 * .vtm's surface a block per block, blanked cells (its command line, run as
 * a program) against VTK: test_cli_readers, a test of test_isosurface. */
#include "test_cli_vtk.h"

#include <vtkCompositeDataSet.h>
#include <vtkDataSetAttributes.h>
#include <vtkInformation.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLMultiBlockDataReader.h>

#ifdef ISO_TEST_BIN

using namespace iso;
using namespace iso::cli_test;

/* .vts, .vtr, .pvti and .vtm inputs against VTK's contour of the same
 * cells; their indexes' checks. */
void test_cli_readers(void **) {
  const std::string out = dir() + "/readers.vtp", run = " --events none --reps 1 --output " + out;
  std::string log;
  /* A structured and a rectilinear grid: split as vtkDataSetTriangleFilter
   * splits them, every array carried. */
  vtkSmartPointer<vtkStructuredGrid> sg = structured(0, 1);
  write<vtkXMLStructuredGridWriter>(sg, dir() + "/g.vts");
  assert_int_equal(run_cli("--input " + dir() +
                               "/g.vts --iso 1.7 --reorder none --mode sliding --workers 2" + run,
                           &log),
                   0);
  compare(read_vtp(out), split_contour(sg, 1.7), {"s", "temp"}, {"cval"});
  vtkNew<vtkRectilinearGrid> rg;
  rg->SetDimensions(7, 8, 6);
  vtkNew<vtkDoubleArray> cx, cy, cz;
  for (int i = 0; i < 8; i++) {
    cx->InsertNextValue(0.8 * i + 0.02 * i * i);
    cy->InsertNextValue(0.5 * i + 0.04 * i * i);
    cz->InsertNextValue(0.6 * i);
  }
  cx->SetNumberOfTuples(7), cz->SetNumberOfTuples(6);
  rg->SetXCoordinates(cx), rg->SetYCoordinates(cy), rg->SetZCoordinates(cz);
  add_fields(rg);
  write<vtkXMLRectilinearGridWriter>(rg, dir() + "/g.vtr");
  assert_int_equal(run_cli("--input " + dir() + "/g.vtr --iso 1.9" + run, &log), 0);
  compare(read_vtp(out), split_contour(rg, 1.9), {"s", "temp"}, {"cval"});
  /* A .pvti in 3 pieces: the surface of the same image as a .vti. */
  vtkNew<vtkImageData> img;
  img->SetDimensions(9, 7, 6);
  img->SetOrigin(-1, 0.5, 2);
  img->SetSpacing(0.5, 0.75, 0.6);
  add_fields(img);
  write<vtkXMLImageDataWriter>(img, dir() + "/img.vti");
  {
    vtkNew<vtkXMLPImageDataWriter> w;
    w->SetFileName((dir() + "/img.pvti").c_str());
    w->SetInputData(img);
    w->SetNumberOfPieces(3), w->SetStartPiece(0), w->SetEndPiece(2);
    assert_int_equal(w->Write(), 1);
  }
  assert_int_equal(run_cli("--input " + dir() + "/img.vti --iso 1.4" + run, &log), 0);
  const std::string from_vti = slurp(out);
  assert_int_equal(run_cli("--input " + dir() + "/img.pvti --iso 1.4" + run, &log), 0);
  assert_true(slurp(out) == from_vti);
  assert_true(read_vtp(out)->GetNumberOfCells() > 100);
  /* A multiblock of a grid of tetrahedra and a structured grid beside it:
   * one surface, vtkContourFilter's blocks appended. */
  vtkSmartPointer<vtkUnstructuredGrid> ug = grid();
  vtkNew<vtkMultiBlockDataSet> mb, blocks_split;
  mb->SetBlock(0, ug), mb->SetBlock(1, structured(20, 3));
  blocks_split->SetBlock(0, ug),
      blocks_split->SetBlock(1, split(vtkDataSet::SafeDownCast(mb->GetBlock(1))));
  write<vtkXMLMultiBlockDataWriter>(mb, dir() + "/blocks.vtm");
  assert_int_equal(run_cli("--input " + dir() + "/blocks.vtm --iso 0.45 --arrays none" + run, &log),
                   0);
  vtkNew<vtkContourFilter> cf;
  cf->SetInputData(blocks_split);
  cf->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
  cf->SetValue(0, 0.45);
  cf->Update();
  vtkNew<vtkAppendPolyData> ap;
  vtkSmartPointer<vtkCompositeDataIterator> it;
  it.TakeReference(vtkMultiBlockDataSet::SafeDownCast(cf->GetOutputDataObject(0))->NewIterator());
  size_t blocks = 0;
  for (it->InitTraversal(); !it->IsDoneWithTraversal(); it->GoToNextItem(), blocks++) {
    vtkPolyData *pd = vtkPolyData::SafeDownCast(it->GetCurrentDataObject());
    assert_true(pd && pd->GetNumberOfCells() > 0);
    ap->AddInputData(pd);
  }
  assert_int_equal(blocks, 2);
  ap->Update();
  compare(read_vtp(out), ap->GetOutput(), {}, {});
  /* Bad indexes: refused before VTK reads them, the file named. */
  const std::pair<const char *, const char *> bad[] = {
      {"noblock.vtm", "<VTKFile type=\"vtkMultiBlockDataSet\" version=\"1.0\">"
                      "<vtkMultiBlockDataSet><DataSet index=\"0\" file=\"gone.vtu\"/>"
                      "</vtkMultiBlockDataSet></VTKFile>"},
      {"surface.vtm", "<VTKFile type=\"vtkMultiBlockDataSet\" version=\"1.0\">"
                      "<vtkMultiBlockDataSet><DataSet index=\"0\" file=\"readers.vtp\"/>"
                      "</vtkMultiBlockDataSet></VTKFile>"},
      {"huge.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                    "WholeExtent=\"0 9999 0 9999 0 9999\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                    "<PPointData><PDataArray type=\"Float64\" Name=\"s\"/></PPointData>"
                    "<Piece Extent=\"0 9999 0 9999 0 9999\" Source=\"img.vti\"/>"
                    "</PImageData></VTKFile>"},
      {"outside.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                       "WholeExtent=\"0 8 0 6 0 5\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                       "<Piece Extent=\"0 8 0 6 0 6\" Source=\"img.vti\"/>"
                       "</PImageData></VTKFile>"},
      {"nocomp.pvti", "<VTKFile type=\"PImageData\" version=\"0.1\"><PImageData "
                      "WholeExtent=\"0 8 0 6 0 5\" Origin=\"0 0 0\" Spacing=\"1 1 1\">"
                      "<PPointData><PDataArray type=\"Float64\" Name=\"s\" "
                      "NumberOfComponents=\"0\"/></PPointData>"
                      "<Piece Extent=\"0 8 0 6 0 5\" Source=\"img.vti\"/>"
                      "</PImageData></VTKFile>"},
  };
  const char *why[] = {"cannot read its block file", "is not a .vtu, .vti, .vts or .vtr",
                       "more than its pieces can hold", "extends past the WholeExtent",
                       "an array of 0 components"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    std::ofstream(dir() + "/" + bad[i].first) << bad[i].second;
    assert_int_equal(run_cli("--input " + dir() + "/" + bad[i].first + " --iso 1" + run, &log), 2);
    if (!has(log, why[i]) || !has(log, bad[i].first)) fail_msg("%s: %s", bad[i].first, log.c_str());
  }
}

namespace {

/* The surface of read_vtp's .vtm sibling: its tree. */
vtkSmartPointer<vtkMultiBlockDataSet> read_vtm(const std::string &path) {
  vtkNew<vtkXMLMultiBlockDataReader> r;
  r->SetFileName(path.c_str());
  r->Update();
  vtkSmartPointer<vtkMultiBlockDataSet> mb = vtkMultiBlockDataSet::SafeDownCast(r->GetOutput());
  assert_non_null(mb.GetPointer());
  return mb;
}

const char *block_name(vtkMultiBlockDataSet *mb, unsigned b) {
  return mb->HasMetaData(b) ? mb->GetMetaData(b)->Get(vtkCompositeDataSet::NAME()) : nullptr;
}

} // namespace

/* --output FILE.vtm of a .vtm input: a surface per block, the input's tree
 * and names, each block vtkContourFilter's of that block (cells reordered,
 * two workers); a block the isovalue misses is an empty polydata. */
void test_cli_blocks(void **) {
  vtkNew<vtkMultiBlockDataSet> mb, inner, ref_in, ref_inner;
  mb->SetBlock(0, grid());
  mb->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "tets");
  inner->SetBlock(0, structured(20, 3));
  inner->SetBlock(1, structured(40, 100));
  inner->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "curvy");
  inner->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "missed");
  mb->SetBlock(1, inner);
  mb->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "inner");
  ref_in->SetBlock(0, mb->GetBlock(0));
  ref_inner->SetBlock(0, split(vtkDataSet::SafeDownCast(inner->GetBlock(0))));
  ref_inner->SetBlock(1, split(vtkDataSet::SafeDownCast(inner->GetBlock(1))));
  ref_in->SetBlock(1, ref_inner);
  write<vtkXMLMultiBlockDataWriter>(mb, dir() + "/tree.vtm");
  const std::string out = dir() + "/tree_iso.vtm";
  std::string log;
  assert_int_equal(run_cli("--input " + dir() +
                               "/tree.vtm --iso 0.45 --arrays none --events none "
                               "--reps 1 --reorder hilbert --mode sliding --workers 2 --output " +
                               out,
                           &log),
                   0);
  assert_true(has(log, "3 block(s)"));
  vtkNew<vtkContourFilter> cf;
  cf->SetInputData(ref_in);
  cf->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_POINTS, "s");
  cf->SetValue(0, 0.45);
  cf->Update();
  /* Both trees as VTK's writer and reader give them back (the writer
   * leaves a trailing block without points out). */
  write<vtkXMLMultiBlockDataWriter>(cf->GetOutputDataObject(0), dir() + "/tree_vtk.vtm");
  vtkSmartPointer<vtkMultiBlockDataSet> ref = read_vtm(dir() + "/tree_vtk.vtm");
  vtkSmartPointer<vtkMultiBlockDataSet> ours = read_vtm(out);
  assert_int_equal(ours->GetNumberOfBlocks(), 2);
  assert_int_equal(ref->GetNumberOfBlocks(), 2);
  assert_string_equal(block_name(ours, 0), "tets");
  assert_string_equal(block_name(ours, 1), "inner");
  auto *oi = vtkMultiBlockDataSet::SafeDownCast(ours->GetBlock(1));
  auto *ri = vtkMultiBlockDataSet::SafeDownCast(ref->GetBlock(1));
  assert_true(oi && ri && oi->GetNumberOfBlocks() == ri->GetNumberOfBlocks());
  assert_string_equal(block_name(oi, 0), "curvy");
  compare(vtkPolyData::SafeDownCast(ours->GetBlock(0)), vtkPolyData::SafeDownCast(ref->GetBlock(0)),
          {"s"}, {});
  compare(vtkPolyData::SafeDownCast(oi->GetBlock(0)), vtkPolyData::SafeDownCast(ri->GetBlock(0)),
          {"s"}, {});
  for (unsigned b = 1; b < oi->GetNumberOfBlocks(); b++) {
    auto *missed = vtkPolyData::SafeDownCast(oi->GetBlock(b));
    assert_true(!missed || missed->GetNumberOfCells() == 0);
  }
  /* An unknown array: the arrays every block has listed (cval differs in
   * type), not the reader's own. */
  assert_int_equal(
      run_cli("--input " + dir() + "/tree.vtm --iso 0.45 --arrays nope --output " + out, &log), 2);
  if (!has(log, "point arrays: s, temp; cell arrays: none")) fail_msg("%s", log.c_str());
  /* A .vtm surface needs a .vtm input. */
  write<vtkXMLUnstructuredGridWriter>(grid(), dir() + "/one.vtu");
  assert_int_equal(run_cli("--input " + dir() + "/one.vtu --iso 0.45 --output " + out, &log), 1);
  assert_true(has(log, "needs a .vtm input"));
}

/* Blanked cells: a structured grid's HIDDENCELL cells (and those of a
 * hidden point) are left out as vtkContourFilter's structured path and
 * vtkAdaptiveContourFilter leave them, its DUPLICATECELL ones kept; an
 * unstructured grid's hidden cells are contoured, as vtkContourGrid 9.1
 * does. */
void test_cli_blanking(void **) {
  vtkSmartPointer<vtkStructuredGrid> sg = structured(0, 1);
  vtkNew<vtkUnsignedCharArray> ghost, pghost;
  ghost->SetName(vtkDataSetAttributes::GhostArrayName());
  ghost->SetNumberOfTuples(sg->GetNumberOfCells());
  for (vtkIdType c = 0; c < sg->GetNumberOfCells(); c++)
    ghost->SetValue(c, c % 7 == 3   ? vtkDataSetAttributes::HIDDENCELL
                       : c % 5 == 1 ? vtkDataSetAttributes::DUPLICATECELL
                                    : 0);
  sg->GetCellData()->AddArray(ghost);
  pghost->SetName(vtkDataSetAttributes::GhostArrayName());
  pghost->SetNumberOfTuples(sg->GetNumberOfPoints());
  pghost->FillValue(0);
  pghost->SetValue(3 + 8 * (3 + 7 * 2), vtkDataSetAttributes::HIDDENPOINT);
  sg->GetPointData()->AddArray(pghost);
  assert_true(sg->HasAnyBlankCells());
  write<vtkXMLStructuredGridWriter>(sg, dir() + "/blank.vts");
  const std::string out = dir() + "/blank.vtp", run = " --arrays none --events none --reps 1 ";
  std::string log;
  assert_int_equal(
      run_cli("--input " + dir() + "/blank.vts --iso 1.7" + run + "--output " + out, &log), 0);
  /* VTK's reference: vtkDataSetTriangleFilter's split (it skips the
   * blanked cells), contoured; fewer triangles than without the blanking. */
  vtkSmartPointer<vtkPolyData> ref = split_contour(sg, 1.7);
  assert_true(ref->GetNumberOfCells() < split_contour(structured(0, 1), 1.7)->GetNumberOfCells());
  compare(read_vtp(out), ref, {}, {});
  /* An unstructured grid's hidden cells: contoured, as vtkContourGrid does. */
  vtkSmartPointer<vtkUnstructuredGrid> ug = grid();
  vtkNew<vtkUnsignedCharArray> ughost;
  ughost->SetName(vtkDataSetAttributes::GhostArrayName());
  ughost->SetNumberOfTuples(ug->GetNumberOfCells());
  for (vtkIdType c = 0; c < ug->GetNumberOfCells(); c++)
    ughost->SetValue(c, c % 3 ? 0 : vtkDataSetAttributes::HIDDENCELL);
  ug->GetCellData()->AddArray(ughost);
  write<vtkXMLUnstructuredGridWriter>(ug, dir() + "/blank.vtu");
  assert_int_equal(
      run_cli("--input " + dir() + "/blank.vtu --array s --iso 0.45" + run + "--output " + out,
              &log),
      0);
  compare(read_vtp(out), contour(ug, {0.45}, "s"), {}, {});
}

#endif
