# Python graphs, sessions and ES wrappers in the install tree (README.md "Python graphs,
# sessions and ES wrappers"): the ES builder library and gen_esb, the ES C header, the
# GenerateEsPackage CMake package under include/ge/cmake, and ge.session's native module beside
# libge_runner.so (ge/_capi/__init__.py finds it there).
install(TARGETS eager_style_graph_builder_base ge_native_py LIBRARY DESTINATION lib64)
install(TARGETS gen_esb RUNTIME DESTINATION bin)
install(FILES ${PROJECT_SOURCE_DIR}/sdk/es/include/ge/es_graph_builder_c.h DESTINATION include/ge)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/es/FindGenerateEsPackage.cmake DESTINATION include/ge/cmake)
