// aclmdlExecute / aclmdlExecuteAsync (GE acl_mdl.h; docs/acl.md §2 "Model", §3 "OM run").
// Buffers hold host memory (the host target's "device" memory is aclrtMalloc'ed host memory).
// Checks before running, each with a message naming the input/output:
//   - input count and every input buffer's size == aclmdlGetInputSizeByIndex
//     (ACL_ERROR_MODEL_INPUT_NOT_MATCH 100017); inputs must have static shapes;
//   - no input or output is a sequence or an optional (ACL_ERROR_MODEL_INPUT_NOT_MATCH /
//     _OUTPUT_NOT_MATCH naming it: ACL has no such type; aclmdlLoad and the desc calls work);
//   - output count, and every output buffer at least aclmdlGetOutputSizeByIndex bytes for a
//     static output (ACL_ERROR_MODEL_OUTPUT_NOT_MATCH 100018); a dynamic output must fit too.
// With a dump config listing the model (dump_state.h), each step it selects is dumped
// (step_dump.h). The async form runs on the calling thread and completes before it returns: streams are in
// order, so the work is done by the time any later call on `stream` is made.
#include <cstring>

#include "acl/acl_mdl.h"
#include "dataset.h"
#include "mdl_error.h"
#include "model_registry.h"
#include "openatc/common/dtype.h"
#include "openatc/rt/acl_internal.h"
#include "openatc/rt/error_state.h"
#include "step_dump.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

std::string Quoted(const std::string &s) { return "'" + s + "'"; }

// Checks every input buffer; with `copy` also returns the inputs as host tensors.
std::vector<HostTensor> GatherInputs(const ModelEntry &entry, const aclmdlDataset &input, bool copy = true) {
  const auto &want = entry.model->inputs();
  if (input.buffers.size() != want.size()) {
    ThrowAcl(ACL_ERROR_MODEL_INPUT_NOT_MATCH,
             "the input dataset holds " + std::to_string(input.buffers.size()) + " buffers, but model " +
                 std::to_string(entry.id) + " has " + std::to_string(want.size()) + " inputs",
             "Add one buffer per model input, in model input order");
  }
  std::vector<HostTensor> tensors(want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const runtime::IoDesc &io = want[i];
    if (ShapeElementCount(io.shape) < 0) {
      ThrowAcl(ACL_ERROR_MODEL_INPUT_NOT_MATCH,
               "input " + std::to_string(i) + " (" + Quoted(io.name) + ") has the dynamic shape " +
                   ShapeToString(io.shape) + "; aclmdlExecute runs models with static input shapes only",
               "Compile the model with atc --input_shape giving every dimension");
    }
    const aclDataBuffer *b = input.buffers[i];
    const size_t size = aclGetDataBufferSizeV2(b);
    const void *addr = aclGetDataBufferAddr(b);
    if (size != io.bytes) {
      ThrowAcl(ACL_ERROR_MODEL_INPUT_NOT_MATCH,
               "input " + std::to_string(i) + " (" + Quoted(io.name) + ", " + DataTypeShortName(io.dtype) + " " +
                   ShapeToString(io.shape) + ") needs " + std::to_string(io.bytes) + " bytes, but its buffer holds " +
                   std::to_string(size),
               "Size each input buffer with aclmdlGetInputSizeByIndex");
    }
    if (addr == nullptr && size > 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "the buffer of input " + std::to_string(i) + " has a null address");
    }
    tensors[i].dtype = io.dtype;
    if (!copy) continue;
    tensors[i].shape = io.shape;
    tensors[i].data.resize(size);
    if (size > 0) std::memcpy(tensors[i].data.data(), addr, size);
  }
  return tensors;
}

void CheckOutputs(const ModelEntry &entry, const aclmdlDataset &output) {
  const auto &want = entry.model->outputs();
  if (output.buffers.size() != want.size()) {
    ThrowAcl(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
             "the output dataset holds " + std::to_string(output.buffers.size()) + " buffers, but model " +
                 std::to_string(entry.id) + " has " + std::to_string(want.size()) + " outputs",
             "Add one buffer per model output, in model output order");
  }
  for (size_t i = 0; i < want.size(); ++i) {
    const size_t size = aclGetDataBufferSizeV2(output.buffers[i]);
    if (size < want[i].bytes) {
      ThrowAcl(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
               "output " + std::to_string(i) + " (" + Quoted(want[i].name) + ", " + DataTypeShortName(want[i].dtype) +
                   " " + ShapeToString(want[i].shape) + ") needs " + std::to_string(want[i].bytes) +
                   " bytes, but its buffer holds " + std::to_string(size),
               "Size each output buffer with aclmdlGetOutputSizeByIndex");
    }
    if (aclGetDataBufferAddr(output.buffers[i]) == nullptr && want[i].bytes > 0) {
      ThrowAcl(ACL_ERROR_INVALID_PARAM, "the buffer of output " + std::to_string(i) + " has a null address");
    }
  }
}

void Scatter(const ModelEntry &entry, const std::vector<HostTensor> &results, aclmdlDataset &output) {
  const auto &want = entry.model->outputs();
  for (size_t i = 0; i < results.size() && i < output.buffers.size(); ++i) {
    const size_t size = aclGetDataBufferSizeV2(output.buffers[i]);
    const auto &r = results[i];
    if (r.data.size() > size) {
      ThrowAcl(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
               "output " + std::to_string(i) + " (" + Quoted(want[i].name) + ") produced " + ShapeToString(r.shape) +
                   " (" + std::to_string(r.data.size()) + " bytes), more than its buffer's " + std::to_string(size) +
                   " bytes",
               "Give the output a larger buffer");
    }
    if (!r.data.empty()) std::memcpy(aclGetDataBufferAddr(output.buffers[i]), r.data.data(), r.data.size());
  }
}

// aclmdlDataset buffers carry dense tensors only: a sequence or optional model input or output
// (an ONNX model's, IoDesc::value_kind) has no ACL form, so such a model loads and describes
// its I/O but does not execute here (omrun runs it).
void RefuseValueIo(const ModelEntry &entry) {
  for (const bool in : {true, false}) {
    const auto &list = in ? entry.model->inputs() : entry.model->outputs();
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].value_kind == ir::ValueKind::kTensor) continue;
      ThrowAcl(in ? ACL_ERROR_MODEL_INPUT_NOT_MATCH : ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
               std::string(in ? "input " : "output ") + std::to_string(i) + " (" + Quoted(list[i].name) + ") of model " +
                   std::to_string(entry.id) + " is a " + ValueKindName(list[i].value_kind) + " of " +
                   DataTypeShortName(list[i].dtype) + " tensors, which an aclmdlDataset buffer cannot carry",
               "Run the model with omrun, or make its inputs and outputs tensors (e.g. SequenceAt, "
               "ConcatFromSequence, OptionalGetElement inside the model)");
    }
  }
}

void Execute(uint32_t model_id, const aclmdlDataset *input, aclmdlDataset *output) {
  std::shared_ptr<ModelEntry> entry = ModelRegistry::Instance().Find(model_id);
  RefuseValueIo(*entry);
  const aclmdlDataset &in = *CheckDataset(input, "input");
  aclmdlDataset &out = *CheckDataset(output, "output");
  CheckOutputs(*entry, out);
  bool static_outputs = true;
  for (const auto &o : entry->model->outputs()) static_outputs = static_outputs && o.bytes > 0;
  if (static_outputs) {
    // Zero copy: the model reads and writes the caller's buffers (ArgsUpdater nodes directly,
    // others through the model's fixed buffers), as GE binds a static model's I/O.
    GatherInputs(*entry, in, /*copy=*/false);
    std::vector<runtime::LoadedModel::Buffer> ins, outs;
    for (const aclDataBuffer *b : in.buffers) ins.push_back({aclGetDataBufferAddr(b), aclGetDataBufferSizeV2(b)});
    for (size_t i = 0; i < out.buffers.size(); ++i)
      outs.push_back({aclGetDataBufferAddr(out.buffers[i]), entry->model->outputs()[i].bytes});
    std::lock_guard<std::mutex> lock(entry->run_mutex);
    StepDump dump(*entry);
    try {
      entry->model->RunWithBuffers(ins, outs);
    } catch (const openatc::Error &e) {
      ThrowRunFailure(e);
    }
    dump.Commit();
    return;
  }
  std::vector<HostTensor> inputs = GatherInputs(*entry, in);
  std::vector<HostTensor> results;
  {
    std::lock_guard<std::mutex> lock(entry->run_mutex);
    StepDump dump(*entry);
    try {
      results = entry->model->Run(inputs);
    } catch (const openatc::Error &e) {
      ThrowRunFailure(e);
    }
    dump.Commit();
  }
  Scatter(*entry, results, out);
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output) {
  return Guard("aclmdlExecute", [&] { openatc::mdl::Execute(modelId, input, output); });
}

ACL_FUNC_VISIBILITY aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output,
                                                aclrtStream stream) {
  return Guard("aclmdlExecuteAsync", [&] {
    openatc::rt::ResolveStream(stream);
    openatc::mdl::Execute(modelId, input, output);
  });
}

}  // extern "C"
