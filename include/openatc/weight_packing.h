/**
 * @file openatc/weight_packing.h
 * OpenATC's own op capability beyond GE's API (built-in ops use it; nothing in GE's samples
 * does): weights pre-packed into the OM at compile time, and per-node state made once at load.
 *
 * Compile time: atc calls PackWeights once per node of a built-in op type, after its graph
 * passes, on a context whose constant inputs hold their data (other inputs: descriptors only).
 * The op hands each packed copy of a constant input to the sink; atc stores it in the OM next
 * to the plain weights (OM 1.3 `PackedWeight`).
 *
 * Load time: the runtime calls PrepareNode once per node of a static model on the same kind of
 * context (constant inputs with data) with the packed copies the OM holds for the node. The op
 * checks each copy against what it would make on this CPU (ISA and layout text equal, size
 * equal) and uses it, or repacks from the plain weights: a copy made on another CPU is never
 * used. It may return a state object; Execute then reads it with NodeState(ctx) without any
 * lookup or lock. Contexts are valid only during the call; the packed bytes stay valid as long as
 * the loaded model (they may be views into the mapped OM: read-only).
 *
 * Run time, models with run-time shapes: nothing is prepared at load; before a node's Execute
 * the runtime calls PrepareNode on the same kind of context, its inputs described with this run's
 * shapes and dtypes (constant inputs with data, others without), when the node was not yet
 * prepared for those input shapes; the runtime keeps the states of the node's last few distinct
 * input shapes (loader/runtime/src/model_impl.h). Execute must still check that the state fits.
 *
 * Threads: PrepareNode runs on the loading thread, one node at a time, or (run-time shapes) on the
 * thread running the model, under the model's one-run-at-a-time lock. The state is owned by the
 * runtime (released with the loaded model, or when replaced) and shared by the runs of that node,
 * which never overlap: Execute may update objects the state holds for its own use (the built-in
 * MatMul points its oneDNN memory objects at each run's buffers, ops/common/matmul_prepared.h).
 */
#ifndef OPENATC_WEIGHT_PACKING_H_
#define OPENATC_WEIGHT_PACKING_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "graph/custom_op.h"
#include "exe_graph/runtime/eager_op_execution_context.h"

namespace openatc {

/// Receives packed copies at compile time. `input`: the node's input index (IR order as the
/// context's GetInputTensor flattening, = the node input anchor for ops without dynamic inputs);
/// `isa`, `layout`: NUL-terminated text (see PackedWeightView); `data`/`size`: the bytes (copied).
class PackedWeightSink {
 public:
  virtual ~PackedWeightSink() = default;
  virtual void Add(int32_t input, const char *isa, const char *layout, const void *data, size_t size) = 0;
};

/// One packed copy as the OM holds it (load time). `isa` and `layout` are NUL-terminated; they
/// come from an untrusted file: compare them, never parse them.
struct PackedWeightView {
  int32_t input = 0;
  const char *isa = "";
  const char *layout = "";
  const uint8_t *data = nullptr;
  size_t size = 0;
};

class WeightPackingOp : virtual public ge::BaseCustomOp {
 public:
  ~WeightPackingOp() override = default;
  /// Compile time (see the file comment). GRAPH_SUCCESS with nothing added: nothing to pack.
  virtual ge::graphStatus PackWeights(gert::EagerOpExecutionContext *ctx, PackedWeightSink &sink) = 0;
  /// Compile time: NUL-terminated text naming everything besides the node (op type, attributes,
  /// input and output descriptors, constant input bytes) and the op's library that the copies
  /// PackWeights makes in this process depend on, e.g. the ISA the packing library dispatches to
  /// on this CPU, that library's version, the thread count. atc's op compile cache keys on it,
  /// so a stored copy is reused only where PackWeights would make the same bytes. nullptr or ""
  /// (the default): this op's copies are never cached. Valid until the next call on the object.
  virtual const char *PackingEnvironment() { return ""; }
  /// Load time (see the file comment). `*state` may stay null (Execute then works as without it).
  virtual ge::graphStatus PrepareNode(gert::EagerOpExecutionContext *ctx, const PackedWeightView *packed,
                                      size_t count, std::shared_ptr<void> *state) = 0;
};

/// The state PrepareNode made for the node `ctx` runs (nullptr when none, or outside the runtime).
void *NodeState(const gert::ExtendedKernelContext *ctx);

}  // namespace openatc

#endif  // OPENATC_WEIGHT_PACKING_H_
