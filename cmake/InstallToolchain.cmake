# The Ascend C toolchain in the install tree (README.md, "Ascend C toolchain"): P/bin/bisheng and the
# ASC CMake package + language modules in P/share/cmake/ASC (found by find_package(ASC) through
# CMAKE_PREFIX_PATH=P, which set_env.sh sets). Included by cmake/Install.cmake; the build tree
# gets the same package in <build>/lib/cmake/ASC (cmake/asc/ASCConfig.cmake explains the layout).
set(_openatc_asc_files
  ${PROJECT_SOURCE_DIR}/cmake/asc/ASCConfig.cmake
  ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeDetermineASCCompiler.cmake
  ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeASCCompiler.cmake.in
  ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeASCInformation.cmake
  ${PROJECT_SOURCE_DIR}/cmake/asc/CMakeTestASCCompiler.cmake)
install(TARGETS bisheng RUNTIME DESTINATION bin)
# share/: Debian's CMake searches <prefix>/share/cmake/<name>/ but not lib64/ (see cmake/Install.cmake).
install(FILES ${_openatc_asc_files} DESTINATION share/cmake/ASC)
