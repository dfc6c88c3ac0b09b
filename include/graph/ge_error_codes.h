/** @file graph/ge_error_codes.h  Deprecated alias of graph/error_codes.h, kept as GE keeps it. */
#ifndef OPENATC_GRAPH_GE_ERROR_CODES_H_
#define OPENATC_GRAPH_GE_ERROR_CODES_H_
#include "graph/error_codes.h"
#endif
