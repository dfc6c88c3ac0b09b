# enable_language(ASC), step 2: how .asc sources compile (bisheng -c, host objects carrying the
# kernel in .aicore_binary) and how ASC-only targets link (with the C++ compiler driver).
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_INCLUDE_SYSTEM_FLAG_ASC "-isystem ")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_SHARED_LIBRARY_ASC_FLAGS "-fPIC")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")

set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
# CMAKE_ASC_RUN_MODE, as the devkit's samples take it: `npu` (the default) and `cpu` both run the
# kernels on this host's CPU; `cpu` also defines ASCENDC_CPU_DEBUG, as CANN's CPU-debug mode does
# (samples then include cpu_debug_launch.h). `sim`, the NPU simulator, does not exist here.
if(DEFINED CMAKE_ASC_RUN_MODE AND NOT "${CMAKE_ASC_RUN_MODE}" STREQUAL "")
  if(CMAKE_ASC_RUN_MODE STREQUAL "cpu")
    string(APPEND CMAKE_ASC_FLAGS_INIT " -DASCENDC_CPU_DEBUG")
  elseif(NOT CMAKE_ASC_RUN_MODE STREQUAL "npu")
    message(FATAL_ERROR "CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}' is not available with OpenATC's ASC language: "
                        "it runs .asc kernels on the host CPU in mode 'npu' (the default) or 'cpu' (also defines "
                        "ASCENDC_CPU_DEBUG). Configure with -DCMAKE_ASC_RUN_MODE=npu or cpu.")
  endif()
endif()
string(APPEND CMAKE_ASC_FLAGS_DEBUG_INIT " -O0 -g")
string(APPEND CMAKE_ASC_FLAGS_RELEASE_INIT " -O3 -DNDEBUG")
string(APPEND CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT " -O2 -g -DNDEBUG")
string(APPEND CMAKE_ASC_FLAGS_MINSIZEREL_INIT " -Os -DNDEBUG")
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the Ascend C compiler (bisheng)")

if(NOT CMAKE_ASC_COMPILE_OBJECT)
  set(CMAKE_ASC_COMPILE_OBJECT "<CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -x asc -c <SOURCE> -o <OBJECT>")
endif()
# A target made of .asc files only links with a host C++ driver; a target with C++ sources links
# with the C++ linker anyway (higher linker preference). The driver is the C++ compiler when CXX
# is already enabled, else $CXX or c++/g++/clang++ from PATH: `project(x LANGUAGES ASC)` (the
# devkit's hello_world) enables no CXX, so no <CMAKE_CXX_COMPILER> exists to name.
if(NOT ASC_LINK_DRIVER)
  if(CMAKE_CXX_COMPILER)
    set(_asc_driver "${CMAKE_CXX_COMPILER}")
  elseif(DEFINED ENV{CXX} AND NOT "$ENV{CXX}" STREQUAL "")
    separate_arguments(_asc_driver UNIX_COMMAND "$ENV{CXX}")
    list(GET _asc_driver 0 _asc_driver)
    find_program(_asc_driver_path NAMES "${_asc_driver}" NO_CACHE)
    set(_asc_driver "${_asc_driver_path}")
  else()
    find_program(_asc_driver NAMES c++ g++ clang++ NO_CACHE)
  endif()
  if(NOT _asc_driver)
    message(FATAL_ERROR "The ASC language needs a host C++ compiler driver to link .asc objects, and found none "
                        "(c++, g++, clang++ on PATH, or $CXX). Install one or set ASC_LINK_DRIVER.")
  endif()
  set(ASC_LINK_DRIVER "${_asc_driver}" CACHE FILEPATH "The host C++ driver that links ASC-only targets")
  unset(_asc_driver)
  unset(_asc_driver_path)
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
  set(CMAKE_ASC_CREATE_SHARED_LIBRARY
      "\"${ASC_LINK_DRIVER}\" <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LINK_FLAGS> -shared <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_MODULE)
  set(CMAKE_ASC_CREATE_SHARED_MODULE "${CMAKE_ASC_CREATE_SHARED_LIBRARY}")
endif()
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
  set(CMAKE_ASC_LINK_EXECUTABLE "\"${ASC_LINK_DRIVER}\" <FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_STATIC_LIBRARY)
  set(CMAKE_ASC_CREATE_STATIC_LIBRARY "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>" "<CMAKE_RANLIB> <TARGET>")
endif()
# Targets with .asc objects link the runtime their launches call (libascendcl, next to bisheng:
# <prefix>/lib64 installed, <build>/lib in the build tree), as CANN's ASC package links its
# runtime: a sample lists only the other libraries it uses. ASC-only targets get it through the
# standard libraries of their link language; targets linked as C++ through ASC's implicit ones.
if(NOT DEFINED ASC_RUNTIME_LIBRARY)
  get_filename_component(_asc_root "${CMAKE_ASC_COMPILER}" DIRECTORY)
  get_filename_component(_asc_root "${_asc_root}" DIRECTORY)
  foreach(_asc_dir lib64 lib)
    if(NOT ASC_RUNTIME_LIBRARY AND EXISTS "${_asc_root}/${_asc_dir}/libascendcl.so")
      set(ASC_RUNTIME_LIBRARY "${_asc_root}/${_asc_dir}/libascendcl.so")
    endif()
  endforeach()
  if(NOT ASC_RUNTIME_LIBRARY)
    message(FATAL_ERROR "The ASC language found no libascendcl.so in ${_asc_root}/lib64 or ${_asc_root}/lib "
                        "(next to ${CMAKE_ASC_COMPILER}). Use the bisheng of an installed OpenATC tree.")
  endif()
  set(ASC_RUNTIME_LIBRARY "${ASC_RUNTIME_LIBRARY}" CACHE FILEPATH "The runtime .asc launches call (OpenATC libascendcl)")
  unset(_asc_root)
  unset(_asc_dir)
endif()
set(CMAKE_ASC_IMPLICIT_LINK_LIBRARIES "${ASC_RUNTIME_LIBRARY}")
if(NOT DEFINED CMAKE_ASC_STANDARD_LIBRARIES)
  set(CMAKE_ASC_STANDARD_LIBRARIES "${ASC_RUNTIME_LIBRARY}" CACHE STRING "Libraries linked into every ASC-linked target")
endif()
set(CMAKE_ASC_INFORMATION_LOADED 1)
