/** @file exe_graph/runtime/tensor.h  Deprecated alias of runtime_tensor.h, kept as GE keeps it. */
#ifndef OPENATC_EXE_GRAPH_RUNTIME_TENSOR_H_
#define OPENATC_EXE_GRAPH_RUNTIME_TENSOR_H_
#include "exe_graph/runtime/runtime_tensor.h"
#endif
