/**
 * @file graph/utils/args_format_desc_utils.h
 * ge::ArgDesc: the role of one 8-byte kernel argument slot declared through
 * gert::AnnotatedKernelArgs (values of GE's AddrType enum).
 */
#ifndef OPENATC_GRAPH_UTILS_ARGS_FORMAT_DESC_UTILS_H_
#define OPENATC_GRAPH_UTILS_ARGS_FORMAT_DESC_UTILS_H_

#include <cstdint>

namespace ge {
enum class AddrType {
  INPUT = 0, OUTPUT, WORKSPACE, TILING, INPUT_DESC, OUTPUT_DESC, FFTS_ADDR, OVERFLOW_ADDR, TILING_FFTS,
  HIDDEN_INPUT, TILING_CONTEXT, OP_TYPE, PLACEHOLDER, CUSTOM_VALUE, INPUT_INSTANCE, OUTPUT_INSTANCE,
  SUPER_KERNEL_SUB_NODE, EVENT_ADDR, MAX
};

/// One slot: INPUT_INSTANCE / OUTPUT_INSTANCE / WORKSPACE with ir_idx = the slot's index, or
/// CUSTOM_VALUE with the 8-byte value in `reserved`.
struct ArgDesc {
  AddrType addr_type;
  int32_t ir_idx;
  bool folded;
  uint8_t reserved[8];
};
}  // namespace ge

#endif  // OPENATC_GRAPH_UTILS_ARGS_FORMAT_DESC_UTILS_H_
