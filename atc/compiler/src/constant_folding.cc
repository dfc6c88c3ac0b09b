// Compile-time constant folding of built-in ops (issue 5): a built-in node whose inputs are all
// Consts (or a Shape/Size over a static shape) is run once on the host with its own
// EagerExecuteOp::Execute and replaced by a Const, so that later InferShape calls see the value
// (a Reshape fed by Shape -> Gather -> Unsqueeze -> Concat gets a static output shape and the
// model a static memory plan). GE folds its own built-in ops the same way and never custom ops,
// which may have side effects. Afterwards RemoveDeadNodes drops what no longer feeds anything.
#include "constant_folding.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <set>

#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/gert/node_frame.h"
#include "openatc/opp/call_guard.h"

namespace openatc::compiler {
namespace {

// Scratch memory (inputs of Shape/Size, workspaces) is capped: folding is an optimisation and
// must never make the compiler allocate without bound.
constexpr size_t kMaxScratchBytes = size_t{256} << 20;

struct FreeDeleter {
  void operator()(void *p) const { std::free(p); }
};
using HostBlock = std::unique_ptr<uint8_t, FreeDeleter>;

// Zero-filled, 64-byte-aligned host memory (nullptr when it cannot be allocated).
HostBlock ZeroBlock(size_t bytes) {
  const size_t rounded = (bytes + 63) / 64 * 64 + 64;
  void *p = std::aligned_alloc(64, rounded);
  if (p != nullptr) std::memset(p, 0, rounded);
  return HostBlock(static_cast<uint8_t *>(p));
}

// Ops whose result is not a function of their inputs (a fresh random draw per run).
bool Nondeterministic(const std::string &type) {
  return type == "Dropout" || type == "RandomNormal" || type == "RandomUniform" || type == "RandomNormalLike" ||
         type == "RandomUniformLike" || type == "Multinomial" || type == "Bernoulli";
}

bool StaticShape(const std::vector<int64_t> &dims) { return ShapeElementCount(dims) >= 0; }

// Bytes of a tensor of `desc`'s shape and dtype; -1 when unknown, sub-byte or a string.
int64_t TensorBytes(const ir::TensorDesc &desc) {
  const int64_t n = ShapeElementCount(desc.shape);
  const size_t size = DataTypeSize(desc.dtype);
  if (n < 0 || size == 0 || n > INT64_MAX / static_cast<int64_t>(size)) return -1;
  return n * static_cast<int64_t>(size);
}

// The value of a Const producer with enough bytes for its descriptor, else nullptr.
const ir::ConstTensor *ConstInput(const ir::Graph &g, const ir::Endpoint &e) {
  const ir::Node &p = g.nodes[static_cast<size_t>(e.node)];
  if (p.type != ir::kConst && p.type != ir::kConstant) return nullptr;
  auto it = p.attrs.find("value");
  if (it == p.attrs.end() || it->second.kind != ir::AttrKind::kTensor || !it->second.t) return nullptr;
  const int64_t bytes = TensorBytes(it->second.t->desc);
  if (bytes < 0 || it->second.t->data.size < static_cast<size_t>(bytes)) return nullptr;
  return it->second.t.get();
}

// What Execute may ask of its context at compile time: output and workspace memory on the host,
// outputs capped at the size guard. Everything else keeps the "not available" defaults.
class FoldServices : public gert_impl::Services {
 public:
  explicit FoldServices(size_t output_limit) : output_limit_(output_limit) {}

  gert::Tensor *MallocOutputTensor(gert_impl::Frame &f, size_t index, const gert::StorageShape &shape,
                                   const gert::StorageFormat &format, ge::DataType dtype) override {
    if (index >= f.outputs.size()) return nullptr;
    const int64_t count = shape.GetStorageShape().GetShapeSize();
    const size_t size = DataTypeSize(dtype);
    if (count < 0 || size == 0 || static_cast<uint64_t>(count) > output_limit_ / size) {
      LogDebug("constant folding of '" + f.node->name + "': output " + std::to_string(index) +
               " is unknown or larger than the size guard (" + std::to_string(output_limit_) + " bytes)");
      return nullptr;
    }
    const size_t bytes = static_cast<size_t>(count) * size;
    if (outputs_.size() < f.outputs.size()) outputs_.resize(f.outputs.size());
    outputs_[index] = ZeroBlock(bytes);
    if (!outputs_[index]) return nullptr;
    gert_impl::BindOutputTensor(*f.outputs[index], shape, format, dtype, outputs_[index].get(), bytes);
    return f.outputs[index];
  }
  void *MallocWorkSpace(gert_impl::Frame &, size_t size) override {
    if (size > kMaxScratchBytes) return nullptr;
    scratch_.push_back(ZeroBlock(size));
    return scratch_.back().get();
  }
  // Memory of output `index` (null when Execute did not allocate it here).
  const uint8_t *output(size_t index) const { return index < outputs_.size() ? outputs_[index].get() : nullptr; }

 private:
  size_t output_limit_;
  std::vector<HostBlock> outputs_;
  std::vector<HostBlock> scratch_;
};

// Why `node` cannot be folded ("" when it can be tried), and the bytes of its Const inputs.
std::string FoldBlocker(const ir::Graph &g, const ir::Node &node, const FoldOptions &options, size_t *const_bytes) {
  if (IsFrameworkOp(node.type) || options.op_types.count(node.type) == 0) return "not a built-in op";
  if (Nondeterministic(node.type)) return "nondeterministic";
  if (node.output_descs.size() != 1) return "not single-output";
  const bool shape_only = node.type == "Shape" || node.type == "Size";
  size_t connected = 0;
  *const_bytes = 0;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (!node.inputs[i].connected()) continue;
    ++connected;
    if (const ir::ConstTensor *cv = ConstInput(g, node.inputs[i])) {
      *const_bytes += cv->data.size;
    } else if (!shape_only) {
      return "input " + std::to_string(i) + " is not a Const";
    } else if (!StaticShape(node.input_descs[i].shape)) {
      return "the input shape is not static";
    }
  }
  if (connected == 0) return "no inputs";
  return "";
}

// True when output 0 of node `id` has consumers and each takes it as a weight input of a
// compute op (the weight positions FoldOptions names), and it is no graph output.
bool UsedOnlyAsWeight(const ir::Graph &g, int32_t id) {
  for (const ir::Endpoint &o : g.outputs)
    if (o.node == id) return false;
  bool used = false;
  for (const ir::Node &n : g.nodes) {
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (n.inputs[i].node != id) continue;
      const bool weight = ((n.type == "Conv" || n.type == "ConvTranspose" || n.type == "Gemm") && (i == 1 || i == 2)) ||
                          (n.type == "MatMul" && i == 1) || (n.type == "BatchNormalization" && i >= 1 && i <= 4);
      if (!weight) return false;
      used = true;
    }
  }
  return used;
}

}  // namespace

FoldOptions BuiltinFoldOptions(const opp::CompileOppSet &opp) {
  FoldOptions options;
  const std::string &root = opp.builtin_root();
  if (root.empty()) return options;
  const auto &ds = opp.deliverables();
  for (size_t i = 0; i < ds.size(); ++i) {
    const std::string &path = ds[i].path;
    if (path.size() <= root.size() || path.compare(0, root.size(), root) != 0 || path[root.size()] != '/') continue;
    // Only the types this deliverable actually provides (a custom root registering the same type
    // first wins, and its op is never folded).
    for (const auto &type : ds[i].op_types)
      if (opp.Provider(type) == static_cast<int>(i)) options.op_types.insert(type);
  }
  return options;
}

bool TryFoldNode(const ir::Graph &graph, ir::Node &node, const FoldOptions &options) {
  size_t const_bytes = 0;
  const std::string blocker = FoldBlocker(graph, node, options, &const_bytes);
  if (!blocker.empty()) return false;
  const std::string where = "constant folding of node '" + node.name + "' (" + node.type + "): ";
  size_t limit = std::max(options.small_bytes, const_bytes);
  if (!graph.nodes.empty() && &node >= &graph.nodes.front() && &node <= &graph.nodes.back() &&
      UsedOnlyAsWeight(graph, static_cast<int32_t>(&node - &graph.nodes.front())))
    limit = std::max(limit, options.weight_bytes);
  const ir::TensorDesc inferred = node.output_descs[0];
  const int64_t inferred_bytes = TensorBytes(inferred);
  if (inferred_bytes >= 0 && static_cast<size_t>(inferred_bytes) > limit) {
    LogDebug(where + "skipped, the output (" + std::to_string(inferred_bytes) + " bytes) exceeds the size guard (" +
             std::to_string(limit) + " bytes)");
    return false;
  }
  auto &registry = gert_impl::CustomOpRegistry::Global();
  std::shared_ptr<ge::BaseCustomOp> op = registry.GetOrCreate(node.type);
  auto *exec = dynamic_cast<ge::EagerExecuteOp *>(op.get());
  // An op that compiles or declares its launches may need that state in Execute: left to the run.
  if (exec == nullptr || dynamic_cast<ge::CompilableOp *>(op.get()) != nullptr ||
      dynamic_cast<ge::AnnotatedArgsOp *>(op.get()) != nullptr) {
    return false;
  }
  try {
    // Inputs: Const data, or (Shape/Size) a zero-filled buffer of the input's static size.
    std::vector<HostBlock> zeros;
    bool too_big = false;
    auto input_data = [&](size_t anchor) -> gert_impl::AnchorData {
      if (const ir::ConstTensor *cv = ConstInput(graph, node.inputs[anchor]))
        return {const_cast<uint8_t *>(cv->data.data), cv->data.size};
      const int64_t bytes = TensorBytes(node.input_descs[anchor]);
      if (bytes < 0 || static_cast<size_t>(bytes) > kMaxScratchBytes) {
        too_big = true;
        return {};
      }
      zeros.push_back(ZeroBlock(static_cast<size_t>(bytes)));
      return {zeros.back().get(), static_cast<size_t>(bytes)};
    };
    gert_impl::NodeFrame nf(node, input_data, gert::kOnDeviceHbm);
    if (too_big) {
      LogDebug(where + "skipped, an input is too large or has no byte size for a zero-filled buffer");
      return false;
    }
    FoldServices services(limit);
    nf.frame.services = &services;
    auto ctx = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&nf.frame);
    opp::GuardedCall({node.name, node.type, "Execute (constant folding)", registry.Origin(node.type)},
                     [&] { return exec->Execute(ctx.get()); });
    const gert::Tensor &t = *nf.frame.outputs[0];
    if (services.output(0) == nullptr || t.GetAddr() != services.output(0)) {
      LogDebug(where + "not folded, Execute did not allocate its output");
      return false;
    }
    // Dtype and shape as computed; formats as the graph had them (what consumers were inferred with).
    ir::TensorDesc desc = inferred;
    desc.dtype = t.GetDataType();
    desc.shape = gert_impl::FromGertShape(t.GetStorageShape());
    desc.origin_shape = desc.shape;
    const int64_t bytes = TensorBytes(desc);
    if (bytes < 0 || (StaticShape(inferred.shape) && inferred.shape != desc.shape) || desc.dtype != inferred.dtype) {
      LogDebug(where + "not folded, Execute produced " + DataTypeShortName(desc.dtype) + " " +
               ShapeToString(desc.shape) + " where InferShape gave " + DataTypeShortName(inferred.dtype) + " " +
               ShapeToString(inferred.shape));
      return false;
    }
    auto value = std::make_shared<ir::ConstTensor>();
    value->desc = desc;
    value->desc.name.clear();
    value->desc.valid = true;
    value->data = ir::Bytes::Copy(services.output(0), static_cast<size_t>(bytes));
    ir::AttrValue attr;
    attr.kind = ir::AttrKind::kTensor;
    attr.t = std::move(value);
    LogDebug(where + "folded into a Const " + DataTypeShortName(desc.dtype) + " " + ShapeToString(desc.shape));
    node.type = ir::kConst;
    node.inputs.clear();
    node.input_descs.clear();
    node.control_inputs.clear();
    node.attrs.clear();
    node.attrs["value"] = std::move(attr);
    node.output_descs[0] = desc;
    return true;
  } catch (const Error &e) {
    if (options.python_types.count(node.type) != 0) throw;  // a Python callback failed: the user must see it
    LogDebug(where + "not folded: " + e.what());
  } catch (const std::exception &e) {
    LogDebug(where + "not folded: " + e.what());
  }
  return false;
}

size_t RemoveDeadNodes(ir::Graph &graph, const std::set<std::string> &removable_types) {
  const size_t n = graph.nodes.size();
  auto removable = [&](const ir::Node &node) {
    return node.type == ir::kConst || node.type == ir::kConstant || removable_types.count(node.type) != 0;
  };
  std::vector<bool> live(n, false);
  std::vector<size_t> work;
  auto mark = [&](int32_t i) {
    if (i >= 0 && static_cast<size_t>(i) < n && !live[static_cast<size_t>(i)]) {
      live[static_cast<size_t>(i)] = true;
      work.push_back(static_cast<size_t>(i));
    }
  };
  for (size_t i = 0; i < n; ++i) {
    const ir::Node &node = graph.nodes[i];
    if (node.type == ir::kData || node.type == ir::kNetOutput || !removable(node)) mark(static_cast<int32_t>(i));
  }
  for (const auto &o : graph.outputs) mark(o.node);
  for (int32_t i : graph.inputs) mark(i);
  while (!work.empty()) {
    const ir::Node &node = graph.nodes[work.back()];
    work.pop_back();
    for (const auto &in : node.inputs)
      if (in.connected()) mark(in.node);
    for (int32_t c : node.control_inputs) mark(c);
  }
  std::vector<int32_t> new_index(n, -1);
  std::vector<ir::Node> kept;
  for (size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    new_index[i] = static_cast<int32_t>(kept.size());
    kept.push_back(std::move(graph.nodes[i]));
  }
  const size_t removed = n - kept.size();
  if (removed == 0) {
    graph.nodes = std::move(kept);
    return 0;
  }
  auto remap = [&](ir::Endpoint &e) {
    if (e.connected()) e.node = new_index[static_cast<size_t>(e.node)];
  };
  for (auto &node : kept) {
    for (auto &in : node.inputs) remap(in);
    for (auto &c : node.control_inputs) c = new_index[static_cast<size_t>(c)];
  }
  for (auto &i : graph.inputs) i = new_index[static_cast<size_t>(i)];
  for (auto &o : graph.outputs) remap(o);
  graph.nodes = std::move(kept);
  LogDebug("removed " + std::to_string(removed) + " nodes that feed nothing");
  return removed;
}

}  // namespace openatc::compiler
