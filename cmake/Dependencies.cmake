# Every third-party dependency comes from a Debian package (see `make deps`).
find_package(Threads REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(FlatBuffers REQUIRED)
find_program(FLATC flatc REQUIRED)
find_package(zstd REQUIRED)
# Protobuf must be found before ONNX (libonnx's config expects its targets).
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED)
find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
find_library(XXHASH_LIBRARY xxhash REQUIRED)
add_library(openatc_xxhash INTERFACE)
target_include_directories(openatc_xxhash INTERFACE ${XXHASH_INCLUDE_DIR})
target_link_libraries(openatc_xxhash INTERFACE ${XXHASH_LIBRARY})
if(OPENATC_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
endif()

# The host RTC compiles kernels with clang; clang-19 has _Float16 on x86-64, clang-14 does not.
find_program(OPENATC_HOST_CXX_DEFAULT NAMES clang++-19 clang++ DOC "C++ compiler used by the host RTC")
if(NOT OPENATC_HOST_CXX_DEFAULT)
  message(FATAL_ERROR "clang++ (clang-19 preferred) is required by the host RTC; run 'make deps'")
endif()
