/**
 * @file openatc/compiler/compiler.h
 * The compiler pipeline (docs/architecture.md "Data flow"): checks -> topological order ->
 * InferDataType / InferShape -> Compile per node (op types in parallel, nodes of one type serially
 * on their shared object) -> Serialize once per op type -> an om::Model ready to be written.
 */
#ifndef OPENATC_COMPILER_COMPILER_H_
#define OPENATC_COMPILER_COMPILER_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "openatc/common/target.h"
#include "openatc/ir/framework_ops.h"
#include "openatc/ir/graph.h"
#include "openatc/om/model.h"
#include "openatc/opp/deliverable.h"
#include "openatc/rt/runtime.h"

namespace openatc::compiler {

/// One `--input_shape` entry: the Data node name and its dims (-1 unknown; empty = scalar).
struct InputShape {
  std::string name;
  std::vector<int64_t> dims;
};

struct CompileOptions {
  /// What to compile for (openatc/common/target.h: decided once by ResolveTarget). CompileGraph
  /// gives it to Compile's platform facts and to the RTC (openatc::rt::SetCompileTarget), and
  /// records it in the OM.
  openatc::Target target = openatc::HostTarget();
  std::vector<InputShape> input_shapes;
  /// `ge.*` option keys visible to OpCompileContext::GetOption.
  std::map<std::string, std::string> ge_options;
  /// Flags recorded in the OM's build record.
  std::map<std::string, std::string> build_record;
  /// Worker threads for compiling different op types in parallel (0 = hardware threads).
  unsigned jobs = 0;
  /// File name for error messages.
  std::string model_path;
  /// In-process compile for ge::Session (libge_runner, GE's online flow): the model stays in
  /// memory and runs on the op objects that compiled it, so a CompilableOp needs no PortableOp,
  /// Serialize is not called (artifacts carry no payload) and no deliverable is embedded (an op
  /// type may be registered by the program itself).
  bool online = false;
  /// Compile-time constant folding of built-in ops (FoldOptions) followed by RemoveDeadNodes; on
  /// by default, as in GE. Also off when ge_options has "ge.oo.constantFolding" = "false" (atc
  /// --oo_constant_folding=false); "ge.oo.deadCodeElimination" = "false" keeps dead nodes.
  bool fold_constants = true;
  /// The op compile cache the RTC uses in the ops' Compile (atc --op_compiler_cache_mode; set with
  /// the target through openatc::rt::SetKernelCache). Disabled by default, as in ATC.
  rt::KernelCacheConfig kernel_cache;
  /// The graph passes (passes/passes.h: fusion, layout planning) and the precision mode
  /// (passes/precision.h) run; off for the graph ATC saves with --save_original_model (after
  /// parse, shape inference, AIPP and gears, before optimisation). --output_type and
  /// --input_fp16_nodes still apply, so both OMs take and give the same tensors.
  bool optimise = true;
};

/// Runs the whole pipeline on `graph` (consumed). Throws openatc::Error naming the file, node and
/// op type on any failure; nothing is written here.
om::Model CompileGraph(ir::Graph graph, const CompileOptions &options, const opp::CompileOppSet &opp);

// The passes, exposed for tests and for the pre-check mode.

/// Reorders graph.nodes topologically (stable: ties keep file order) and rewrites every index.
/// Throws kGraph naming a node on a cycle.
void TopologicalSort(ir::Graph &graph);
/// Applies --input_shape overrides to Data nodes after checking all of them: a name that is not
/// a Data node is kUsage E10001 listing the inputs; a rank other than the Data node's declared
/// rank is kUsage E10001 naming the node and both shapes (a declared unknown rank [-2], or no
/// desc, accepts any); a fixed dim replacing a different fixed dim is a warning.
void ApplyInputShapes(ir::Graph &graph, const std::vector<InputShape> &shapes);
/// Compile-time constant folding (constant_folding.cc; GE folds its own built-in ops, never custom
/// ops). A node of a type in `op_types` is replaced by a Const holding its output when every input
/// is a Const, or when it is Shape/Size over a static shape, and its single output is at most
/// `small_bytes`, no larger than the Const inputs it reads, or at most `weight_bytes` when every
/// consumer takes it as a weight (Conv/ConvTranspose W and B, Gemm B and C, MatMul B,
/// BatchNormalization's parameters: a Const there is packed or folded at compile time, as an
/// initializer would be). Failures leave the node as it is.
struct FoldOptions {
  std::set<std::string> op_types;  ///< foldable types: those the built-in OPP package provides
  size_t small_bytes = 64 * 1024;  ///< outputs up to this size always fold (bytes)
  size_t weight_bytes = size_t{256} << 20;  ///< outputs used only as weights fold up to this size
  /// Python op types with a HOST execute (also in op_types): an error in their execute stops atc.
  std::set<std::string> python_types;
};
/// The op types provided by the deliverables under opp.builtin_root() (and not registered first
/// by a custom root); empty when there is no built-in root.
FoldOptions BuiltinFoldOptions(const opp::CompileOppSet &opp);
/// Fills every node's input and output descriptors in topological order. With `fold`, a node that
/// can be folded is turned into a Const right after its own inference, so later nodes see values.
void InferShapes(ir::Graph &graph, const FoldOptions *fold = nullptr);
/// Removes the nodes that feed no graph output, NetOutput, Data or non-removable node: Consts and
/// nodes whose type is in `removable_types` (never Data, NetOutput or other ops). Indices of
/// inputs, control inputs, graph inputs and outputs are renumbered; order is kept. Returns the
/// number of nodes removed.
size_t RemoveDeadNodes(ir::Graph &graph, const std::set<std::string> &removable_types);
/// Plans the arena of a static graph (every custom-op output shape known): sets
/// NodePlan::output_offsets on every non-framework node (-1 = not in the arena) and
/// Graph::arena_bytes, and returns the arena size in bytes; returns -1 (and writes nothing) for a
/// graph with run-time shapes. Graph outputs are not planned: they are bound to the caller's
/// buffers. `reuse` false (--disable_reuse_memory=1): no two tensors share bytes.
/// `addend_in_place`: a built-in Conv with a fused residual Add may write into its addend's bytes
/// (openatc/addend_in_place.h; only with reuse).
int64_t PlanMemory(ir::Graph &graph, bool reuse = true, bool addend_in_place = false);

/// Up to three of `candidates` close to `name` (case-insensitive edit distance), closest first.
std::vector<std::string> ClosestNames(const std::string &name, const std::vector<std::string> &candidates);

/// True for the node types with built-in meaning (Data, Const, Constant, NetOutput).
using ir::IsFrameworkOp;

}  // namespace openatc::compiler

#endif  // OPENATC_COMPILER_COMPILER_H_
