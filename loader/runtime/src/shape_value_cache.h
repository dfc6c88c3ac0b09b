// ShapeValueCache: the outputs of a dynamic model's shape arithmetic, kept from one run to the next
// (internal to the runtime).
//
// A model exported with a run-time dim (a batch of -1) computes the target shapes of its Reshapes
// at run time, with chains such as Shape -> Gather -> Unsqueeze -> Concat -> Reshape: 20 of
// ezkl-multihead-attention's 64 nodes, each inferring its shapes and running on every run, though
// their values change only when a shape they read changes. As TensorRT computes its shape tensors
// once when the input shapes are set, a run here reuses such a node's outputs from the run that
// kept them while the shapes it depends on are the same.
//
// Marked nodes (at load, in graph order): a node whose op type its deliverable declares pure
// (OpenAtcDeliverablePureOps, include/graph/custom_op_pull_registry.h) and that is either a Shape
// or Size (a root: it reads its input's shape alone) or has every connected input from a
// constant or a marked node, one at least from a marked node. A marked node's outputs are then a
// function of the dims its roots read. Not marked: nodes that feed a graph output, have a slot in
// the static memory plan or have their outputs rounded (precision.h).
//
// At run time each root compares the dims it reads with the last ones it read; a change gives the
// root a new version. A marked node's outputs (each at most kMaxBytes) are copied after it runs,
// with the versions of its roots; a later run binds the copies instead of running the node while
// those versions are current. Consumers only read them, as they read weights.
#ifndef OPENATC_RUNTIME_SHAPE_VALUE_CACHE_H_
#define OPENATC_RUNTIME_SHAPE_VALUE_CACHE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "exe_graph/runtime/runtime_tensor.h"
#include "exec_services.h"
#include "openatc/ir/graph.h"

namespace openatc::runtime {

class ShapeValueCache {
 public:
  /// Largest output kept (bytes); a node with a larger output runs on every run. Large enough for
  /// the causal masks attention graphs slice to the sequence length (ezkl-self-attention's
  /// [1, 1, 64, 64] float32, 16 KiB).
  static constexpr size_t kMaxBytes = size_t{64} << 10;

  /// One kept output: what the tensor its consumers read is made of.
  struct Output {
    ge::DataType dtype = ge::DT_UNDEFINED;
    gert::StorageShape shape;
    gert::StorageFormat format;
    gert::TensorPlacement placement = gert::kOnHost;
    std::shared_ptr<HostBuffer> storage;
    size_t bytes = 0;
  };

  /// At load: marks the nodes of `g` (see above). `pure[i]`: node i's op is declared pure and
  /// nothing else rules it out.
  void Mark(const ir::Graph &g, const std::vector<bool> &pure);

  bool marked(size_t i) const { return i < nodes_.size() && nodes_[i].marked; }
  bool is_root(size_t i) const { return i < nodes_.size() && nodes_[i].root >= 0; }
  /// Marked nodes (for messages and tests).
  size_t marked_count() const { return marked_count_; }
  /// Node runs that bound kept outputs instead of running, since load (read from any thread).
  size_t reused() const { return reused_.load(std::memory_order_relaxed); }

  /// The dims a root reads from its input (storage and origin shape).
  static std::vector<int64_t> DimsOf(const gert::Tensor &input);

  /// Before marked node i runs (`read`: DimsOf its input for a root, else empty): its kept
  /// outputs when they are still its outputs, else null (run it, then Keep).
  const std::vector<Output> *Find(size_t i, const std::vector<int64_t> &read);
  /// After marked node i ran: records what a root read, and copies the node's outputs (null: an
  /// output it did not produce; then nothing is kept).
  void Keep(size_t i, const std::vector<int64_t> &read, const std::vector<const gert::Tensor *> &outputs);

 private:
  struct Root {
    bool seen = false;
    std::vector<int64_t> dims;
    uint64_t version = 0;
  };
  struct Node {
    bool marked = false;
    int32_t root = -1;               ///< its index in roots_ when it is a Shape or Size
    std::vector<uint32_t> roots;     ///< the roots its value depends on
    std::vector<uint64_t> versions;  ///< their versions when `kept` was copied
    std::vector<Output> kept;        ///< empty: nothing kept
  };
  bool Current(const Node &n) const;

  std::vector<Node> nodes_;
  std::vector<Root> roots_;
  uint64_t next_version_ = 0;
  size_t marked_count_ = 0;
  std::atomic<size_t> reused_{0};
};

}  // namespace openatc::runtime

#endif  // OPENATC_RUNTIME_SHAPE_VALUE_CACHE_H_
