// LoadedModel::Run: the eager executor. Nodes run in the OM's topological order; every custom
// op's Execute is called once per run (custom-op-api.md §10, dynamic/eager path); an output's
// buffer is released after its last consumer ran.
#include <cstring>
#include <deque>
#include <map>

#include "exec_services.h"
#include "model_impl.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/gert/tensor_convert.h"
#include "openatc/opp/call_guard.h"

namespace openatc::runtime {
namespace {

struct Value {
  gert::Tensor tensor;                  // what consumers see
  std::shared_ptr<HostBuffer> storage;  // keeps the bytes alive (null for weights)
  size_t pending = 0;                   // consumers not yet run
};

bool ShapeMatches(const std::vector<int64_t> &want, const std::vector<int64_t> &got) {
  if (want.size() == 1 && want[0] == -2) return true;
  if (want.size() != got.size()) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] >= 0 && want[i] != got[i]) return false;
  return true;
}

// True when the bound result buffer holds exactly what the tensor describes (the op wrote into
// it with the compiled shape), so it can be returned without a copy.
bool BoundResultValid(const gert::Tensor &t, const tensor_io::HostTensor &h) {
  return t.GetAddr() == h.data.data() && gert_impl::FromGertShape(t.GetStorageShape()) == h.shape &&
         t.GetDataType() == h.dtype;
}

tensor_io::HostTensor ToHost(const gert::Tensor &t) {
  tensor_io::HostTensor h;
  h.dtype = t.GetDataType();
  h.shape = gert_impl::FromGertShape(t.GetStorageShape());
  int64_t n = ShapeElementCount(h.shape);
  size_t bytes = n < 0 ? 0 : static_cast<size_t>(n) * DataTypeSize(h.dtype);
  if (bytes > t.GetSize()) bytes = t.GetSize();
  h.data.resize(bytes);
  if (bytes) std::memcpy(h.data.data(), t.GetAddr(), bytes);
  return h;
}

// GE's dynamic-shape path: InferDataType and InferShape on the real input shapes, so output
// descriptors carry this run's shapes before Execute.
void InferAtRunTime(const std::string &path, const ir::Node &node, const NodeRuntime &nr, gert_impl::Frame &frame) {
  auto dt = gert_impl::ContextAccess::Make<gert::InferDataTypeContext>(&frame);
  auto sh = gert_impl::ContextAccess::Make<gert::InferShapeContext>(&frame);
  try {
    opp::GuardedCall({node.name, node.type, "InferDataType", nr.origin}, [&] { return nr.infer->InferDataType(dt.get()); });
    opp::GuardedCall({node.name, node.type, "InferShape", nr.origin}, [&] { return nr.infer->InferShape(sh.get()); });
  } catch (Error &e) {
    e.WithFile(path);
    throw;
  }
  for (gert::Tensor *t : frame.outputs) t->MutableStorageShape() = t->GetOriginShape();
}

}  // namespace

std::vector<tensor_io::HostTensor> LoadedModel::Run(const std::vector<tensor_io::HostTensor> &inputs) {
  Impl &im = *impl_;
  const ir::Graph &g = im.model.graph;
  if (inputs.size() != im.inputs.size()) {
    throw Error(ErrorCategory::kInvalidInput, "OA2201",
                "the model has " + std::to_string(im.inputs.size()) + " inputs but " + std::to_string(inputs.size()) +
                    " were given",
                "Pass one input per model input, in model input order");
  }
  std::map<std::pair<int32_t, int32_t>, Value> values;
  std::map<std::pair<int32_t, int32_t>, size_t> uses;
  for (const auto &node : g.nodes)
    for (const auto &in : node.inputs)
      if (in.connected()) ++uses[{in.node, in.index}];
  for (const auto &o : g.outputs) ++uses[{o.node, o.index}];  // outputs are read at the end

  // Static models: graph outputs produced by custom ops are bound to the result buffers.
  std::vector<tensor_io::HostTensor> results(g.outputs.size());
  std::map<std::pair<int32_t, int32_t>, size_t> bound;
  if (im.arena != nullptr || !im.dynamic) {
    for (size_t r = 0; r < g.outputs.size(); ++r) {
      const ir::Endpoint &o = g.outputs[r];
      const ir::Node &p = g.nodes[static_cast<size_t>(o.node)];
      if (p.type == ir::kData || p.type == ir::kConst || p.type == ir::kConstant || bound.count({o.node, o.index})) continue;
      const ir::TensorDesc &d = p.output_descs[static_cast<size_t>(o.index)];
      const int64_t n = ShapeElementCount(d.shape);
      if (n < 0) continue;
      results[r].dtype = d.dtype;
      results[r].shape = d.shape;
      results[r].data.assign(static_cast<size_t>(n) * DataTypeSize(d.dtype), 0);
      bound[{o.node, o.index}] = r;
    }
  }

  std::map<int32_t, size_t> input_slot;
  for (size_t k = 0; k < g.inputs.size(); ++k) input_slot[g.inputs[k]] = k;

  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::Node &node = g.nodes[i];
    const int32_t ni = static_cast<int32_t>(i);
    if (node.type == ir::kNetOutput) continue;
    if (node.type == ir::kData) {
      const size_t k = input_slot.at(ni);
      const IoDesc &want = im.inputs[k];
      const tensor_io::HostTensor &in = inputs[k];
      if (in.dtype != want.dtype || !ShapeMatches(want.shape, in.shape)) {
        throw Error(ErrorCategory::kInvalidInput, "OA2202",
                    "input " + std::to_string(k) + " ('" + want.name + "') expects " + DataTypeShortName(want.dtype) +
                        " " + ShapeToString(want.shape) + " but got " + DataTypeShortName(in.dtype) + " " +
                        ShapeToString(in.shape),
                    "Feed data of the model's input dtype and shape");
      }
      Value &v = values[{ni, 0}];
      v.storage = std::make_shared<HostBuffer>(in.data.size());
      if (!in.data.empty()) std::memcpy(v.storage->data(), in.data.data(), in.data.size());
      ir::TensorDesc d = node.output_descs.at(0);
      d.shape = in.shape;
      d.origin_shape = in.shape;
      gert_impl::InitTensor(v.tensor, d, v.storage->data(), in.data.size());
      v.pending = uses[{ni, 0}];
      continue;
    }
    if (node.type == ir::kConst || node.type == ir::kConstant) {
      const ir::ConstTensor &c = *node.attrs.at("value").t;
      Value &v = values[{ni, 0}];
      gert_impl::InitTensor(v.tensor, node.output_descs.at(0), const_cast<uint8_t *>(c.data.data), c.data.size);
      v.pending = uses[{ni, 0}];
      continue;
    }
    // A custom op.
    NodeRuntime &nr = im.nodes[i];
    gert_impl::Frame frame;
    frame.node = nr.info.get();
    for (size_t anchor : nr.info->input_anchor) {
      const ir::Endpoint &e = node.inputs[anchor];
      frame.inputs.push_back(&values.at({e.node, e.index}).tensor);
    }
    std::deque<gert::Tensor> outs(node.output_descs.size());
    for (size_t k = 0; k < outs.size(); ++k) {
      void *addr = nullptr;
      size_t size = 0;
      auto b = bound.find({ni, static_cast<int32_t>(k)});
      if (b != bound.end()) {
        addr = results[b->second].data.data();
        size = results[b->second].data.size();
      } else if (k < nr.planned_offsets.size() && nr.planned_offsets[k] >= 0 && im.arena != nullptr) {
        addr = im.arena->data() + nr.planned_offsets[k];
        const int64_t n = ShapeElementCount(node.output_descs[k].shape);
        size = n < 0 ? 0 : static_cast<size_t>(n) * DataTypeSize(node.output_descs[k].dtype);
      }
      gert_impl::InitTensor(outs[k], node.output_descs[k], addr, size);
      frame.outputs.push_back(&outs[k]);
    }
    ExecServices services(im.stream);
    frame.services = &services;
    if (im.dynamic && nr.infer != nullptr) InferAtRunTime(im.path, node, nr, frame);
    auto ctx = gert_impl::ContextAccess::Make<gert::EagerOpExecutionContext>(&frame);
    try {
      opp::GuardedCall({node.name, node.type, "Execute", nr.origin}, [&] { return nr.execute->Execute(ctx.get()); });
    } catch (Error &e) {
      e.WithFile(im.path);
      throw;
    }
    if (aclrtSynchronizeStream(im.stream) != ACL_SUCCESS) {
      throw Error(ErrorCategory::kCustomOp, "OA2203",
                  std::string("a kernel launched by Execute failed: ") + aclGetRecentErrMsg())
          .WithFile(im.path)
          .WithNode(node.name, node.type);
    }
    auto &bufs = services.output_buffers();
    auto &refs = services.ref_inputs();
    for (size_t k = 0; k < outs.size(); ++k) {
      const bool allocated = (k < bufs.size() && bufs[k] != nullptr) || services.used_prebound(k);
      const bool aliased = k < refs.size() && refs[k] >= 0;
      if (!allocated && !aliased) {
        if (uses[{ni, static_cast<int32_t>(k)}] == 0) continue;  // unused output left unallocated
        throw Error(ErrorCategory::kCustomOp, "OA2204",
                    "Execute returned without allocating output " + std::to_string(k),
                    "Call ctx->MallocOutputTensor for every output")
            .WithFile(im.path)
            .WithNode(node.name, node.type);
      }
      Value &v = values[{ni, static_cast<int32_t>(k)}];
      v.tensor.GetShape() = outs[k].GetShape();
      v.tensor.MutableFormat() = outs[k].GetFormat();
      v.tensor.SetDataType(outs[k].GetDataType());
      v.tensor.MutableTensorData() =
          gert::TensorData(outs[k].GetAddr(), nullptr, outs[k].GetSize(), outs[k].GetPlacement());
      if (aliased) {
        const ir::Endpoint &src = node.inputs[nr.info->input_anchor[static_cast<size_t>(refs[k])]];
        v.storage = values.at({src.node, src.index}).storage;
      } else {
        v.storage = bufs[k];
      }
      v.pending = uses[{ni, static_cast<int32_t>(k)}];
    }
    // Release inputs whose last consumer was this node.
    for (const auto &e : node.inputs) {
      if (!e.connected()) continue;
      auto it = values.find({e.node, e.index});
      if (it != values.end() && it->second.pending > 0 && --it->second.pending == 0) values.erase(it);
    }
  }
  std::vector<tensor_io::HostTensor> out;
  for (size_t r = 0; r < g.outputs.size(); ++r) {
    const ir::Endpoint &o = g.outputs[r];
    auto b = bound.find({o.node, o.index});
    if (b != bound.end() && b->second == r && BoundResultValid(values.at({o.node, o.index}).tensor, results[r])) {
      out.push_back(std::move(results[r]));
    } else {
      out.push_back(ToHost(values.at({o.node, o.index}).tensor));
    }
  }
  return out;
}

}  // namespace openatc::runtime
