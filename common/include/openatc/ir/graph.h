/**
 * @file openatc/ir/graph.h
 * The in-memory graph that every front end produces, that the compiler passes annotate, that the
 * OM stores, and that the runtime executes. It mirrors ge.proto.GraphDef (docs/ge-ir.md)
 * closely enough that the GE conventions carry over: `Data` nodes with an `index` attr,
 * `Const` nodes whose `value` attr holds the weights, and graph outputs as (node, output index).
 *
 * Shapes: a dim of -1 is unknown, a single dim -2 means unknown rank, an empty shape is a scalar.
 * Node order is the order of the source file until the topological-sort pass reorders it.
 */
#ifndef OPENATC_IR_GRAPH_H_
#define OPENATC_IR_GRAPH_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/types.h"

namespace openatc::ir {

/// A read-only byte range that keeps its backing store alive (an owned vector or a mapped file).
struct Bytes {
  const uint8_t *data = nullptr;
  size_t size = 0;
  std::shared_ptr<const void> owner;

  static Bytes Copy(const void *data, size_t size);
  static Bytes FromVector(std::vector<uint8_t> v);
  bool empty() const { return size == 0; }
};

/// What a value holds (ONNX TypeProto kinds): a dense tensor (the default), a sequence of tensors,
/// or an optional of either. For the non-tensor kinds `dtype`/`shape` describe the elements.
enum class ValueKind : uint8_t { kTensor = 0, kSequence = 1, kOptionalTensor = 2, kOptionalSequence = 3 };

struct TensorDesc {
  std::string name;                          ///< anchor name from the prototype, if known
  ge::DataType dtype = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;         ///< storage format
  ge::Format origin_format = ge::FORMAT_ND;
  std::vector<int64_t> shape;                ///< storage shape
  std::vector<int64_t> origin_shape;         ///< GE's origin shape; equal to `shape` unless set
  bool valid = true;                         ///< false for an absent optional input
  ValueKind value_kind = ValueKind::kTensor;
};

/// A constant tensor: a descriptor and its little-endian bytes.
struct ConstTensor {
  TensorDesc desc;
  Bytes data;
};

enum class AttrKind : uint8_t {
  kNone = 0, kInt, kFloat, kBool, kString, kBytes, kDataType, kTensor,
  kListInt, kListFloat, kListBool, kListString, kListDataType, kListListInt,
  kGraph, kListGraph,
};

struct Graph;

/// One attribute value (ge.proto.AttrDef restricted to what operators read at compile and run
/// time). Exactly the member named by `kind` is meaningful.
struct AttrValue {
  AttrKind kind = AttrKind::kNone;
  int64_t i = 0;
  float f = 0.0f;
  bool b = false;
  std::string s;                     ///< kString and kBytes
  ge::DataType dt = ge::DT_UNDEFINED;
  std::shared_ptr<ConstTensor> t;    ///< kTensor
  std::vector<int64_t> list_i;       ///< kListInt, kListDataType (as ints)
  std::vector<float> list_f;
  std::vector<uint8_t> list_b;       ///< kListBool as 0/1
  std::vector<std::string> list_s;
  std::vector<std::vector<int64_t>> list_list_i;
  /// kGraph / kListGraph: subgraphs (If branches, Loop/Scan/SequenceMap bodies). A subgraph is
  /// self-contained: its Data nodes are the body's formal inputs followed by the outer-scope
  /// values it reads, which the owning node takes as extra inputs after its own (attr
  /// "openatc_captures" counts them; openatc/ir/control_flow.h).
  std::shared_ptr<Graph> g;
  std::vector<std::shared_ptr<Graph>> list_g;
};

/// An edge end: output `index` of node `node` (an index into Graph::nodes). node == -1 means
/// unconnected (a `Data` node's own input, an absent optional input).
struct Endpoint {
  int32_t node = -1;
  int32_t index = 0;
  bool connected() const { return node >= 0; }
  bool operator==(const Endpoint &o) const { return node == o.node && index == o.index; }
};

/// One argument slot of a declared launch (ge::AddrType `addr_type`: INPUT_INSTANCE,
/// OUTPUT_INSTANCE and WORKSPACE take the address of input/output/workspace `index` at run time;
/// CUSTOM_VALUE passes `value` itself).
struct LaunchSlot {
  uint32_t addr_type = 0;
  int32_t index = 0;
  uint64_t value = 0;
};

/// A kernel launch an AnnotatedArgsOp declared at compile time: its kernel binary (what
/// aclrtBinaryLoadFromData loads), the entry name, block_dim and the argument slots in order.
struct DeclaredLaunch {
  std::string kernel_name;
  Bytes binary;
  uint32_t block_dim = 0;
  std::vector<LaunchSlot> slots;
};

/// What the compiler planned for a node and the runtime executes as planned (OM `NodePlan`).
struct NodePlan {
  /// Arena offset of each output, -1 for an output outside the arena (a graph output bound to
  /// the caller's buffer); empty when the node has no plan (framework nodes, run-time shapes).
  std::vector<int64_t> output_offsets;
  std::vector<DeclaredLaunch> launches;   ///< AnnotatedArgsOp nodes of a static graph only
  std::vector<int64_t> workspace_bytes;   ///< size of each workspace the launches address
  bool empty() const { return output_offsets.empty() && launches.empty() && workspace_bytes.empty(); }
};

/// A constant input pre-packed at compile time for a CPU kernel (OM 1.3 `PackedWeight`). The
/// input's Const keeps its plain bytes: a loader whose CPU differs (isa or layout) repacks those.
struct PackedWeight {
  int32_t input = 0;   ///< the node input anchor whose Const it packs
  std::string isa;     ///< CPU instruction set it was packed for (e.g. "avx2")
  std::string layout;  ///< the packed layout as text, compared by the op, never parsed
  Bytes data;          ///< the packed bytes
};

struct Node {
  std::string name;
  std::string type;
  std::vector<Endpoint> inputs;             ///< one per input anchor, in anchor order
  std::vector<int32_t> control_inputs;      ///< nodes that must run first
  std::vector<TensorDesc> input_descs;      ///< same length as inputs
  std::vector<TensorDesc> output_descs;     ///< one per output anchor
  std::map<std::string, AttrValue> attrs;   ///< sorted, so serialisation is deterministic
  NodePlan plan;                            ///< set by the compiler's planning passes
  std::vector<PackedWeight> packed_weights;  ///< set by atc's weight pre-packing (compile_graph.cc)
};

struct Graph {
  std::string name;
  std::vector<Node> nodes;
  /// Model inputs: indices of the `Data` nodes, ordered by their `index` attr.
  std::vector<int32_t> inputs;
  /// Model outputs in order (what NetOutput consumes). The NetOutput node itself, if any, is
  /// kept in `nodes` with these as its inputs.
  std::vector<Endpoint> outputs;
  /// Bytes of the static memory plan's arena (every NodePlan::output_offsets entry lies inside);
  /// -1 when the graph has no static plan (shapes known only at run time).
  int64_t arena_bytes = -1;

  int32_t FindNode(const std::string &name) const;  ///< -1 if absent
};

/// Op types with built-in meaning (GE `base/common/types.cc`).
inline constexpr const char *kData = "Data";
inline constexpr const char *kConst = "Const";
inline constexpr const char *kConstant = "Constant";
inline constexpr const char *kNetOutput = "NetOutput";

}  // namespace openatc::ir

#endif  // OPENATC_IR_GRAPH_H_
