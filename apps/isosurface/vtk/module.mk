# apps/isosurface/vtk: the VTK filter vtkAdaptiveContourFilter (C++ module
# Adapt::Contour, Python package adapt_vtk), docs/isosurface.md "The VTK
# filter".
#
# Built by CMake (apps/isosurface/vtk/CMakeLists.txt: vtk_module_build and
# vtk_module_wrap_python against Debian's VTK 9.1) and ninja in
# build/release/apps/isosurface/vtk, always against the release variant's
# libraries (libadapt.so, libadapt-iso.so), whatever VARIANT: `make
# vtk-filter`. `make test` builds it and runs its tests in the release
# variant (the C++ test program and the Python test, both against
# vtkContourGrid); `make demo` builds it; `make install` installs it (the
# library and the Python package, see install-vtk-filter below) when VTK's
# CMake files and cmake are there.
VTKF_DIR   := apps/isosurface/vtk
VTKF_B     := build/release/apps/isosurface/vtk
VTKF_STAMP := $(VTKF_B)/built
VTKF_LIB   := $(VTKF_B)/lib/libadaptVtkContour.so
VTKF_PYDIR := $(VTKF_B)/lib/python3/dist-packages
VTKF_SRCS  := $(wildcard $(VTKF_DIR)/CMakeLists.txt $(VTKF_DIR)/*.in $(VTKF_DIR)/filter/*) \
              apps/isosurface/core/rank_share.h \
              $(wildcard $(VTKF_DIR)/adapt_vtk/*.py)
VTKF_JOBS  ?= 2
CMAKE      ?= cmake
VTK_CMAKE_DIR ?= $(firstword $(wildcard /usr/lib/*/cmake/vtk-$(VTK_VER)))
# The filter is built when VTK's headers and CMake files and cmake are there.
VTKF_HAVE  := $(and $(ISO_HAVE_VTK),$(VTK_CMAKE_DIR),$(shell command -v $(CMAKE) 2>/dev/null))
ifneq ($(ISO_REQUIRE_VTK),)
  ifeq ($(VTKF_HAVE),)
    $(error the VTK filter needs cmake and VTK's CMake files ($(VTK_CMAKE_DIR)); make deps installs them)
  endif
endif
VTKF_ISO_INC  := apps/isosurface/core/include
VTKF_REL_LIBS := build/release/libadapt.so build/release/libadapt-iso.so
VTKF_CMAKE_ARGS = -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX) \
  -DVTK_DIR=$(VTK_CMAKE_DIR) \
  -DADAPT_INCLUDE_DIRS="$(abspath libadapt/include);$(abspath algorithms/include);$(abspath $(VTKF_ISO_INC))" \
  -DADAPT_ISO_LIBRARY=$(abspath build/release/libadapt-iso.so) \
  -DADAPT_LIBRARY=$(abspath build/release/libadapt.so)

.PHONY: vtk-filter install-vtk-filter uninstall-vtk-filter
# $(call VTKF_CMAKE_BUILD,DIR,ARGS,FILES,NOTE): the recipe of a stamp
# built from $(VTKF_DIR) in DIR: cmake ARGS configures once (again when one
# of FILES is newer than DIR/build.ninja; NOTE follows the directory in the
# message), ninja rebuilds what changed, the stamp is touched.
define VTKF_CMAKE_BUILD
	@mkdir -p $(1)
	@if [ ! -f $(1)/build.ninja ]$(foreach f,$(3), || [ $(f) -nt $(1)/build.ninja ]); then \
	  echo "cmake $(VTKF_DIR)$(4) -> $(1)"; \
	  $(CMAKE) -S $(VTKF_DIR) -B $(1) $(2) >$(1)/cmake.log 2>&1 || \
	    { cat $(1)/cmake.log >&2; exit 1; }; fi
	$(CMAKE) --build $(1) -j $(VTKF_JOBS)
	@touch $@
endef
ifeq ($(VARIANT),release)
vtk-filter: $(VTKF_STAMP)
# cmake configures once (again when CMakeLists.txt changes), ninja rebuilds
# what changed.
$(VTKF_STAMP): $(VTKF_SRCS) $(VTKF_REL_LIBS) $(wildcard $(VTKF_ISO_INC)/adapt/*.hpp)
	$(call VTKF_CMAKE_BUILD,$(VTKF_B),$(VTKF_CMAKE_ARGS),$(VTKF_DIR)/CMakeLists.txt,)
else
vtk-filter:
	$(MAKE) --no-print-directory VARIANT=release vtk-filter
endif

# ---- tests (release variant only) --------------------------------------------
# tests/isosurface/test_vtk_filter.cpp (with _support.cpp and _cases.cpp): a
# plain program (exit status: the failures), the filter against
# vtkContourGrid in C++; tests/isosurface/test_vtk_filter.py the same from
# /usr/bin/python3; the docs' examples (apps/isosurface/vtk/examples/) run by
# them.
VTKF_TEST     := $(ISO_TB)/test_vtk_filter
VTKF_PYTEST   := $(ISO_TB)/test_vtk_filter_py
VTKF_EXAMPLE  := $(ISO_TB)/vtk_example_contour
VTKF_TEST_SRCS := $(addprefix tests/isosurface/,test_vtk_filter.cpp test_vtk_filter_support.cpp \
                    test_vtk_filter_cases.cpp)
VTKF_VTK_LIBS := $(patsubst %,-lvtk%-$(VTK_VER),FiltersGeneral FiltersCore ImagingCore \
                   CommonExecutionModel CommonDataModel CommonCore CommonSystem CommonMisc \
                   CommonMath CommonTransforms)
VTKF_TEST_FLAGS = -I$(VTKF_DIR)/filter -I$(VTKF_B)/filter -isystem $(VTK_INC) -Iapps/isosurface/core
# The filter's sources and the flags they parse with (check-function-size;
# CMake's build adds its module's definitions, none of which they test).
VTKF_FILTER_SRCS  = $(wildcard $(VTKF_DIR)/filter/*.cxx)
VTKF_FILTER_FLAGS = $(INC_RUNTIME_PUBLIC) -I$(VTKF_ISO_INC) $(VTKF_TEST_FLAGS)
VTKF_TEST_LINK  = -L$(VTKF_B)/lib -ladaptVtkContour -Wl,-rpath,$(abspath $(VTKF_B)/lib) \
                  -Wl,-rpath,$(abspath build/release) $(VTKF_VTK_LIBS) -lhwloc

ifeq ($(VARIANT)$(if $(VTKF_HAVE),1),release1)
$(VTKF_TEST): $(VTKF_TEST_SRCS) tests/isosurface/test_vtk_filter.h $(VTKF_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O1 -g1 -Wall -Wextra $(VTKF_TEST_FLAGS) -DVTKF_EXAMPLE='"$(abspath $(VTKF_EXAMPLE))"' \
	  -o $@ $(VTKF_TEST_SRCS) $(VTKF_TEST_LINK)
$(VTKF_EXAMPLE): $(VTKF_DIR)/examples/contour.cpp $(VTKF_STAMP)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O1 -Wall -Wextra $(VTKF_TEST_FLAGS) -o $@ $< $(VTKF_TEST_LINK)
$(VTKF_TEST): $(VTKF_EXAMPLE)
$(VTKF_PYTEST): tests/isosurface/test_vtk_filter.py tests/isosurface/surface_compare.py $(VTKF_STAMP)
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONPATH=%s exec /usr/bin/python3 %s %s\n' '$(abspath $(VTKF_PYDIR))' \
	  '$(abspath tests/isosurface/test_vtk_filter.py)' '$(abspath $(VTKF_DIR)/examples/contour.py)' > $@
	@chmod +x $@
EXTRA_TESTS += $(VTKF_TEST) $(VTKF_PYTEST)
DEMO_DEPS   += $(VTKF_STAMP)
endif
# check-docs compiles the docs' examples marked with=vtk-filter with these
# (scripts/doc_examples.sh), in any variant, against the release build.
ifneq ($(VTKF_HAVE),)
DOC_DEPS += vtk-filter
DOC_VTK_CXXFLAGS = $(VTKF_TEST_FLAGS)
DOC_VTK_LIBS = $(VTKF_TEST_LINK)
endif

# ---- install -------------------------------------------------------------------
# `cmake --install` of the build above with the prefix of the make command
# line: LIBDIR/libadaptVtkContour.so, INCLUDEDIR/adapt-vtk/ (its headers),
# LIBDIR/cmake/adapt-vtk/ (find_package(adapt-vtk), VTK's module files),
# LIBDIR/vtk/hierarchy/adapt-vtk/ (VTK's wrapping hierarchy, for modules
# that wrap against this one), PYTHONDIR/adapt_vtk/ (default
# PREFIX/lib/python3/dist-packages). The build above has the default layout
# (lib, include, lib/python3/dist-packages under the prefix); other
# directories are built in $(VTKF_B)-install (again: VTK's module build
# places its build tree by the install directories). When PYTHONDIR is not
# on the path of Debian's /usr/bin/python3 but PREFIX/lib/python3.X/
# dist-packages is (the case of PREFIX=/usr/local), adapt_vtk.pth there
# adds PYTHONDIR to it.
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
VTKF_PY   ?= /usr/bin/python3
vtkf_rel = $(shell realpath -m --relative-to='$(PREFIX)' '$(1)')
VTKF_DIRS = $(call vtkf_rel,$(LIBDIR)) $(call vtkf_rel,$(INCLUDEDIR)) $(call vtkf_rel,$(PYTHONDIR))
VTKF_PTH_DIR = $(shell $(VTKF_PY) -c 'import sys; v = "%d.%d" % sys.version_info[:2]; \
  d = "$(PREFIX)/lib/python" + v + "/dist-packages"; p = "$(PYTHONDIR)"; \
  print(d if d in sys.path and p not in sys.path else "")' 2>/dev/null)

install-vtk-filter: vtk-filter
	@set -e; b=$(VTKF_B); set -- $(VTKF_DIRS); \
	if [ "$$*" != "lib include lib/python3/dist-packages" ]; then \
	  b=$(VTKF_B)-install; echo "install: the VTK filter built for $$* in $$b"; mkdir -p $$b; \
	  { $(CMAKE) -S $(VTKF_DIR) -B $$b $(VTKF_CMAKE_ARGS) -DCMAKE_INSTALL_LIBDIR:STRING=$$1 \
	    -DCMAKE_INSTALL_INCLUDEDIR:STRING=$$2 -DADAPT_VTK_PYTHONDIR:STRING=$$3 && \
	    $(CMAKE) --build $$b -j $(VTKF_JOBS); } >$$b/build.log 2>&1 || { cat $$b/build.log >&2; exit 1; }; \
	fi; \
	DESTDIR=$(DESTDIR) $(CMAKE) --install $$b --prefix $(PREFIX) >$$b/install.log
	@if [ -n "$(VTKF_PTH_DIR)" ]; then install -d $(DESTDIR)$(VTKF_PTH_DIR) && \
	  realpath -m --relative-to='$(VTKF_PTH_DIR)' '$(PYTHONDIR)' > $(DESTDIR)$(VTKF_PTH_DIR)/adapt_vtk.pth && \
	  echo "install: $(VTKF_PTH_DIR)/adapt_vtk.pth adds $(PYTHONDIR) to $(VTKF_PY)'s path"; fi
	@echo "install: the VTK filter (adapt_vtk, Adapt::Contour) in $(DESTDIR)$(PREFIX)"

# Removes what install-vtk-filter wrote (the directories named adapt-vtk and
# adapt_vtk are the filter's alone).
uninstall-vtk-filter:
	rm -f $(DESTDIR)$(LIBDIR)/libadaptVtkContour.so
	rm -rf $(DESTDIR)$(INCLUDEDIR)/adapt-vtk $(DESTDIR)$(LIBDIR)/cmake/adapt-vtk \
	  $(DESTDIR)$(LIBDIR)/vtk/hierarchy/adapt-vtk $(DESTDIR)$(PYTHONDIR)/adapt_vtk
	@if [ -n "$(VTKF_PTH_DIR)" ]; then rm -f $(DESTDIR)$(VTKF_PTH_DIR)/adapt_vtk.pth; fi
	-rmdir $(DESTDIR)$(LIBDIR)/vtk/hierarchy $(DESTDIR)$(LIBDIR)/vtk $(DESTDIR)$(PYTHONDIR) \
	  $(DESTDIR)$(dir $(PYTHONDIR)) 2>/dev/null

.PHONY: install-vtk-filter-absent
install-vtk-filter-absent:
	@echo "install: the VTK filter not built (it needs VTK 9.1's headers and CMake files, and cmake;" \
	  "\`make deps\` installs them)"
# VTKF_INSTALL=0: install and uninstall leave the filter out
# (packaging/check_consumers.sh, whose multiarch LIBDIR would build it again:
# it checks the filter's install in the default layout).
VTKF_INSTALL ?= 1
ifeq ($(VTKF_HAVE),)
install: install-vtk-filter-absent
else ifeq ($(VTKF_INSTALL),1)
install: install-vtk-filter
uninstall: uninstall-vtk-filter
# check-consumers installs (install-vtk-filter) from a make of its own: the
# filter is built before, never by two ninjas at once.
check-consumers: vtk-filter
endif

# The ParaView plugin (the same filter against ParaView's VTK).
-include apps/isosurface/vtk/paraview/module.mk
