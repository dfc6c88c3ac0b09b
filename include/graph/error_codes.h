/**
 * @file graph/error_codes.h
 * graphStatus and its values, as GE defines them (metadef `graph/error_codes.h`).
 */
#ifndef OPENATC_GRAPH_ERROR_CODES_H_
#define OPENATC_GRAPH_ERROR_CODES_H_

#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_NOT_CHANGED = 1343242304;
const graphStatus GRAPH_PARAM_INVALID = 50331649;
const graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
const graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
const graphStatus GRAPH_INVALID_IR_DEF = 50331646;
const graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
const graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;
const graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539;
const graphStatus GRAPH_NULL_PTR = 50331538;
const graphStatus GRAPH_MEMCPY_FAILED = 50331537;
const graphStatus GRAPH_MEMSET_FAILED = 50331536;
const graphStatus GRAPH_MATH_CAL_FAILED = 50331429;
const graphStatus GRAPH_ADD_OVERFLOW = 50331428;
const graphStatus GRAPH_MUL_OVERFLOW = 50331427;
const graphStatus GRAPH_RoundUp_Overflow = 50331426;
}  // namespace ge

#endif  // OPENATC_GRAPH_ERROR_CODES_H_
