# install.cmake — `cmake --install build --prefix P` (docs/library.md): the vbc binary, libvbc
# (static, and shared with a versioned soname), the public headers under P/include/vbc/ (the
# constraint interface, the coupler tables, the registry, scene loading and the run API; not the
# internal helpers), the documentation, P/lib/pkgconfig/vbc.pc and a CMake package
# (find_package(vbc CONFIG) gives vbc::vbc, the shared library, and vbc::static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The public headers: one prefixed set under P/include/vbc/, included as <vbc/vbc.h> with only
# P/include on the include path. In the source tree they include each other by their paths from
# the project root ("core/vec.h"); installed copies say "vbc/core/vec.h", so that no generic
# folder name (core/, sim/) lands on a user's include path. vbc_public_headers.cmake rewrites the
# include lines on install; internal headers are not installed.
set(VBC_PUBLIC_HEADERS
  core/vec.h core/error.h core/params.h core/particles.h core/kernel.h core/grid.h core/body.h
  core/system.h core/constraint.h core/coupler.h core/operator.h core/clock.h
  solvers/schemes/solve_params.h
  registry/benchmark.h registry/registry.h modules/builtin.h
  scene/scene.h sim/progress.h sim/run.h sim/sim_api.h)
install(CODE "set(VBC_SOURCE_DIR \"${PROJECT_SOURCE_DIR}\")
  set(VBC_HEADERS \"${VBC_PUBLIC_HEADERS};include/vbc/vbc.h\")
  set(VBC_INCLUDE_DEST \"${CMAKE_INSTALL_INCLUDEDIR}\")")
install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/vbc_public_headers.cmake)

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

# pkg-config: -I.../include for <vbc/vbc.h>; the prefix is found from the file's own place (${pcfiledir}), so the installed tree can move.
configure_file(${PROJECT_SOURCE_DIR}/cmake/vbc.pc.in ${PROJECT_BINARY_DIR}/vbc.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/vbc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/experiments/scenes ${PROJECT_SOURCE_DIR}/experiments/methods
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
