# apps/isosurface: the adapt-isosurface binary, its tests and `make demo`.
#
# The app by its parts (docs/design.md, "Layers"; docs/isosurface.md), each
# compiled with the include paths of itself and the parts below it, so that
# a part including a part above it is a compile error (scripts/check_layers.sh
# catches includes by path):
#   core/   the extraction: libadapt's public headers and stl/include only,
#           no VTK, no file I/O
#   io/     file I/O through VTK: core and VTK 9.1's headers
#   cli/    adapt-isosurface: core, io, VTK, perfcounters and MPI (dist.cpp)
#   tools/  locality_map, locality_sim and the scripts: core
#   fuzz/   the readers' harness: core and io
# VTK 9.1 from Debian (libvtk9-dev) is used only by io/ and cli/ (its
# headers are heavy).

ISO_DIR  := apps/isosurface
ISO_CORE := $(ISO_DIR)/core
ISO_IO   := $(ISO_DIR)/io
ISO_CLI  := $(ISO_DIR)/cli
ISO_TOOLS := $(ISO_DIR)/tools
ISO_B    := $(B)/apps/isosurface
ISO_BIN  := $(ISO_B)/adapt-isosurface
ISO_TB   := $(B)/tests/isosurface
ISO_TEST := $(ISO_TB)/test_isosurface
ISO_OUT  := $(B)/isosurface-demo

VTK_INC  ?= /usr/include/vtk-9.1
VTK_VER  ?= 9.1
ISO_VTK_IO_LIBS := $(patsubst %,-lvtk%-$(VTK_VER),FiltersSMP FiltersGeneral FiltersCore \
                   IOParallelXML IOXML IOXMLParser IOLegacy IOImage IOCore ParallelCore \
                   CommonExecutionModel CommonDataModel CommonCore CommonSystem CommonMisc CommonMath CommonTransforms)
# VTK's SMP headers call TBB (Debian's VTK uses its TBB backend): at -O0 (the
# sanitizer variants' tests, below) those calls stay in our objects, which
# then need TBB on the link line (--as-needed drops it where nothing does).
ISO_VTK_IO_LIBS += -ltbb
ISO_VTK_RENDER_LIBS := $(patsubst %,-lvtk%-$(VTK_VER),RenderingOpenGL2 RenderingFreeType \
                   RenderingUI RenderingAnnotation RenderingCore ImagingCore CommonColor)
# render.cpp checks that the X display opens before any work (Xlib).
ISO_VTK_RENDER_LIBS += -lX11

# The app is built when VTK 9.1's headers are there (scripts/deps.sh installs
# them for `make test` and `make demo`); `make install` then installs it, and
# says so when it does not.
ISO_HAVE_VTK := $(wildcard $(VTK_INC)/vtkContourGrid.h)
ifeq ($(ISO_HAVE_VTK)$(ISO_REQUIRE_VTK),1)
  $(error VTK 9.1 headers not found in $(VTK_INC), and this target needs them (make deps))
endif

# The extraction (mt.h), split by what it holds: one cell and the
# sequential merge, the case table, the cell phase, the chunked merge,
# extract() itself, the cells of a MeshView (apps/isosurface/core/cell_source.cpp).
ISO_EXTRACT_SRCS := mt mt_cases cell_phase vertex_merge vertex_merge_local extract cell_source
# The checks of the input files (file_checks.h), one file per format.
ISO_CHECK_SRCS := file_checks file_checks_legacy file_checks_xml file_checks_cells file_checks_image
ISO_CORE_OBJS := $(patsubst %,$(B)/obj/$(ISO_CORE)/%.o,mesh names $(ISO_EXTRACT_SRCS) arena \
                 reorder locality)
ISO_CHECK_OBJS := $(patsubst %,$(B)/obj/$(ISO_IO)/%.o,$(ISO_CHECK_SRCS))
ISO_VTK_OBJS  := $(patsubst %,$(B)/obj/$(ISO_IO)/%.o,vtk_bridge vtk_datasets vtk_arrays vtk_files pieces pieces_xml \
                   pieces_write pvtp_union) \
                 $(B)/obj/$(ISO_CLI)/vtk_peers.o
ISO_REN_OBJS  := $(B)/obj/$(ISO_CLI)/render.o
# adapt-isosurface's command line: main() and its phases (cli_*.cpp).
ISO_MAIN_OBJ  := $(patsubst %,$(B)/obj/$(ISO_CLI)/%.o,main cli_options cli_phases cli_report \
                   cli_outputs cli_library)
ISO_TEST_OBJ  := $(patsubst %,$(B)/obj/tests/isosurface/%.o,test_isosurface test_iso_memory \
                   test_iso_files test_cli test_cli_values test_cli_readers test_file_checks_cells)
ISO_RTEST     := $(ISO_TB)/test_reorder
ISO_RTEST_OBJ := $(B)/obj/tests/isosurface/test_reorder.o
ISO_LTEST     := $(ISO_TB)/test_locality
ISO_LTEST_OBJ := $(B)/obj/tests/isosurface/test_locality.o

# <adapt/iso.hpp> (apps/isosurface/core/include/adapt/iso.hpp; iso_api.cpp and
# its siblings in core/): the extraction as a library of its own,
# libadapt-iso.a and libadapt-iso.so (on libadapt.so, found beside it: rpath
# $ORIGIN, so that a program with an rpath to the library's directory loads
# both), no VTK. Its objects and the extraction's are built with hidden
# visibility: the library exports what iso.hpp marks ADAPT_ISO_API.
ISO_API_OBJS := $(patsubst %,$(B)/obj/$(ISO_CORE)/%.o,iso_api iso_input iso_attrs)
ISO_LIB_CORE_OBJS := $(patsubst %,$(B)/obj/$(ISO_CORE)/%.o,mesh $(ISO_EXTRACT_SRCS) arena)
ISO_LIB_A       := $(B)/libadapt-iso.a
ISO_LIB_SO_REAL := $(B)/libadapt-iso.so.$(VERSION)
ISO_LIB_SO_NAME := libadapt-iso.so.$(SOVERSION)
ISO_LIB_SO      := $(B)/libadapt-iso.so
$(ISO_API_OBJS) $(ISO_LIB_CORE_OBJS): LAYER_CFLAGS := -fvisibility=hidden

$(ISO_LIB_A): $(ISO_API_OBJS) $(ISO_LIB_CORE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(ISO_LIB_SO_REAL): $(ISO_API_OBJS) $(ISO_LIB_CORE_OBJS) $(LIB_SO)
	@mkdir -p $(dir $@)
	$(CXX) -shared -Wl,-soname,$(ISO_LIB_SO_NAME) -Wl,--no-undefined -Wl,-rpath,'$$ORIGIN' \
	  $(ALL_LDFLAGS) -o $@ \
	  $(filter %.o,$^) -L$(B) -ladapt $(LIBS_CORE)

$(ISO_LIB_SO): $(ISO_LIB_SO_REAL)
	ln -sf $(notdir $(ISO_LIB_SO_REAL)) $(B)/$(ISO_LIB_SO_NAME)
	ln -sf $(ISO_LIB_SO_NAME) $@

.PHONY: iso-lib
iso-lib: $(ISO_LIB_A) $(ISO_LIB_SO)
lib: iso-lib

# The library's test (tests/isosurface/test_iso_api.cpp): the public header,
# plus the core's headers to compare with the core's own path.
ISO_ATEST     := $(ISO_TB)/test_iso_api
ISO_ATEST_OBJ := $(patsubst %,$(B)/obj/tests/isosurface/%.o,test_iso_api test_iso_api_cells)
$(ISO_ATEST_OBJ): CPPFLAGS_ALL += $(ISO_CORE_INC)
$(ISO_ATEST): $(ISO_ATEST_OBJ) $(ISO_LIB_A) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(ISO_ATEST_OBJ) $(ISO_LIB_A) $(LIB_A) $(LIBS_CORE) -lcmocka -lm
EXTRA_TESTS += $(ISO_ATEST)

# The distributed run (issue 13, docs/distributed.md): MPI is optional, like
# VTK. Found when mpicxx answers --showme (OpenMPI; scripts/deps.sh installs
# it for `make test`) and VTK has vtkMPIController: dist*.cpp are compiled
# with mpicxx's flags and the binary linked with its libraries; else
# dist_nompi.cpp (the serial app, .pvtu in and --pieces included, without
# mpirun). ISO_NO_MPI=1 builds without MPI even when it is there.
ISO_MPICXX ?= mpicxx
ifeq ($(ISO_NO_MPI),)
  ISO_MPI_COMPILE := $(shell $(ISO_MPICXX) --showme:compile 2>/dev/null)
  ISO_MPI_LINK    := $(shell $(ISO_MPICXX) --showme:link 2>/dev/null)
endif
ISO_HAVE_MPI := $(if $(and $(ISO_MPI_LINK),$(wildcard $(VTK_INC)/vtkMPIController.h)),1)
ifneq ($(ISO_HAVE_MPI),)
  ISO_DIST_OBJ  := $(patsubst %,$(B)/obj/$(ISO_CLI)/%.o,dist dist_gids dist_report)
  ISO_DIST_LIBS := -lvtkParallelMPI-$(VTK_VER) $(ISO_MPI_LINK)
  $(ISO_DIST_OBJ): CPPFLAGS_ALL += $(ISO_MPI_COMPILE) -DOMPI_SKIP_MPICXX=1
else
  ISO_DIST_OBJ  := $(B)/obj/$(ISO_CLI)/dist_nompi.o
  ISO_DIST_LIBS :=
endif
# Targets that need VTK (make test, demo, fuzz: deps.sh installed OpenMPI
# with it) need MPI too, so that the distributed test cannot vanish.
ifneq ($(ISO_REQUIRE_VTK),)
  ifeq ($(ISO_HAVE_MPI)$(ISO_NO_MPI),)
    $(error MPI not found ($(ISO_MPICXX) --showme), and this target needs it (make deps; ISO_NO_MPI=1 builds without))
  endif
endif
ISO_DIST_TEST := $(ISO_TB)/test_dist

# Under the sanitizer variants the VTK-facing parts (io/, cli/) compile as
# one translation unit per link group, at -O0 (ISO_UNITY=0 compiles them file
# by file): each of their files parses VTK's headers again (about 2 s of CPU
# a file) and optimizing them buys nothing there (the work is VTK's, which is
# not instrumented; the extraction in core/ keeps -O1). io/ under ASan+UBSan:
# 66 s of CPU file by file at -O1, 15 s as one unit at -O0. The release
# variant, the one installed, compiles file by file, and it is the one that
# proves that each file compiles alone (a unity build hides a missing
# include); a name defined in two files of a group is a compile error here.
ISO_UNITY ?= $(if $(filter release,$(VARIANT)),0,1)
ifeq ($(ISO_UNITY),1)
  ISO_UNITY_SRCS_checks := $(ISO_CHECK_OBJS:$(B)/obj/%.o=%.cpp)
  ISO_UNITY_SRCS_vtk    := $(filter $(ISO_IO)/%,$(ISO_VTK_OBJS:$(B)/obj/%.o=%.cpp))
  ISO_UNITY_SRCS_main   := $(ISO_MAIN_OBJ:$(B)/obj/%.o=%.cpp)
  ISO_UNITY_SRCS_dist   := $(ISO_DIST_OBJ:$(B)/obj/%.o=%.cpp)
  ISO_CHECK_OBJS := $(B)/obj/$(ISO_IO)/unity_checks.o
  ISO_VTK_OBJS   := $(B)/obj/$(ISO_IO)/unity_vtk.o $(filter-out $(B)/obj/$(ISO_IO)/%,$(ISO_VTK_OBJS))
  ISO_MAIN_OBJ   := $(B)/obj/$(ISO_CLI)/unity_main.o
  ISO_DIST_OBJ   := $(B)/obj/$(ISO_CLI)/unity_dist.o
  $(ISO_DIST_OBJ): CPPFLAGS_ALL += $(if $(ISO_HAVE_MPI),$(ISO_MPI_COMPILE) -DOMPI_SKIP_MPICXX=1)
  ISO_UNITY_OBJS := $(ISO_CHECK_OBJS) $(firstword $(ISO_VTK_OBJS)) $(ISO_MAIN_OBJ) $(ISO_DIST_OBJ)
# The unit's source: an #include of each file, rewritten only when the list
# changes (by a rename, as the flags file below).
$(B)/gen/%.cpp: FORCE_ISO_FLAGS
	@mkdir -p $(dir $@)
	@printf '#include "%s"\n' $(abspath $(ISO_UNITY_SRCS_$(subst unity_,,$(notdir $*)))) | cmp -s - $@ || \
	  { printf '#include "%s"\n' $(abspath $(ISO_UNITY_SRCS_$(subst unity_,,$(notdir $*)))) > $@.$$$$ && mv $@.$$$$ $@; }
$(ISO_UNITY_OBJS): $(B)/obj/%.o: $(B)/gen/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CPPFLAGS_ALL) $(ALL_CXXFLAGS) $(LAYER_CFLAGS) -O0 -c $< -o $@
endif

# The app's objects keep line tables only (ISO_DEBUG, default -g1: file:line
# in backtraces, perf and gdb; `make ISO_DEBUG=-g` adds the variables): full
# debug information of the VTK-facing files, which hold VTK's classes in
# every unit, nearly doubles their compile (at -O2,
# apps/isosurface/io/vtk_bridge.cpp: 6.0 s of CPU with -g, 3.2 s with -g1;
# apps/isosurface/core/cell_phase.cpp: 5.5 s and 3.7 s).
ISO_DEBUG ?= -g1
$(B)/obj/$(ISO_DIR)/%.o: private OBJ_FLAGS := $(ISO_DEBUG)

# Each part's include paths: its own folder and the parts below it. The
# renumbering (apps/isosurface/core/reorder.cpp) sorts with the C++ front
# end's adapt::sort (header-only): core sees stl/include, and so does
# everything above it.
ISO_CORE_INC  := -I$(ISO_CORE) -I$(ISO_CORE)/include -Istl/include
ISO_IO_INC    := $(ISO_CORE_INC) -I$(ISO_IO) -isystem $(VTK_INC)
ISO_CLI_INC   := $(ISO_IO_INC) -I$(ISO_CLI) $(PERF_INC)
ISO_TOOLS_INC := $(ISO_CORE_INC) -I$(ISO_TOOLS)
$(B)/obj/$(ISO_CORE)/%.o:  LAYER_CPPFLAGS += $(ISO_CORE_INC)
$(B)/obj/$(ISO_IO)/%.o:    LAYER_CPPFLAGS += $(ISO_IO_INC)
$(B)/obj/$(ISO_CLI)/%.o:   LAYER_CPPFLAGS += $(ISO_CLI_INC)
$(B)/obj/$(ISO_TOOLS)/%.o: LAYER_CPPFLAGS += $(ISO_TOOLS_INC)
# The tests (tests/isosurface/) see the core and io parts.
$(ISO_TEST_OBJ) $(ISO_RTEST_OBJ) $(ISO_LTEST_OBJ): CPPFLAGS_ALL += $(ISO_IO_INC)
# The tests' own code compiles at -O0 with line tables only, in every
# variant, as io/ and cli/ do under the sanitizers above: they parse VTK's
# headers, and their time is spent in the library, the app they start and
# VTK, not in them (test_isosurface.o under ASan+UBSan: 15 s of CPU at -O1,
# 8 s at -O0; in release 9.3 s at -O2 -g, 6.4 s at -O0 -g1).
$(B)/obj/tests/isosurface/%.o: private OBJ_FLAGS += -O0 -g1
# The flags select code: the tests' objects carry the binary's path, the
# distributed run's MPI's flags (or it is dist_nompi.o): those objects, and
# only those, are rebuilt when the flags change. Not the others: the no-VTK
# install of `make check-consumers` (VTK_INC naming no folder: no MPI either)
# would otherwise make the next make rebuild every object of the app.
# Written by a rename, never truncated: a make reading the file while another
# writes it would otherwise see it changed.
$(ISO_TEST_OBJ) $(ISO_RTEST_OBJ) $(ISO_LTEST_OBJ) $(ISO_DIST_OBJ): $(ISO_B)/flags
ISO_FLAGS_TEXT := $(abspath $(ISO_BIN)) mpi=$(ISO_HAVE_MPI)
$(ISO_B)/flags: FORCE_ISO_FLAGS
	@mkdir -p $(dir $@)
	@echo '$(ISO_FLAGS_TEXT)' | cmp -s - $@ || { echo '$(ISO_FLAGS_TEXT)' > $@.$$$$ && mv $@.$$$$ $@; }
.PHONY: FORCE_ISO_FLAGS
FORCE_ISO_FLAGS:

$(ISO_BIN): $(ISO_MAIN_OBJ) $(ISO_API_OBJS) $(ISO_CORE_OBJS) $(ISO_CHECK_OBJS) $(ISO_VTK_OBJS) $(ISO_REN_OBJS) \
            $(ISO_DIST_OBJ) $(PERF_OBJ) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -Wl,--as-needed \
	  $(ISO_DIST_LIBS) $(ISO_VTK_RENDER_LIBS) $(ISO_VTK_IO_LIBS) $(PERF_LIBS) -lz -lm

# The test also runs this variant's binary (its command line).
$(ISO_TEST_OBJ): CPPFLAGS_ALL += -DISO_TEST_BIN='"$(abspath $(ISO_BIN))"' \
                                  -DISO_FUZZ_DIR='"$(abspath $(ISO_DIR)/fuzz)"' -I$(ISO_DIR)/fuzz
$(ISO_TEST): $(ISO_TEST_OBJ) $(ISO_CORE_OBJS) $(ISO_CHECK_OBJS) $(ISO_VTK_OBJS) $(LIB_A) $(ISO_BIN)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -lcmocka -Wl,--as-needed \
	  $(ISO_VTK_IO_LIBS) -lz -lm

# The renumbering's test (issue 15): its own binary, run like the one above.
$(ISO_RTEST_OBJ): CPPFLAGS_ALL += -DISO_TEST_BIN='"$(abspath $(ISO_BIN))"'
$(ISO_RTEST): $(ISO_RTEST_OBJ) $(ISO_CORE_OBJS) $(ISO_CHECK_OBJS) $(ISO_VTK_OBJS) $(LIB_A) $(ISO_BIN)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -lcmocka -Wl,--as-needed \
	  $(ISO_VTK_IO_LIBS) -lz -lm

# The reuse-distance model's test (issue 14): runs this variant's binary
# under apps/isosurface/tools/cachesim.sh (valgrind) on small meshes.
$(ISO_LTEST_OBJ): CPPFLAGS_ALL += -DISO_TEST_BIN='"$(abspath $(ISO_BIN))"' \
                                   -DISO_CACHESIM='"$(abspath $(ISO_TOOLS)/cachesim.sh)"'
$(ISO_LTEST): $(ISO_LTEST_OBJ) $(ISO_CORE_OBJS) $(LIB_A) $(ISO_BIN)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(LIBS_CORE) -lcmocka -lz -lm

ifneq ($(ISO_HAVE_VTK),)
INSTALL_BINS += $(ISO_BIN)
EXTRA_TESTS  += $(ISO_TEST)
EXTRA_TESTS  += $(ISO_RTEST)
EXTRA_TESTS  += $(ISO_LTEST)
EXTRA_TESTS  += $(ISO_DIST_TEST)
endif

# The distributed run's test (tests/isosurface/test_dist.sh): pieces, mpirun
# -np 2 and -np 3 against vtkContourGrid, bad pieces; without MPI, the serial
# parts and the message of a distributed run.
$(ISO_DIST_TEST): tests/isosurface/test_dist.sh tests/isosurface/test_dist_lib.sh $(ISO_BIN) $(ISO_B)/flags
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec bash %s %s %s "%s"\n' '$(abspath tests/isosurface/test_dist.sh)' \
	  '$(abspath $(ISO_BIN))' '$(abspath $(ISO_B)/dist-test)' '$(ISO_HAVE_MPI)' > $@
	@chmod +x $@

.PHONY: isosurface demo-run
isosurface: $(ISO_BIN)

# The demo: see docs/isosurface.md. ISO_DEMO_ARGS may override the mesh.
demo-run: $(ISO_BIN) $(DEMO_DEPS)
	@bash $(ISO_CLI)/demo.sh $(ISO_BIN) $(ISO_OUT)

# ---- make fuzz: libFuzzer harnesses of the file readers ----------------------
# One binary per format (apps/isosurface/fuzz/fuzz_reader.cpp with the
# format's extension; fuzz_formats.h says what each format's input is and
# which readers it goes through: the meshes, the .pvtu, .pvti and .vtm
# indexes and their piece or block,
# the .pvtp of --verify-union and --render, the .vtp of --render), our sources compiled by clang with -fsanitize=fuzzer
# and ASan+UBSan (VTK's libraries are not instrumented: see
# docs/isosurface.md, "Fuzzing"), linked with this variant's library (`make
# fuzz` uses the release one). FUZZ_SECONDS per format; FUZZ_FORMATS to pick
# some; the corpus grows in $(ISO_FUZZ_B)/corpus/<format>, crashes land in
# $(ISO_FUZZ_B)/artifacts/<format>/. Not part of `make test`: the crashes
# found become files of apps/isosurface/fuzz/regress/, replayed by the test.
# The summary, as a CSV (scripts/reliability_csv.py), goes to
# $(B)/reliability-results/fuzz.csv (`make docs-figures`: docs/reliability.md).
FUZZ_SECONDS ?= 600
FUZZ_FORMATS ?= vtu vtk vti vts vtr mha nii pvtu pvti vtm pvtp vtp
ISO_FUZZ_CXX ?= clang++
ISO_FUZZ_B   := $(B)/fuzz
ISO_FUZZ_FLAGS := -std=c++17 -g -O1 -fno-omit-frame-pointer -pthread \
                  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
ISO_FUZZ_CPPFLAGS := $(INC_PUBLIC) -D_GNU_SOURCE
ISO_FUZZ_OBJS := $(patsubst %,$(ISO_FUZZ_B)/obj/core/%.o,mesh names $(ISO_EXTRACT_SRCS) arena) \
                 $(patsubst %,$(ISO_FUZZ_B)/obj/io/%.o,$(ISO_CHECK_SRCS) vtk_bridge vtk_datasets vtk_arrays vtk_files pieces \
                   pieces_xml pvtp_union)
ISO_FUZZ_BINS := $(patsubst %,$(ISO_FUZZ_B)/fuzz_%,$(FUZZ_FORMATS))

# Each part's objects with that part's include paths, as above.
$(ISO_FUZZ_B)/obj/core/%.o: ISO_FUZZ_PART_INC := $(ISO_CORE_INC)
$(ISO_FUZZ_B)/obj/io/%.o:   ISO_FUZZ_PART_INC := $(ISO_IO_INC)
$(ISO_FUZZ_B)/obj/%.o: $(ISO_DIR)/%.cpp
	@mkdir -p $(dir $@)
	$(ISO_FUZZ_CXX) $(ISO_FUZZ_CPPFLAGS) $(ISO_FUZZ_PART_INC) $(ISO_FUZZ_FLAGS) -MMD -MP -c $< -o $@

# A static pattern rule: it must not match anything else under $(ISO_FUZZ_B).
$(ISO_FUZZ_BINS): $(ISO_FUZZ_B)/fuzz_%: $(ISO_DIR)/fuzz/fuzz_reader.cpp $(ISO_FUZZ_OBJS) $(LIB_A) \
                  $(wildcard $(ISO_CORE)/*.h $(ISO_IO)/*.h $(ISO_DIR)/fuzz/*.h)
	@mkdir -p $(dir $@)
	$(ISO_FUZZ_CXX) $(ISO_FUZZ_CPPFLAGS) $(ISO_IO_INC) $(ISO_FUZZ_FLAGS) -DISO_FUZZ_EXT='".$*"' -o $@ $< \
	  $(ISO_FUZZ_OBJS) $(LIB_A) $(LIBS_CORE) $(ISO_VTK_IO_LIBS) -lz -lm

.SECONDARY: $(ISO_FUZZ_OBJS)
.PHONY: fuzz fuzz-build fuzz-run
fuzz:
	@bash scripts/deps.sh fuzz
	$(MAKE) --no-print-directory VARIANT=release ISO_REQUIRE_VTK=1 fuzz-run
fuzz-build: $(ISO_FUZZ_BINS)
fuzz-run: $(ISO_FUZZ_BINS)
	@mkdir -p $(B)/reliability-results
	@bash $(ISO_DIR)/fuzz/run.sh $(ISO_FUZZ_B) $(ISO_DIR)/fuzz/seeds $(FUZZ_SECONDS) $(FUZZ_FORMATS) \
	  >$(B)/reliability-results/fuzz.log; rc=$$?; cat $(B)/reliability-results/fuzz.log; \
	python3 scripts/reliability_csv.py fuzz <$(B)/reliability-results/fuzz.log \
	  >$(B)/reliability-results/fuzz.csv; exit $$rc
