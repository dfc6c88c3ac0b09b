# The include folders GE's samples add, all mapped from the repository's include/ (no header is
# duplicated in the repository; only the installed tree holds copies):
#   include/                          everything: graph/ register/ exe_graph/ ge/ acl/ platform/
#                                     tiling/ error_codes/ utils/ openatc/ ascendc/
#   include/graph, include/register, include/ge, include/acl
#                                     the same folders, added as include roots by the samples
#                                     (bare "graph.h", "tensor.h", "types.h", "operator_reg.h")
#   include/external/{acl,ge,graph,register,exe_graph,utils}
#                                     GE's external/ layout ("graph/custom_op.h", "ge/ge_api.h")
#   opp/built-in/op_proto/inc/ops_proto_legacy.h   the REG_OP(Data) etc. prototypes
#   asc/include/                      the Ascend C headers (kernel_operator.h) and the openatc/
#                                     headers they include
set(_sdk_inc ${PROJECT_SOURCE_DIR}/include)
install(DIRECTORY ${_sdk_inc}/ DESTINATION include)
foreach(_d acl ge graph register exe_graph utils)
  install(DIRECTORY ${_sdk_inc}/${_d} DESTINATION include/external)
endforeach()
install(FILES ${_sdk_inc}/ops_proto_legacy.h DESTINATION opp/built-in/op_proto/inc)
install(DIRECTORY ${_sdk_inc}/ascendc/ DESTINATION asc/include)
install(DIRECTORY ${_sdk_inc}/openatc DESTINATION asc/include)
