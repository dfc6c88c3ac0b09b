// Precision modes on the host (atc --precision_mode / --precision_mode_v2 / --keep_dtype /
// --modify_mixlist): which built-in nodes run in a reduced float type, as ATC's op dtype
// selection would choose for the chip, and how the host reproduces it exactly:
//  - a reduced node's float32 inputs hold float16 (bfloat16) values: a Const feeding it is
//    rounded at compile time, any other float32 producer gets a Cast pair (to the reduced type
//    and back, named <producer>/to_<type> and <producer>/from_<type>, attr openatc_precision_cast)
//    shared by its reduced consumers;
//  - it computes in float32 (the chip's cube and vector units accumulate wider than they store)
//    and its float32 outputs are rounded to the reduced type when it stores them in that type:
//    attr openatc_output_dtype, applied by the runtime after the node runs
//    (loader/runtime/src/executor.cc);
//  - attr openatc_compute_dtype records the type it runs in: the OM's record of each tensor's
//    effective dtype (absent = the descriptor's dtype).
// HF32 (--allow_hf32, --op_precision_mode enable_hi_float_32_execution): a float32 Conv/MatMul
// reads its two matrix operands (inputs 0 and 1; not a bias or a fused addend) as HF32 and stores
// float32: Consts rounded at compile time, other producers through one Identity
// <producer>/hfloat32 whose openatc_output_dtype is hfloat32; openatc_compute_dtype "hfloat32".
// Model inputs and outputs keep their dtypes (ATC's Cast insertion at the graph edges).
#ifndef OPENATC_COMPILER_PASSES_PRECISION_H_
#define OPENATC_COMPILER_PASSES_PRECISION_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "openatc/ir/graph.h"

namespace openatc::compiler::passes {

struct PrecisionConfig {
  /// An ATC --precision_mode value (precision_mode_v2 mapped to it); must_keep_origin_dtype
  /// changes nothing.
  std::string mode = "must_keep_origin_dtype";
  std::set<std::string> keep_types;  ///< --keep_dtype "OpType::X" entries
  std::set<std::string> keep_names;  ///< --keep_dtype node names (original names of fused nodes too)
  std::set<std::string> white, black;  ///< mixed modes: the op lists after --modify_mixlist
  /// --op_precision_mode entries that change numbers on the host: node name / op type ->
  /// enable_float_32_execution (the op keeps float32: no precision mode, no HF32) or
  /// enable_hi_float_32_execution (the op's float32 operands are read as HF32). Both beat the
  /// precision mode for that op. Precedence (ATC's): by name, then --allow_hf32, then by type.
  std::map<std::string, std::string> exec_by_name, exec_by_type;
  /// --allow_hf32: "true" (float32 Conv/MatMul ops that the precision mode left in float32 read
  /// HF32 operands), "false", or "" (not given: nothing changes on the host).
  std::string allow_hf32;
};

/// The op types --allow_hf32 acts on: Conv and MatMul classes (Conv, Conv2D, ConvTranspose,
/// MatMul, MatMulV2, BatchMatMul, BatchMatMulV2, Gemm).
const std::set<std::string> &Hf32OpTypes();

/// The config from the GE options atc sets (ge.exec.precision_mode, ge.exec.precision_mode_v2,
/// keep_dtype, ge.exec.modify_mixlist, ge.exec.op_precision_mode, ge.exec.allow_hf32; the files
/// were validated by atc/cli/src/config_files.cc). A mode the host cannot reproduce (cube_hif8,
/// mixed_hif8: hifloat8) is E10001. An --op_precision_mode entry whose mode selects a kernel
/// implementation (high_precision, high_performance, support_out_of_bound_index, keep_fp16,
/// super_performance) is warned about once per mode: the built-in kernels have one implementation.
PrecisionConfig PrecisionConfigFromOptions(const std::map<std::string, std::string> &ge_options);

/// The built-in mixed-precision lists (our own, per op family; GE's per-op ops-info flags are not
/// public): white runs reduced, black keeps its dtype, every other op follows its producers.
const std::set<std::string> &DefaultWhiteList();
const std::set<std::string> &DefaultBlackList();

/// Applies `config` to a topologically sorted graph with inferred descriptors (after the fusion
/// passes); only built-in op types are touched. Returns the number of reduced nodes; logs one
/// info line with the mode and that count.
size_t ApplyPrecision(ir::Graph &graph, const PrecisionConfig &config, const std::set<std::string> &builtin);

/// --input_fp16_nodes (ge.INPUT_NODES_SET_FP16) and --output_type (ge.outputDatatype), before
/// ApplyPrecision (io_dtypes.cc says how). Names that are not Data nodes: E10016 / E10017.
void ApplyIoDtypes(ir::Graph &graph, const std::map<std::string, std::string> &ge_options,
                   const std::set<std::string> &builtin);

}  // namespace openatc::compiler::passes

#endif  // OPENATC_COMPILER_PASSES_PRECISION_H_
