# The ParaView plugin AdaptiveContour (docs/paraview.md), included by
# ../CMakeLists.txt when -DADAPT_VTK_PARAVIEW=ON: the module Adapt::Contour
# (../filter, the VTK filter's sources and vtk.module) built against
# ParaView's own VTK (find_package(ParaView): Debian's paraview-dev 5.11,
# headers in /usr/include/paraview-5.11) and the plugin of this directory
# (CMakeLists.txt: paraview_add_plugin, AdaptiveContour.xml).
# Builds and installs (CMAKE_INSTALL_PREFIX) in
# ${CMAKE_INSTALL_LIBDIR}/paraview-5.11/plugins/AdaptiveContour/:
# AdaptiveContour.so, the plugin ParaView loads, and beside it the module
# libadaptVtkContour-pv5.11.so (the suffix keeps it apart from the VTK
# filter's libadaptVtkContour.so); their run paths reach libadapt in
# ${CMAKE_INSTALL_LIBDIR}. Both are the install component "runtime" (make
# install installs it alone: the "development" files, the module's headers
# and its client-server library, are of no use without ParaView's sources).
include("${CMAKE_CURRENT_SOURCE_DIR}/paraview/python_stubs.cmake")
if (NOT ParaView_DIR)
  find_path(ParaView_DIR paraview-config.cmake
    PATH_SUFFIXES lib/cmake/paraview-5.11 lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/paraview-5.11)
endif ()
if (ParaView_DIR)
  adapt_paraview_python_stubs("${ParaView_DIR}")
endif ()
find_package(ParaView 5.11 REQUIRED COMPONENTS RemotingCore RemotingServerManager)
set(ADAPT_PARAVIEW_PYTHON "/" CACHE PATH
  "where python3-paraview's files are (scripts/paraview_python.sh prints it)")
adapt_paraview_hierarchy_from("${ADAPT_PARAVIEW_PYTHON}")

# ParaView loads shared plugins; the module is a shared library beside the
# plugin.
set(BUILD_SHARED_LIBS ON)
set(ADAPT_VTK_MODULE_FILE "${CMAKE_CURRENT_SOURCE_DIR}/filter/vtk.module")

paraview_plugin_scan(
  PLUGIN_FILES            "${CMAKE_CURRENT_SOURCE_DIR}/paraview/paraview.plugin"
  PROVIDES_PLUGINS        adapt_plugins
  ENABLE_BY_DEFAULT       ON
  HIDE_PLUGINS_FROM_CACHE ON)

paraview_plugin_build(
  PLUGINS              ${adapt_plugins}
  LIBRARY_SUBDIRECTORY "paraview-${ParaView_VERSION_MAJOR}.${ParaView_VERSION_MINOR}/plugins"
  ADD_INSTALL_RPATHS   ON
  PLUGINS_COMPONENT    runtime)
