# `make install PREFIX=...`: a tree shaped like a CANN install (README.md "Installed tree"), so that
# GE's sample folders build against it unmodified with their own CMakeLists.txt:
#   set_env.sh                      ASCEND_HOME_PATH, PATH, LD_LIBRARY_PATH, PYTHONPATH, CMAKE_PREFIX_PATH
#   bin/                            atc, omrun (and the host bisheng driver, cmake/InstallToolchain.cmake)
#   include/ (+ graph/ register/ ge/ acl/ external/ ...)   the SDK headers (cmake/InstallHeaders.cmake)
#   asc/include/                    the Ascend C headers
#   lib64/                          every SDK library name GE's samples link, lib64/cmake/OpenATC/
#   opp/built-in/                   the built-in operators' OPP root (+ op_proto/inc/)
#   python/site-packages/           ge.custom_op, ge.runtime, ge.graph (cmake/InstallPython.cmake)
include(GNUInstallDirs)
install(TARGETS atc omrun RUNTIME DESTINATION bin)
install(TARGETS ascendcl acl_rtc register gert lowering ge_runner openatc_ge_ir_proto LIBRARY DESTINATION lib64)
# GE's other library names: linker scripts leading to the libraries above (ge_api/compat_libs).
install(FILES ${OPENATC_COMPAT_LIB_FILES} DESTINATION lib64)
install(TARGETS custom_op_registry_static ARCHIVE DESTINATION lib64)
include(cmake/InstallHeaders.cmake)
include(cmake/InstallEnv.cmake)
install(DIRECTORY DESTINATION opp/built-in)
install(DIRECTORY DESTINATION python/site-packages)
include(cmake/InstallPython.cmake)
include(cmake/InstallEs.cmake)

# find_package(OpenATC): OpenATC::sdk (cmake/OpenATCConfig.cmake.in).
include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/OpenATCConfig.cmake.in ${CMAKE_BINARY_DIR}/OpenATCConfig.cmake
  INSTALL_DESTINATION lib64/cmake/OpenATC)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/OpenATCConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/OpenATCConfig.cmake ${CMAKE_BINARY_DIR}/OpenATCConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/OpenATCAddOm.cmake DESTINATION lib64/cmake/OpenATC)
# Debian's CMake does not search lib64/ for package configs: a forwarding copy under share/ lets
# `-DCMAKE_PREFIX_PATH=<prefix>` find the package.
foreach(_f OpenATCConfig OpenATCConfigVersion)
  file(WRITE ${CMAKE_BINARY_DIR}/forward/${_f}.cmake
       "include(\"\${CMAKE_CURRENT_LIST_DIR}/../../../lib64/cmake/OpenATC/${_f}.cmake\")\n")
  install(FILES ${CMAKE_BINARY_DIR}/forward/${_f}.cmake DESTINATION share/cmake/OpenATC)
endforeach()

# The host `bisheng` driver and the ASC CMake package/language (bin/, share/cmake/ASC).
include(cmake/InstallToolchain.cmake OPTIONAL)
