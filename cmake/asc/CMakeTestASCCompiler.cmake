# enable_language(ASC), step 3: check that the compiler runs (bisheng --version).
if(NOT CMAKE_ASC_COMPILER_WORKS)
  execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version RESULT_VARIABLE _asc_rc OUTPUT_VARIABLE _asc_out
                  ERROR_VARIABLE _asc_out)
  if(NOT _asc_rc EQUAL 0)
    message(FATAL_ERROR "The Ascend C compiler ${CMAKE_ASC_COMPILER} does not run: ${_asc_out}")
  endif()
  message(STATUS "Check for working ASC compiler: ${CMAKE_ASC_COMPILER} - works")
  set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
  unset(_asc_rc)
  unset(_asc_out)
endif()
