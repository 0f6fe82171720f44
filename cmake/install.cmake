# install.cmake — `cmake --install build --prefix P` (docs/library.md): the vbc binary, libvbc
# (static, and shared with a versioned soname), the public headers under P/include/vbc/ (the
# constraint interface, the coupler tables, the registry, scene loading and the run API; not the
# internal helpers), the documentation, P/lib/pkgconfig/vbc.pc and a CMake package
# (find_package(vbc CONFIG) gives vbc::vbc, the shared library, and vbc::static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The public headers, by the paths they include each other with (core/..., app/...): they go to
# P/include/vbc/ with those paths, and vbc.h includes them all.
set(VBC_PUBLIC_HEADERS
  core/vec.h core/error.h core/params.h core/particles.h core/kernel.h core/grid.h core/body.h
  core/constraint.h core/coupler.h core/operator.h core/clock.h
  solvers/schemes/solve_params.h
  app/benchmark.h app/registry.h app/scene.h app/progress.h app/run.h app/sim_api.h
  cli/modules.h)
foreach(h ${VBC_PUBLIC_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vbc/${dir})
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/include/vbc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vbc)

install(TARGETS vbc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS vbc_static vbc_shared EXPORT vbcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT vbcTargets NAMESPACE vbc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vbc)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vbcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/vbcConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vbc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vbcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vbcConfig.cmake ${PROJECT_BINARY_DIR}/vbcConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/vbc)

# pkg-config: -I.../include for <vbc/vbc.h>, -I.../include/vbc for the headers' own paths; the
# prefix is found from the file's own place (${pcfiledir}), so the installed tree can move.
configure_file(${PROJECT_SOURCE_DIR}/cmake/vbc.pc.in ${PROJECT_BINARY_DIR}/vbc.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vbc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/experiments/scenes
  DESTINATION ${CMAKE_INSTALL_DATADIR}/vbc)

# The Python package (python/vbc, docs/python.md) into P/lib/python3/dist-packages/vbc: the
# directory Debian's /usr/bin/python3 searches for P = /usr; for another prefix, one line:
# PYTHONPATH=P/lib/python3/dist-packages. _install.py tells the package where libvbc.so.0 went,
# relative to itself, so the installed tree can move.
set(VBC_PYTHON_DIR lib/python3/dist-packages)
file(RELATIVE_PATH VBC_PYTHON_TO_LIB /P/${VBC_PYTHON_DIR}/vbc /P/${CMAKE_INSTALL_LIBDIR})
file(WRITE ${PROJECT_BINARY_DIR}/python/_install.py
  "# written by cmake/install.cmake: where libvbc.so.0 is, relative to this package\n"
  "LIBDIR_FROM_PACKAGE = \"${VBC_PYTHON_TO_LIB}\"\n")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/vbc/ DESTINATION ${VBC_PYTHON_DIR}/vbc
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/python/_install.py DESTINATION ${VBC_PYTHON_DIR}/vbc)
