# enable_language(ASC), step 1: find the compiler and write CMakeASCCompiler.cmake
# (cmake/asc/ASCConfig.cmake sets CMAKE_ASC_COMPILER to OpenATC's host bisheng).
if(NOT CMAKE_ASC_COMPILER)
  if(DEFINED ENV{ASC})
    set(CMAKE_ASC_COMPILER "$ENV{ASC}")
  else()
    find_program(CMAKE_ASC_COMPILER NAMES bisheng DOC "Ascend C compiler (OpenATC host bisheng)")
  endif()
endif()
if(NOT CMAKE_ASC_COMPILER OR NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "No Ascend C compiler: bisheng was not found (CMAKE_ASC_COMPILER='${CMAKE_ASC_COMPILER}'). "
                      "Call find_package(ASC) first, or put OpenATC's bin/ on PATH (source <prefix>/set_env.sh).")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_COMPILER_ID "OpenATC")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
