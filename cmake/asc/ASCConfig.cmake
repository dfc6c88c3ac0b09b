# find_package(ASC): the Ascend C language for CMake, compiling .asc files with OpenATC's host
# bisheng driver (docs/architecture.md "Host RTC"). Lives in <prefix>/share/cmake/ASC (installed)
# or <build>/lib/cmake/ASC (build tree); bisheng is <this folder>/../../../bin/bisheng in both.
# After it, `project(x LANGUAGES ASC CXX)` or `enable_language(ASC)` work; objects of .asc files
# link with the C++ linker.
get_filename_component(_asc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(ASC_BISHENG "${_asc_prefix}/bin/bisheng")
if(NOT EXISTS "${ASC_BISHENG}")
  set(ASC_FOUND FALSE)
  set(ASC_NOT_FOUND_MESSAGE "the host bisheng driver is missing: ${ASC_BISHENG}")
  return()
endif()
set(ASC_INCLUDE_DIRS "${_asc_prefix}/asc/include")
list(FIND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}" _asc_index)
if(_asc_index EQUAL -1)
  list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}")
endif()
# The language modules find the compiler through this cache entry (a user's own value wins).
set(CMAKE_ASC_COMPILER "${ASC_BISHENG}" CACHE FILEPATH "Ascend C compiler (OpenATC host bisheng)")
set(ASC_FOUND TRUE)
unset(_asc_prefix)
unset(_asc_index)
