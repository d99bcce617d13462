# apps/isosurface/vtk/paraview: the ParaView plugin AdaptiveContour
# (docs/paraview.md), included by apps/isosurface/vtk/module.mk.
#
# Built by CMake (apps/isosurface/vtk/CMakeLists.txt with
# -DADAPT_VTK_PARAVIEW=ON: the VTK filter's module against ParaView 5.11's
# VTK, paraview_add_plugin) and ninja in $(PVP_B), against the release
# variant's libraries whatever VARIANT: `make paraview-plugin`. Only when
# Debian's paraview-dev is installed and python3-paraview's files are there
# (installed, or unpacked by scripts/paraview_python.sh: the wrapping
# hierarchy files of ParaView's modules are in that package); `make deps`
# (scripts/deps.sh all) provides both. `make test` runs its test in the
# release variant; `make install` installs it.
PVP_DIR     := apps/isosurface/vtk/paraview
PVP_B       := build/release/apps/isosurface/vtk-paraview
PVP_STAMP   := $(PVP_B)/built
PVP_SUBDIR  := paraview-5.11/plugins/AdaptiveContour
PVP_PLUGIN  := $(PVP_B)/lib/$(PVP_SUBDIR)/AdaptiveContour.so
PVP_CMAKE_DIR ?= $(firstword $(wildcard /usr/lib/*/cmake/paraview-5.11))
# python3-paraview's files: "/" when installed, else the unpacked copy.
PVP_PYROOT  := $(if $(PVP_CMAKE_DIR),$(shell bash scripts/paraview_python.sh 2>/dev/null))
PVP_HAVE    := $(and $(PVP_CMAKE_DIR),$(PVP_PYROOT),$(shell command -v $(CMAKE) 2>/dev/null))
PVP_PYTHONPATH := $(if $(filter /,$(PVP_PYROOT)),,$(PVP_PYROOT)/usr/lib/python3/dist-packages)
ifneq ($(ISO_REQUIRE_VTK),)
  ifeq ($(PVP_HAVE),)
    $(error the ParaView plugin needs paraview-dev and python3-paraview's files \
      (scripts/paraview_python.sh); make deps installs them)
  endif
endif
PVP_SRCS := $(wildcard $(PVP_DIR)/* $(VTKF_DIR)/CMakeLists.txt $(VTKF_DIR)/filter/*) \
            apps/isosurface/core/rank_share.h
PVP_CMAKE_ARGS = -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX) \
  -DADAPT_VTK_PARAVIEW=ON -DParaView_DIR=$(PVP_CMAKE_DIR) -DADAPT_PARAVIEW_PYTHON=$(PVP_PYROOT) \
  -DADAPT_INCLUDE_DIRS="$(abspath libadapt/include);$(abspath algorithms/include);$(abspath $(VTKF_ISO_INC))" \
  -DADAPT_ISO_LIBRARY=$(abspath build/release/libadapt-iso.so) \
  -DADAPT_LIBRARY=$(abspath build/release/libadapt.so)

.PHONY: paraview-plugin install-paraview-plugin uninstall-paraview-plugin
ifeq ($(VARIANT),release)
ifneq ($(PVP_HAVE),)
paraview-plugin: $(PVP_STAMP)
$(PVP_STAMP): $(PVP_SRCS) $(VTKF_REL_LIBS) $(wildcard $(VTKF_ISO_INC)/adapt/*.hpp)
	$(call VTKF_CMAKE_BUILD,$(PVP_B),$(PVP_CMAKE_ARGS),$(VTKF_DIR)/CMakeLists.txt \
	  $(PVP_DIR)/plugin.cmake, (ParaView plugin))
else
paraview-plugin:
	@echo "paraview-plugin: needs paraview-dev and python3-paraview's files" \
	  "(scripts/paraview_python.sh --unpack); \`make deps\` installs them" >&2; exit 1
endif
else
paraview-plugin:
	$(MAKE) --no-print-directory VARIANT=release paraview-plugin
endif

# ---- test (release variant only) -----------------------------------------------
# tests/isosurface/test_paraview_plugin.sh: pvbatch loads the plugin and
# compares it with ParaView's Contour (test_paraview_plugin.py), serial and
# under mpirun -np 2.
PVP_TEST := $(ISO_TB)/test_paraview_plugin
ifeq ($(VARIANT)$(if $(PVP_HAVE),1),release1)
$(PVP_TEST): $(addprefix tests/isosurface/,test_paraview_plugin.sh test_paraview_plugin.py surface_compare.py) \
             $(PVP_STAMP)
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nPYTHONPATH=%s exec bash %s %s\n' '$(PVP_PYTHONPATH)' \
	  '$(abspath tests/isosurface/test_paraview_plugin.sh)' '$(abspath $(PVP_PLUGIN))' > $@
	@chmod +x $@
EXTRA_TESTS += $(PVP_TEST)
endif

# ---- install -------------------------------------------------------------------
# `cmake --install` of the build above (its component runtime): LIBDIR/$(PVP_SUBDIR)/
# (AdaptiveContour.so and the module libadaptVtkContour-pv5.11.so), run
# paths to LIBDIR. The build above has LIBDIR = PREFIX/lib; another LIBDIR
# is built in $(PVP_B)-install (the plugin's build tree is laid out by it).
install-paraview-plugin: paraview-plugin
	@set -e; b=$(PVP_B); l=$(call vtkf_rel,$(LIBDIR)); \
	if [ "$$l" != lib ]; then \
	  b=$(PVP_B)-install; echo "install: the ParaView plugin built for $$l in $$b"; mkdir -p $$b; \
	  { $(CMAKE) -S $(VTKF_DIR) -B $$b $(PVP_CMAKE_ARGS) -DCMAKE_INSTALL_LIBDIR:STRING=$$l && \
	    $(CMAKE) --build $$b -j $(VTKF_JOBS); } >$$b/build.log 2>&1 || { cat $$b/build.log >&2; exit 1; }; \
	fi; \
	DESTDIR=$(DESTDIR) $(CMAKE) --install $$b --prefix $(PREFIX) --component runtime >$$b/install.log
	@echo "install: the ParaView plugin in $(DESTDIR)$(LIBDIR)/$(PVP_SUBDIR)/AdaptiveContour.so"

uninstall-paraview-plugin:
	rm -rf $(DESTDIR)$(LIBDIR)/$(PVP_SUBDIR)
	-rmdir $(DESTDIR)$(LIBDIR)/paraview-5.11/plugins $(DESTDIR)$(LIBDIR)/paraview-5.11 2>/dev/null

ifneq ($(PVP_HAVE),)
ifeq ($(VTKF_INSTALL),1)
install: install-paraview-plugin
uninstall: uninstall-paraview-plugin
# check-consumers installs from a make of its own: the plugin is built
# before (as the VTK filter, apps/isosurface/vtk/module.mk).
check-consumers: paraview-plugin
endif
endif
