# `make install PREFIX=...`: a tree shaped like a CANN install (README.md "Writing, building and
# registering a custom op"):   bin/atc bin/omrun  include/ 
# lib64/lib{ascendcl,acl_rtc,register,gert,lowering,ge_runner}.so  
# lib64/libcustom_op_registry_static.a  lib64/cmake/OpenATC/  opp/builtin/
include(GNUInstallDirs)
install(TARGETS atc omrun RUNTIME DESTINATION bin)
install(TARGETS ascendcl acl_rtc register gert lowering ge_runner openatc_ge_ir_proto LIBRARY DESTINATION lib64)
install(TARGETS custom_op_registry_static ARCHIVE DESTINATION lib64)
install(DIRECTORY include/ DESTINATION include)
install(DIRECTORY DESTINATION opp/builtin)
include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/OpenATCConfig.cmake.in ${CMAKE_BINARY_DIR}/OpenATCConfig.cmake
  INSTALL_DESTINATION lib64/cmake/OpenATC)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/OpenATCConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/OpenATCConfig.cmake ${CMAKE_BINARY_DIR}/OpenATCConfigVersion.cmake
  DESTINATION lib64/cmake/OpenATC)
# Debian's CMake does not search lib64/ for package configs: a forwarding copy under share/ lets
# `-DCMAKE_PREFIX_PATH=<prefix>` find the package.
foreach(_f OpenATCConfig OpenATCConfigVersion)
  file(WRITE ${CMAKE_BINARY_DIR}/forward/${_f}.cmake
       "include(\"\${CMAKE_CURRENT_LIST_DIR}/../../../lib64/cmake/OpenATC/${_f}.cmake\")\n")
  install(FILES ${CMAKE_BINARY_DIR}/forward/${_f}.cmake DESTINATION share/cmake/OpenATC)
endforeach()
