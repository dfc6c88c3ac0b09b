# openatc_add_om(): an OM built by the installed atc as a build step (README.md "Installed tree").
# Installed beside OpenATCConfig.cmake, which includes it after setting OpenATC_ATC.
#
#   openatc_add_om(TARGET name MODEL file SOC_VERSION soc
#                  [OUTPUT path] [OPTIONS flag...] [DEPENDS file-or-target...]
#                  [CUSTOM_OPP_PATH root...])
#
# TARGET           a custom target (in ALL) that builds the OM; its property OPENATC_OM_FILE is the path
# MODEL            the graph (.onnx, .air, .json, .txt); relative to CMAKE_CURRENT_SOURCE_DIR
# SOC_VERSION      atc's --soc_version (host, or an Ascend name)
# OUTPUT           the OM path (".om" appended unless given); relative to CMAKE_CURRENT_BINARY_DIR;
#                  default <binary dir>/<name>.om
# OPTIONS          more atc flags, passed as written (e.g. --input_shape=x:1,3 --log=info); atc runs in
#                  CMAKE_CURRENT_SOURCE_DIR, so a relative file path in a flag is read from there
# DEPENDS          files the build reads (config files named in OPTIONS; relative to
#                  CMAKE_CURRENT_SOURCE_DIR) and targets that must be built first (a deliverable's
#                  library target: the OM is rebuilt when it changes)
# CUSTOM_OPP_PATH  the ASCEND_CUSTOM_OPP_PATH roots atc sees; default: the variable's value when
#                  CMake ran. atc runs with exactly these roots (none: the variable is unset), so
#                  the build does not depend on the shell that runs it.
#
# The OM is rebuilt when the model, a DEPENDS entry, atc, a built-in operator library or a
# deliverable .so present under a root at configure time changes, or when the arguments change;
# otherwise not. atc writes the OM atomically, so a failed step leaves no partial file behind.
function(openatc_add_om)
  cmake_parse_arguments(PARSE_ARGV 0 _om "" "TARGET;MODEL;SOC_VERSION;OUTPUT" "OPTIONS;DEPENDS;CUSTOM_OPP_PATH")
  foreach(_req TARGET MODEL SOC_VERSION)
    if(NOT _om_${_req})
      message(FATAL_ERROR "openatc_add_om: ${_req} is required (openatc_add_om(TARGET name MODEL file SOC_VERSION soc ...))")
    endif()
  endforeach()
  if(_om_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "openatc_add_om(${_om_TARGET}): unknown arguments '${_om_UNPARSED_ARGUMENTS}'; "
                        "put atc flags after OPTIONS")
  endif()
  if(NOT OpenATC_ATC OR NOT EXISTS "${OpenATC_ATC}")
    message(FATAL_ERROR "openatc_add_om(${_om_TARGET}): atc not found at '${OpenATC_ATC}'; call find_package(OpenATC) first")
  endif()

  get_filename_component(_model "${_om_MODEL}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(_om_OUTPUT)
    get_filename_component(_out "${_om_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/${_om_TARGET}")
  endif()
  if(NOT _out MATCHES "\\.om$")
    string(APPEND _out ".om")
  endif()

  set(_byproducts "")
  foreach(_opt IN LISTS _om_OPTIONS)
    if(_opt MATCHES "^-?-save_original_model=true$")
      string(REGEX REPLACE "\\.om$" "_original.om" _orig "${_out}")
      list(APPEND _byproducts "${_orig}")
    endif()
  endforeach()

  if(NOT DEFINED _om_CUSTOM_OPP_PATH)
    string(REPLACE ":" ";" _om_CUSTOM_OPP_PATH "$ENV{ASCEND_CUSTOM_OPP_PATH}")
  endif()
  set(_roots "")
  set(_opp_files "")
  foreach(_root IN LISTS _om_CUSTOM_OPP_PATH)
    if(_root STREQUAL "")
      continue()
    endif()
    get_filename_component(_root "${_root}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND _roots "${_root}")
    # GE's search per root (README.md "atc"): <root>/libcust_opapi.so, then op_graph/lib/<os>/<arch>/*.so.
    file(GLOB _found "${_root}/libcust_opapi.so" "${_root}/op_graph/lib/*/*/*.so")
    list(APPEND _opp_files ${_found})
  endforeach()
  if(_roots)
    string(REPLACE ";" ":" _roots "${_roots}")
    set(_env "ASCEND_CUSTOM_OPP_PATH=${_roots}")
  else()
    set(_env "--unset=ASCEND_CUSTOM_OPP_PATH")
  endif()
  file(GLOB _builtin "${OpenATC_OPP_BUILTIN_DIR}/op_graph/lib/*/*/*.so")

  set(_deps "")
  foreach(_dep IN LISTS _om_DEPENDS)
    if(TARGET "${_dep}")
      list(APPEND _deps "${_dep}")
    else()
      get_filename_component(_dep "${_dep}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND _deps "${_dep}")
    endif()
  endforeach()
  get_filename_component(_out_dir "${_out}" DIRECTORY)
  file(RELATIVE_PATH _shown "${CMAKE_BINARY_DIR}" "${_out}")
  add_custom_command(
    OUTPUT "${_out}"
    BYPRODUCTS ${_byproducts}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_out_dir}"
    COMMAND ${CMAKE_COMMAND} -E env ${_env}
            "${OpenATC_ATC}" "--model=${_model}" "--soc_version=${_om_SOC_VERSION}" "--output=${_out}" ${_om_OPTIONS}
    DEPENDS "${_model}" "${OpenATC_ATC}" ${_builtin} ${_opp_files} ${_deps}
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMENT "Building OM ${_shown} with atc"
    VERBATIM)
  add_custom_target(${_om_TARGET} ALL DEPENDS "${_out}")
  set_target_properties(${_om_TARGET} PROPERTIES OPENATC_OM_FILE "${_out}")
endfunction()
