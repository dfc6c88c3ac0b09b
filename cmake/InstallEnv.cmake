# <prefix>/set_env.sh from cmake/set_env.sh.in. The script finds its tree from its own location;
# the prefix written into it at install time (cmake --install --prefix honoured) is the fallback
# for shells that cannot say which file they are sourcing.
install(CODE "
  set(OPENATC_INSTALLED_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(_dst \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/set_env.sh\")
  message(STATUS \"Installing: \${_dst}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/cmake/set_env.sh.in\" \"\${_dst}\" @ONLY)
")
# The marker that tells the CANN lookup this tree is OpenATC's own, not CANN
# (openatc/common/cann_lookup.h, kOpenAtcTreeMarker).
file(WRITE ${CMAKE_BINARY_DIR}/openatc_tree "OpenATC ${PROJECT_VERSION}: this tree is not CANN\n")
install(FILES ${CMAKE_BINARY_DIR}/openatc_tree DESTINATION share/openatc)
