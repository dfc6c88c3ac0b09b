# find_package(GenerateEsPackage): GE's ES wrapper generation (README.md "Python graphs, sessions and ES wrappers").
# Installed as <tree>/include/ge/cmake/FindGenerateEsPackage.cmake; samples do
#   list(APPEND CMAKE_MODULE_PATH ${ASCEND_HOME_PATH}/include/ge/cmake)
#   find_package(GenerateEsPackage REQUIRED)
#   add_es_library_and_whl(ES_LINKABLE_AND_ALL_TARGET es_custom OPP_PROTO_TARGET <proto lib> OUTPUT_PATH <dir>)
#   (or add_es_library(...) for no wheel; optional EXCLUDE_OPS a b ...)
# For target es_<m> (module <m>): targets generate_es_<m>_code (gen_esb), es_<m> (libes_<m>.so),
# generate_es_<m>_whl (es_<m>-1.0.0-py3-none-any.whl), install_es_<m> (headers; only with
# OUTPUT_PATH) and build_es_<m> (all of them). Files: <build>/es_<m>_build/generated_code/,
# <build>/es_<m>_build/python_package/es_<m>/ (+ es_<m>.egg-info), and with OUTPUT_PATH
# <out>/lib64/libes_<m>.so, <out>/include/es_<m>/*.h, <out>/whl/*.whl.
# The proto target must be a SHARED library (gen_esb loads it).
# The OpenATC build tree itself sets OPENATC_ES_GEN_ESB / _BASE / _INCLUDE / _WHEEL_WRITER first.
include(FindPackageHandleStandardArgs)
get_filename_component(_openatc_es_tree "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT OPENATC_ES_GEN_ESB)
  find_program(OPENATC_ES_GEN_ESB gen_esb HINTS ${_openatc_es_tree}/bin NO_DEFAULT_PATH)
  find_library(OPENATC_ES_BASE eager_style_graph_builder_base HINTS ${_openatc_es_tree}/lib64 NO_DEFAULT_PATH)
  find_path(OPENATC_ES_INCLUDE ge/es_graph_builder_c.h HINTS ${_openatc_es_tree}/include NO_DEFAULT_PATH)
  find_file(OPENATC_ES_WHEEL_WRITER _wheel.py HINTS ${_openatc_es_tree}/python/site-packages/ge/es NO_DEFAULT_PATH)
endif()
find_program(OPENATC_ES_PYTHON NAMES python3 python)
find_package_handle_standard_args(GenerateEsPackage REQUIRED_VARS OPENATC_ES_GEN_ESB OPENATC_ES_BASE
                                  OPENATC_ES_INCLUDE OPENATC_ES_WHEEL_WRITER OPENATC_ES_PYTHON)

# The generated package's __init__.py: the wrappers, __all__, and get_module() for the entry point.
function(_openatc_es_init_py path module)
  file(WRITE ${path} "\"\"\"ES wrappers of module '${module}' (GenerateEsPackage; do not edit).\"\"\"\n"
       "import sys as _sys\n\nfrom .es_${module}_ops import *  # noqa: F401,F403\n"
       "from .es_${module}_ops import __all__  # noqa: F401\n\n\n"
       "def get_module():\n    return _sys.modules[__name__]\n")
endfunction()

function(_openatc_es_add skip_whl)
  cmake_parse_arguments(ES "" "ES_LINKABLE_AND_ALL_TARGET;OPP_PROTO_TARGET;OUTPUT_PATH" "EXCLUDE_OPS" ${ARGN})
  set(t ${ES_ES_LINKABLE_AND_ALL_TARGET})
  if(NOT t OR NOT ES_OPP_PROTO_TARGET)
    message(FATAL_ERROR "add_es_library: ES_LINKABLE_AND_ALL_TARGET and OPP_PROTO_TARGET are required")
  endif()
  if(NOT t MATCHES "^es_([A-Za-z0-9_]+)$")
    message(FATAL_ERROR "add_es_library: target '${t}' must be named es_<module>")
  endif()
  set(m ${CMAKE_MATCH_1})
  get_target_property(_kind ${ES_OPP_PROTO_TARGET} TYPE)
  if(NOT _kind STREQUAL "SHARED_LIBRARY")
    message(FATAL_ERROR "add_es_library: OPP_PROTO_TARGET '${ES_OPP_PROTO_TARGET}' is a ${_kind}; "
                        "OpenATC's gen_esb loads the prototypes from a SHARED library")
  endif()
  set(bd ${CMAKE_BINARY_DIR}/${t}_build)
  set(gen ${bd}/generated_code)
  set(stem ${gen}/es_${m}_ops)
  set(exclude "")
  if(ES_EXCLUDE_OPS)
    string(REPLACE ";" "," _ex "${ES_EXCLUDE_OPS}")
    set(exclude --exclude_ops=${_ex})
  endif()
  set(gen_esb ${OPENATC_ES_GEN_ESB})
  if(TARGET ${OPENATC_ES_GEN_ESB})  # the OpenATC build tree's own gen_esb
    set(gen_esb $<TARGET_FILE:${OPENATC_ES_GEN_ESB}>)
  endif()
  add_custom_command(OUTPUT ${stem}_c.h ${stem}.h ${stem}.cc ${stem}.py
    COMMAND ${CMAKE_COMMAND} -E env ASCEND_OPP_PATH=$<TARGET_FILE:${ES_OPP_PROTO_TARGET}>
            ${gen_esb} --output_dir=${gen} --module_name=${m} ${exclude}
    DEPENDS ${ES_OPP_PROTO_TARGET} ${OPENATC_ES_GEN_ESB} COMMENT "gen_esb: ES wrappers of ${ES_OPP_PROTO_TARGET}")
  add_custom_target(generate_${t}_code DEPENDS ${stem}_c.h ${stem}.h ${stem}.cc ${stem}.py)

  add_library(${t} SHARED ${stem}.cc)
  target_include_directories(${t} PUBLIC ${gen} ${OPENATC_ES_INCLUDE})
  target_link_libraries(${t} PUBLIC ${OPENATC_ES_BASE})
  add_dependencies(${t} generate_${t}_code)
  set(all ${t})
  if(ES_OUTPUT_PATH)
    set_target_properties(${t} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ES_OUTPUT_PATH}/lib64)
    set(hdr ${ES_OUTPUT_PATH}/include/${t})
    add_custom_command(OUTPUT ${hdr}/es_${m}_ops.h ${hdr}/es_${m}_ops_c.h
      COMMAND ${CMAKE_COMMAND} -E make_directory ${hdr}
      COMMAND ${CMAKE_COMMAND} -E copy ${stem}.h ${stem}_c.h ${hdr}/
      DEPENDS ${stem}.h ${stem}_c.h)
    add_custom_target(install_${t} DEPENDS ${hdr}/es_${m}_ops.h ${hdr}/es_${m}_ops_c.h)
    add_dependencies(install_${t} ${t})
    list(APPEND all install_${t})
  endif()

  set(pp ${bd}/python_package)
  _openatc_es_init_py(${bd}/__init__.py.in ${m})
  add_custom_command(OUTPUT ${pp}/${t}/__init__.py ${pp}/${t}/es_${m}_ops.py
    COMMAND ${CMAKE_COMMAND} -E make_directory ${pp}/${t}
    COMMAND ${CMAKE_COMMAND} -E copy ${bd}/__init__.py.in ${pp}/${t}/__init__.py
    COMMAND ${CMAKE_COMMAND} -E copy ${stem}.py ${pp}/${t}/es_${m}_ops.py
    COMMAND ${OPENATC_ES_PYTHON} ${OPENATC_ES_WHEEL_WRITER} --package_dir ${pp} --name ${t} --version 1.0.0
            --entry_point ge.es.plugins:${m}=${t}:get_module --egg_info
    DEPENDS ${stem}.py ${bd}/__init__.py.in)
  set(pkg ${pp}/${t}/__init__.py ${pp}/${t}/es_${m}_ops.py)
  if(NOT skip_whl)
    if(ES_OUTPUT_PATH)
      set(wd ${ES_OUTPUT_PATH}/whl)
    else()
      set(wd ${pp}/dist)
    endif()
    add_custom_command(OUTPUT ${wd}/${t}-1.0.0-py3-none-any.whl
      COMMAND ${OPENATC_ES_PYTHON} ${OPENATC_ES_WHEEL_WRITER} --package_dir ${pp} --name ${t} --version 1.0.0
              --entry_point ge.es.plugins:${m}=${t}:get_module --wheel_dir ${wd}
      DEPENDS ${pkg} ${OPENATC_ES_WHEEL_WRITER} COMMENT "Writing ${t}-1.0.0-py3-none-any.whl")
    add_custom_target(generate_${t}_whl DEPENDS ${wd}/${t}-1.0.0-py3-none-any.whl)
  else()
    add_custom_target(generate_${t}_whl DEPENDS ${pkg})
  endif()
  add_dependencies(generate_${t}_whl generate_${t}_code)  # gen_esb runs once, before its consumers
  list(APPEND all generate_${t}_whl)
  add_custom_target(build_${t})
  add_dependencies(build_${t} ${all})
endfunction()

function(add_es_library_and_whl)
  _openatc_es_add(FALSE ${ARGN})
endfunction()

function(add_es_library)
  _openatc_es_add(TRUE ${ARGN})
endfunction()
