// GraphEntry: compile in memory on the process-wide op objects, load with the same objects, run
// on caller tensors (see graph_entry.h and ge/ge_api.h).
#include "graph_entry.h"

#include <cstdlib>

#include "acl/acl_rt.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/common/target.h"
#include "openatc/compiler/compiler.h"
#include "openatc/compiler/target_facts.h"
#include "openatc/gert/custom_op_registry.h"

namespace openatc::ge_runner {
namespace {

Error TensorError(const std::string &message, const std::string &hint) {
  return Error(ErrorCategory::kInvalidInput, kBadTensor, message, hint);
}

std::string Get(const Options &o, const std::string &key, const std::string &fallback) {
  auto it = o.find(key);
  return it == o.end() ? fallback : it->second;
}

// Output memory GE allocates when the caller passes no output tensors (freed with the tensor).
ge::graphStatus FreeManager(void *addr, gert::TensorOperateType op, void **out) {
  switch (op) {
    case gert::kGetTensorAddress:
      if (out != nullptr) *out = addr;
      return ge::GRAPH_SUCCESS;
    case gert::kFreeTensor:
      std::free(addr);
      return ge::GRAPH_SUCCESS;
    default:
      return ge::GRAPH_FAILED;  // sharing is not supported for these buffers
  }
}

// Checks one caller tensor against a model input/output; returns the bytes the model needs.
size_t CheckTensor(const gert::Tensor &t, const runtime::IoDesc &d, const std::string &what) {
  const std::string named = what + " ('" + d.name + "')";
  if (t.GetDataType() != d.dtype) {
    throw TensorError(named + " is " + DataTypeName(t.GetDataType()) + " but the graph's is " + DataTypeName(d.dtype),
                      "Pass a tensor of the graph's dtype");
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < t.GetStorageShape().GetDimNum(); ++i) shape.push_back(t.GetStorageShape().GetDim(i));
  if (d.bytes != 0 && shape != d.shape) {
    throw TensorError(named + " has shape " + ShapeToString(shape) + " but the graph's is " + ShapeToString(d.shape),
                      "Pass a tensor of the shape the graph was compiled for");
  }
  if (t.GetAddr() == nullptr) {
    throw TensorError(named + " has a null address", "Allocate the tensor's memory (aclrtMalloc) and set its address");
  }
  const int64_t need = ge::GetSizeInBytes(t.GetShapeSize(), t.GetDataType());
  if (need < 0) throw TensorError(named + " has an invalid shape " + ShapeToString(shape), "Use non-negative dims");
  if (t.GetSize() != 0 && t.GetSize() < static_cast<size_t>(need)) {
    throw TensorError(named + " holds " + std::to_string(t.GetSize()) + " bytes but its shape needs " +
                          std::to_string(need),
                      "Size the tensor's memory as its shape x dtype size");
  }
  return static_cast<size_t>(need);
}

}  // namespace

GraphEntry::GraphEntry(uint32_t id, std::string where, ir::Graph graph, Options options)
    : id_(id), where_(std::move(where)), options_(std::move(options)), graph_(std::move(graph)) {}

bool GraphEntry::EagerMode() const { return Get(options_, ge::OPTION_GRAPH_RUN_MODE, "1") == "0"; }

// What the online flow compiles for: with OPENATC_EMULATION on (read once per process), the
// switch's chip emulated on this CPU, or the chip ge.socVersion names when it is in the facts
// table; ge.socVersion "host" stays host. Without the switch only host is possible here.
Target GraphEntry::OnlineTarget() const {
  const Emulation emulation = EmulationFromEnv();
  const auto given = options_.find(ge::SOC_VERSION);
  if (emulation.on()) {
    const std::string soc = given == options_.end() ? emulation.chip : given->second;
    try {
      return ResolveTarget(soc, emulation);
    } catch (Error &e) {
      e.WithFile(where_);
      throw;
    }
  }
  const std::string soc = given == options_.end() ? "host" : given->second;
  if (!IsHostSocVersion(soc)) {
    throw Error(ErrorCategory::kUsage, kBadOption,
                "option ge.socVersion is '" + soc + "', but the online flow compiles only for the host target",
                "Drop ge.socVersion or set it to \"host\"; to emulate an Ascend chip set OPENATC_EMULATION=1; for "
                "an Ascend target through CANN compile offline with atc")
        .WithFile(where_);
  }
  return HostTarget();
}

void GraphEntry::Compile() {
  std::lock_guard<std::mutex> lock(mu_);
  if (model_) return;
  compiler::CompileOptions copts;
  copts.target = OnlineTarget();
  copts.ge_options = options_;  // OpCompileContext::GetOption answers every option given
  if (!copts.target.is_host()) {  // the emulated chip's defaults for the options not given
    std::map<std::string, std::string> given;
    if (options_.count("ge.jit_compile") != 0) given["jit_compile"] = options_.at("ge.jit_compile");
    if (options_.count("ge.exec.precision_mode") != 0) given["precision_mode"] = options_.at("ge.exec.precision_mode");
    compiler::ApplyTargetOptionDefaults(copts.target, given, copts.ge_options);
  }
  copts.model_path = where_;
  copts.online = true;
  ir::Graph graph = *graph_;  // kept until success, so a failed compile can be retried
  model_ = compiler::CompileGraph(std::move(graph), copts, OppSet());
  graph_.reset();
}

void GraphEntry::LoadLocked() {
  // The compiling op objects execute (registry = the process-wide one): no Deserialize.
  loaded_ = runtime::LoadedModel::LoadWithRegistry(*model_, where_, gert_impl::CustomOpRegistry::Global());
  if (EagerMode()) loaded_->set_execution_mode(runtime::ExecutionMode::kEager);
}

void GraphEntry::Load(void *stream) {
  (void)stream;  // the host target runs on the model's own stream; callers' streams are synchronized
  std::lock_guard<std::mutex> lock(mu_);
  if (!model_) {
    throw Error(ErrorCategory::kUsage, kOutOfOrder, "LoadGraph was called before CompileGraph",
                "Call Session::CompileGraph(" + std::to_string(id_) + ") first")
        .WithFile(where_);
  }
  if (load_graph_called_) {
    throw Error(ErrorCategory::kUsage, kOutOfOrder, "LoadGraph was already called for this graph",
                "Load a graph once; to load it again, RemoveGraph(" + std::to_string(id_) + ") and AddGraph it again")
        .WithFile(where_);
  }
  if (!loaded_) LoadLocked();
  load_graph_called_ = true;
}

void GraphEntry::Execute(void *stream, const std::vector<gert::Tensor> &inputs, std::vector<gert::Tensor> &outputs) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!load_graph_called_) {
    throw Error(ErrorCategory::kUsage, kOutOfOrder,
                std::string("ExecuteGraphWithStreamAsync was called before ") +
                    (model_ ? "LoadGraph" : "CompileGraph and LoadGraph"),
                "Call Session::CompileGraph(" + std::to_string(id_) + "), then Session::LoadGraph(" +
                    std::to_string(id_) + ", options, stream)")
        .WithFile(where_);
  }
  const auto &in_desc = loaded_->inputs();
  const auto &out_desc = loaded_->outputs();
  if (inputs.size() != in_desc.size()) {
    throw TensorError("the graph has " + std::to_string(in_desc.size()) + " inputs but " +
                          std::to_string(inputs.size()) + " tensors were given",
                      "Pass one gert::Tensor per Data node, in input order")
        .WithFile(where_);
  }
  if (outputs.empty()) {  // GE allocates the outputs when the caller gives none
    outputs.resize(out_desc.size());
    for (size_t k = 0; k < out_desc.size(); ++k) {
      const auto &d = out_desc[k];
      bool run_time_shape = false;
      for (int64_t dim : d.shape) run_time_shape = run_time_shape || dim < 0;
      if (run_time_shape) {
        outputs.clear();
        throw TensorError("output " + std::to_string(k) + " ('" + d.name +
                              "') has a shape known only at run time, so it cannot be allocated in advance",
                          "Pass output tensors with memory large enough for the result, or use RunGraph")
            .WithFile(where_);
      }
      void *mem = std::malloc(d.bytes == 0 ? 1 : d.bytes);
      if (mem == nullptr) throw std::bad_alloc();
      gert::StorageShape shape;
      for (int64_t dim : d.shape) {
        shape.MutableOriginShape().AppendDim(dim);
        shape.MutableStorageShape().AppendDim(dim);
      }
      outputs[k] = gert::Tensor(shape, {d.format, d.format, {}}, gert::kOnHost, d.dtype, mem, FreeManager);
      outputs[k].SetSize(d.bytes);
    }
  }
  if (outputs.size() != out_desc.size()) {
    throw TensorError("the graph has " + std::to_string(out_desc.size()) + " outputs but " +
                          std::to_string(outputs.size()) + " tensors were given",
                      "Pass one gert::Tensor per graph output, in Graph::SetOutputs order (or none: GE allocates)")
        .WithFile(where_);
  }
  std::vector<runtime::LoadedModel::Buffer> in_bufs, out_bufs;
  try {
    for (size_t k = 0; k < inputs.size(); ++k) {
      size_t bytes = CheckTensor(inputs[k], in_desc[k], "input " + std::to_string(k));
      in_bufs.push_back({const_cast<void *>(inputs[k].GetAddr()), bytes});
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      size_t bytes = CheckTensor(outputs[k], out_desc[k], "output " + std::to_string(k));
      out_bufs.push_back({outputs[k].GetAddr(), out_desc[k].bytes != 0 ? out_desc[k].bytes : bytes});
    }
  } catch (Error &e) {
    e.WithFile(where_);
    throw;
  }
  if (stream != nullptr && aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
    throw Error(ErrorCategory::kUsage, kBadTensor, "the stream passed cannot be synchronized (is it destroyed?)",
                "Pass a stream created with aclrtCreateStream, or nullptr")
        .WithFile(where_);
  }
  loaded_->RunWithBuffers(in_bufs, out_bufs);
}

void GraphEntry::Run(const std::vector<ge::Tensor> &inputs, std::vector<ge::Tensor> &outputs) {
  Compile();
  std::lock_guard<std::mutex> lock(mu_);
  if (!loaded_) LoadLocked();
  std::vector<HostTensor> feeds;
  for (const auto &t : inputs) {
    HostTensor h;
    const ge::TensorDesc desc = t.GetTensorDesc();
    h.dtype = desc.GetDataType();
    h.shape = desc.GetShape().GetDims();
    h.data.assign(t.GetData(), t.GetData() + t.GetSize());
    feeds.push_back(std::move(h));
  }
  std::vector<HostTensor> results;
  try {
    results = loaded_->Run(feeds);
  } catch (Error &e) {
    e.WithFile(where_);
    throw;
  }
  outputs.clear();
  for (size_t k = 0; k < results.size(); ++k) {
    const auto &r = results[k];
    ge::TensorDesc desc(ge::Shape(r.shape), loaded_->outputs()[k].format, r.dtype);
    outputs.emplace_back(desc, r.data.data(), r.data.size());
  }
}

}  // namespace openatc::ge_runner
