/**
 * @file ge/es_graph_builder_c.h
 * The ES ("eager style") graph builder C API of libeager_style_graph_builder_base.so: build a
 * ge::Graph node by node from C, ctypes or code written by gen_esb (README.md "Python
 * graphs, sessions and ES wrappers"). Python's ge.es.GraphBuilder and the generated Es<OpType> functions call it.
 *
 * Handles: an EsGraphBuilder owns every EsTensorHolder it hands out (one per node output); they
 * stay valid until EsDestroyGraphBuilder. EsBuildGraphAndReset returns an EsGraph the caller
 * frees with EsDestroyGraph, and empties the builder (its holders are then invalid).
 * Errors: functions returning a pointer return NULL, those returning int32_t return non-zero
 * (-1); EsLastError() then gives the reason (thread-local, "" when none).
 * dtype / format values are GE's (ge::DataType, ge::Format: DT_FLOAT = 0, FORMAT_ND = 2).
 */
#ifndef OPENATC_GE_ES_GRAPH_BUILDER_C_H_
#define OPENATC_GE_ES_GRAPH_BUILDER_C_H_

#include <stdint.h>

#ifndef ES_C_API
#define ES_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EsGraphBuilder EsGraphBuilder;
typedef struct EsTensorHolder EsTensorHolder;
typedef struct EsGraph EsGraph;

/** The kind of one IR input, as gen_esb passes it to EsCreateNode. */
enum EsInputKind { ES_INPUT_REQUIRED = 0, ES_INPUT_OPTIONAL = 1, ES_INPUT_DYNAMIC = 2 };

ES_C_API const char *EsLastError(void);

ES_C_API EsGraphBuilder *EsCreateGraphBuilder(const char *name);
ES_C_API void EsDestroyGraphBuilder(EsGraphBuilder *builder);

/** A Data node: model input `index` (0-based, each once), named `name` (NULL: "input_<index>"). */
ES_C_API EsTensorHolder *EsCreateGraphInput(EsGraphBuilder *builder, int64_t index, const char *name, int32_t dtype,
                                           int32_t format, const int64_t *dims, int64_t dim_num);
/** A Const node of DT_FLOAT, FORMAT_ND; value_num must equal the product of dims (1 for dim_num 0). */
ES_C_API EsTensorHolder *EsCreateConstFloat(EsGraphBuilder *builder, const float *values, int64_t value_num,
                                           const int64_t *dims, int64_t dim_num);

/**
 * A node of op_type with ir_input_num IR inputs named input_names, of kinds input_kinds
 * (EsInputKind); input_counts[i] holders are taken in order from inputs for IR input i (1 for
 * required, 0 or 1 for optional, any for dynamic). output_num required outputs named
 * output_names. Returns the holder of output 0 (with no outputs, a holder only for attributes).
 * The node gets the attributes of the attr scopes open now (EsAttrScopePush*).
 */
ES_C_API EsTensorHolder *EsCreateNode(EsGraphBuilder *builder, const char *op_type, int64_t ir_input_num,
                                     const char *const *input_names, const int32_t *input_kinds,
                                     const int64_t *input_counts, EsTensorHolder *const *inputs, int64_t output_num,
                                     const char *const *output_names);
/** The holder of output `index` of the node that produced `holder`. */
ES_C_API EsTensorHolder *EsNodeOutput(EsTensorHolder *holder, int64_t index);
ES_C_API EsGraphBuilder *EsHolderBuilder(const EsTensorHolder *holder);

/** Output description of the holder's tensor. */
ES_C_API int32_t EsSetShape(EsTensorHolder *holder, const int64_t *dims, int64_t dim_num);
ES_C_API int32_t EsSetFormat(EsTensorHolder *holder, int32_t format);
ES_C_API int32_t EsSetDataType(EsTensorHolder *holder, int32_t dtype);

/** Attributes of the node that produced the holder. */
ES_C_API int32_t EsSetNodeAttrBool(EsTensorHolder *holder, const char *name, int32_t value);
ES_C_API int32_t EsSetNodeAttrInt(EsTensorHolder *holder, const char *name, int64_t value);
ES_C_API int32_t EsSetNodeAttrFloat(EsTensorHolder *holder, const char *name, float value);
ES_C_API int32_t EsSetNodeAttrString(EsTensorHolder *holder, const char *name, const char *value);
ES_C_API int32_t EsSetNodeAttrDataType(EsTensorHolder *holder, const char *name, int32_t dtype);
ES_C_API int32_t EsSetNodeAttrListInt(EsTensorHolder *holder, const char *name, const int64_t *values, int64_t n);

/** Attribute scopes (thread-local stack): every node created while a scope is open gets its attributes. */
ES_C_API void EsAttrScopePush(void);
ES_C_API int32_t EsAttrScopeSetBool(const char *name, int32_t value);
ES_C_API int32_t EsAttrScopeSetInt(const char *name, int64_t value);
ES_C_API int32_t EsAttrScopeSetFloat(const char *name, float value);
ES_C_API int32_t EsAttrScopeSetString(const char *name, const char *value);
ES_C_API int32_t EsAttrScopePop(void);

/** Graph output `index` (0-based, each once) is the holder's tensor. */
ES_C_API int32_t EsSetGraphOutput(EsTensorHolder *holder, int64_t index);
/** The graph of the nodes built so far; the builder is emptied. Needs at least one output, indices 0..n-1. */
ES_C_API EsGraph *EsBuildGraphAndReset(EsGraphBuilder *builder);

ES_C_API void EsDestroyGraph(EsGraph *graph);
ES_C_API EsGraph *EsCopyGraph(const EsGraph *graph);
/** The ge::Graph inside (a `ge::Graph *`), for C++ callers such as ge.session's native module. */
ES_C_API void *EsGraphNative(EsGraph *graph);
/** Writes / reads AIR (ge::Graph::SaveToFile / LoadFromFile). */
ES_C_API int32_t EsGraphSaveToAir(const EsGraph *graph, const char *path);
ES_C_API EsGraph *EsGraphLoadFromAir(const char *path);
/** The graph's name (valid while the graph lives). */
ES_C_API const char *EsGraphName(const EsGraph *graph);

#ifdef __cplusplus
}
#endif

#endif  // OPENATC_GE_ES_GRAPH_BUILDER_C_H_
