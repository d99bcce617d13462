# Debian's paraview-dev 5.11 ships ParaView's CMake package, three of whose
# imported-target files name files of python3-paraview: the Python modules
# (vtk/VTKPython-targets.cmake, ParaViewPython-targets.cmake) and
# /usr/bin/pvpython (ParaViewTools-targets.cmake, with ParaView's server
# executables); find_package(ParaView) stops when they are missing.
# python3-paraview conflicts with python3-vtk9 (the VTK filter's Python
# side), so it is often not installed: then the targets of those files are
# defined here first, empty, and the files skip themselves (an
# imported-targets file returns early when all its targets exist). The
# plugin uses none of them: it is not wrapped for Python (ParaView's proxies
# reach it through the client-server wrapping) and runs no ParaView
# executable. With python3-paraview installed, nothing is done.
function (adapt_paraview_python_stubs paraview_dir)
  foreach (targets IN ITEMS "${paraview_dir}/vtk/VTKPython-targets.cmake"
                            "${paraview_dir}/ParaViewPython-targets.cmake"
                            "${paraview_dir}/ParaViewTools-targets.cmake")
    if (NOT EXISTS "${targets}")
      continue ()
    endif ()
    # The per-configuration files (<name>-debug.cmake...) list the files.
    string(REGEX REPLACE "\\.cmake$" "-*.cmake" pattern "${targets}")
    file(GLOB configs "${pattern}")
    get_filename_component(prefix "${paraview_dir}/../../.." ABSOLUTE)
    set(missing "")
    foreach (config IN LISTS configs)
      file(STRINGS "${config}" checks REGEX "_cmake_import_check_files_for_")
      foreach (line IN LISTS checks)
        if (line MATCHES "\"\\\${_IMPORT_PREFIX}([^\"]+)\"" AND NOT EXISTS "${prefix}${CMAKE_MATCH_1}")
          set(missing "${prefix}${CMAKE_MATCH_1}")
        endif ()
      endforeach ()
    endforeach ()
    if (NOT missing)
      continue ()
    endif ()
    file(STRINGS "${targets}" items REGEX "_cmake_expected_target IN ITEMS")
    string(REGEX MATCH "IN ITEMS ([^)]*)\\)" found "${items}")
    string(REPLACE " " ";" names "${CMAKE_MATCH_1}")
    foreach (name IN LISTS names)
      if (name AND NOT TARGET "${name}")
        add_library("${name}" INTERFACE IMPORTED)
      endif ()
    endforeach ()
    message(STATUS "${missing} missing (python3-paraview not installed): "
      "the targets of ${targets} defined empty")
  endforeach ()
endfunction ()

# VTK's wrapping hierarchy files of ParaView's modules (the client-server
# wrapping reads those of the modules the plugin depends on) are in
# python3-paraview too: when the file a module's target names is missing,
# it is taken from python3-paraview's files unpacked in root
# (scripts/paraview_python.sh: root/usr/lib/...). Call after
# find_package(ParaView).
function (adapt_paraview_hierarchy_from root)
  get_directory_property(imported IMPORTED_TARGETS)
  foreach (target IN LISTS imported)
    get_target_property(file "${target}" INTERFACE_vtk_module_hierarchy)
    if (file AND NOT EXISTS "${file}" AND EXISTS "${root}${file}")
      set_property(TARGET "${target}" PROPERTY INTERFACE_vtk_module_hierarchy "${root}${file}")
    endif ()
  endforeach ()
endfunction ()
