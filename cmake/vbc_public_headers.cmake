# vbc_public_headers.cmake — run by `cmake --install` (cmake/install.cmake): copies the public
# headers to P/include/vbc/ and prefixes their project includes with vbc/ ("core/vec.h" becomes
# "vbc/core/vec.h"), so the installed set needs only P/include on the include path. include/vbc/
# vbc.h goes to P/include/vbc/vbc.h. Reads VBC_SOURCE_DIR, VBC_HEADERS and VBC_INCLUDE_DEST.
if(IS_ABSOLUTE "${VBC_INCLUDE_DEST}")
  set(dest "$ENV{DESTDIR}${VBC_INCLUDE_DEST}/vbc")
else()
  set(dest "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${VBC_INCLUDE_DEST}/vbc")
endif()
foreach(h ${VBC_HEADERS})
  file(READ "${VBC_SOURCE_DIR}/${h}" text)
  string(REGEX REPLACE "#include \"([a-z_]+/[^\"]+)\"" "#include \"vbc/\\1\"" text "${text}")
  if(h STREQUAL "include/vbc/vbc.h")
    set(out "${dest}/vbc.h")
  else()
    set(out "${dest}/${h}")
  endif()
  message(STATUS "Installing: ${out}")
  file(WRITE "${out}" "${text}")
endforeach()
