# apps/isosurface: the adapt-isosurface binary, its tests and `make demo`.
#
# VTK 9.1 from Debian (libvtk9-dev) is used only by vtk_bridge.cpp and
# render.cpp (its headers are heavy); the rest is plain C++17.
# The adaptive modes need libadapt's adapt_transform_var (algorithms/). It
# is detected from the sources at parse time: without it the app and the
# tests are built with the sequential mode and the VTK peers only
# (ISO_HAVE_ADAPT undefined), and the app says so when asked for a mode.

ISO_DIR  := apps/isosurface
ISO_B    := $(B)/apps/isosurface
ISO_BIN  := $(ISO_B)/adapt-isosurface
ISO_TEST := $(ISO_B)/test_isosurface
ISO_OUT  := $(B)/isosurface-demo

VTK_INC  ?= /usr/include/vtk-9.1
VTK_VER  ?= 9.1
ISO_VTK_IO_LIBS := $(patsubst %,-lvtk%-$(VTK_VER),FiltersSMP FiltersGeneral FiltersCore IOXML IOLegacy IOImage IOCore \
                   CommonExecutionModel CommonDataModel CommonCore CommonSystem CommonMisc CommonMath CommonTransforms)
ISO_VTK_RENDER_LIBS := $(patsubst %,-lvtk%-$(VTK_VER),RenderingOpenGL2 RenderingFreeType RenderingUI RenderingCore \
                   ImagingCore CommonColor)

# adapt_transform_var defined (not only declared) in the library sources?
ISO_LP := (
ISO_HAVE_ADAPT := $(shell grep -lsE '^(int[[:space:]]+)?adapt_transform_var[[:space:]]*[$(ISO_LP)]' \
                    algorithms/*.c libadapt/src/*.c 2>/dev/null | head -n 1)
ifneq ($(ISO_HAVE_ADAPT),)
  ISO_ADAPT_FLAGS := -DISO_HAVE_ADAPT=1
  ISO_ADAPT_LIB   := $(LIB_A)
  ISO_ADAPT_LINK  := $(LIB_A) $(LIBS_CORE)
else
  ISO_ADAPT_FLAGS :=
  ISO_ADAPT_LIB   :=
  ISO_ADAPT_LINK  := -lm
endif

ISO_CORE_OBJS := $(B)/obj/$(ISO_DIR)/mesh.o $(B)/obj/$(ISO_DIR)/mt.o
ISO_VTK_OBJS  := $(B)/obj/$(ISO_DIR)/vtk_bridge.o
ISO_REN_OBJS  := $(B)/obj/$(ISO_DIR)/render.o
ISO_MAIN_OBJ  := $(B)/obj/$(ISO_DIR)/main.o
ISO_TEST_OBJ  := $(B)/obj/$(ISO_DIR)/test_isosurface.o
ISO_PERF_OBJ  := $(B)/obj/bench/common/perfcounters.o
ISO_ALL_OBJS  := $(ISO_CORE_OBJS) $(ISO_VTK_OBJS) $(ISO_REN_OBJS) $(ISO_MAIN_OBJ) $(ISO_TEST_OBJ)

$(ISO_ALL_OBJS): CPPFLAGS_ALL += $(ISO_ADAPT_FLAGS) -Ibench/common -isystem $(VTK_INC)
# The flags select code (ISO_HAVE_ADAPT, the test's binary path): rebuild
# when they change.
$(ISO_ALL_OBJS): $(ISO_B)/flags
ISO_FLAGS_TEXT := $(ISO_ADAPT_FLAGS) $(abspath $(ISO_BIN))
$(ISO_B)/flags: FORCE_ISO_FLAGS
	@mkdir -p $(dir $@)
	@echo '$(ISO_FLAGS_TEXT)' | cmp -s - $@ || echo '$(ISO_FLAGS_TEXT)' > $@
.PHONY: FORCE_ISO_FLAGS
FORCE_ISO_FLAGS:

$(ISO_BIN): $(ISO_MAIN_OBJ) $(ISO_CORE_OBJS) $(ISO_VTK_OBJS) $(ISO_REN_OBJS) $(ISO_PERF_OBJ) $(ISO_ADAPT_LIB)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(ISO_ADAPT_LINK) -Wl,--as-needed \
	  $(ISO_VTK_RENDER_LIBS) $(ISO_VTK_IO_LIBS) -lpapi -lm

# The test also runs this variant's binary (its command line).
$(ISO_TEST_OBJ): CPPFLAGS_ALL += -DISO_TEST_BIN='"$(abspath $(ISO_BIN))"'
$(ISO_TEST): $(ISO_TEST_OBJ) $(ISO_CORE_OBJS) $(ISO_VTK_OBJS) $(ISO_ADAPT_LIB) $(ISO_BIN)
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(ISO_ADAPT_LINK) -lcmocka -Wl,--as-needed $(ISO_VTK_IO_LIBS) -lm

# Tests of bench/common/perfcounters (see the file's header).
ISO_PERF_TEST := $(ISO_B)/test_perfcounters
$(ISO_PERF_TEST): $(ISO_DIR)/test_perfcounters.c $(ISO_PERF_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Ibench/common $(ALL_CFLAGS) -o $@ $< $(ISO_PERF_OBJ) $(ALL_LDFLAGS) -lcmocka -lpapi

INSTALL_BINS += $(ISO_BIN)
EXTRA_TESTS  += $(ISO_TEST) $(ISO_PERF_TEST)

.PHONY: isosurface demo-run
isosurface: $(ISO_BIN)

# The demo: see docs/isosurface.md. ISO_DEMO_ARGS may override the mesh.
demo-run: $(ISO_BIN)
	@bash $(ISO_DIR)/demo.sh $(ISO_BIN) $(ISO_OUT)
