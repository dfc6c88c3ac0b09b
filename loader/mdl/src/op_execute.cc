// aclopSetModelDir / aclopLoad / aclopExecute / aclopExecuteV2 (acl/acl_op.h; docs/acl.md §7):
// the matched single-op model runs on the calling thread on host buffers and is done when the
// call returns (streams are in order, as aclmdlExecuteAsync).
#include <cstring>

#include "mdl_error.h"
#include "op_models.h"
#include "openatc/common/dtype.h"
#include "openatc/rt/acl_internal.h"
#include "openatc/rt/error_state.h"

using openatc::rt::Guard;
using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

void Execute(const char *op_type, int num_inputs, const aclTensorDesc *const in_desc[], const aclDataBuffer *const in[],
             int num_outputs, const aclTensorDesc *const out_desc[], aclDataBuffer *const out[], const aclopAttr *attr,
             aclrtStream stream, aclTensorDesc *const *refresh) {
  CheckNotNull(op_type, "opType");
  rt::ResolveStream(stream);
  if (num_inputs < 0 || num_outputs < 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, "numInputs and numOutputs must be >= 0");
  if ((num_inputs > 0 && (in_desc == nullptr || in == nullptr)) || (num_outputs > 0 && (out_desc == nullptr || out == nullptr)))
    ThrowAcl(ACL_ERROR_INVALID_PARAM, "a description or buffer array is a null pointer");
  std::vector<OpTensorArg> inputs;
  for (int i = 0; i < num_inputs; ++i) inputs.push_back({in_desc[i], in[i]});
  std::vector<const aclTensorDesc *> outputs(out_desc, out_desc + num_outputs);
  std::shared_ptr<OpModel> m = OpModels::Instance().Find(op_type, inputs, outputs, attr);

  std::vector<HostTensor> tensors(m->model->inputs().size());
  for (size_t i = 0; i < m->inputs.size(); ++i) {
    const OpModelInput &w = m->inputs[i];
    if (w.model_input < 0) continue;
    HostTensor &t = tensors[static_cast<size_t>(w.model_input)];
    t.dtype = w.desc.dtype;
    t.shape = in_desc[i]->dims;
    const auto bytes = TensorByteSize(t.dtype, t.shape);
    const size_t size = aclGetDataBufferSizeV2(in[i]);
    const void *addr = aclGetDataBufferAddr(in[i]);
    if (!bytes || size < *bytes || (addr == nullptr && *bytes > 0))
      ThrowAcl(ACL_ERROR_OP_INPUT_NOT_MATCH,
               "input " + std::to_string(i) + " (" + DescText(in_desc[i]) + ") needs " + std::to_string(bytes ? *bytes : 0) +
                   " bytes, but its buffer holds " + std::to_string(size),
               "Size the buffer with aclGetTensorDescSize");
    t.data.resize(static_cast<size_t>(*bytes));
    if (*bytes > 0) std::memcpy(t.data.data(), addr, t.data.size());
  }
  std::vector<HostTensor> results;
  {
    std::lock_guard<std::mutex> lock(m->run_mutex);
    try {
      results = m->model->Run(tensors);
    } catch (const Error &e) {
      ThrowRunFailure(e);
    }
  }
  for (size_t i = 0; i < results.size() && i < static_cast<size_t>(num_outputs); ++i) {
    const size_t size = aclGetDataBufferSizeV2(out[i]);
    if (results[i].data.size() > size || (aclGetDataBufferAddr(out[i]) == nullptr && !results[i].data.empty()))
      ThrowAcl(ACL_ERROR_OP_OUTPUT_NOT_MATCH,
               "output " + std::to_string(i) + " produced " + DataTypeShortName(results[i].dtype) + " " +
                   ShapeToString(results[i].shape) + " (" + std::to_string(results[i].data.size()) +
                   " bytes), more than its buffer's " + std::to_string(size) + " bytes",
               "Give the output a larger buffer");
    if (!results[i].data.empty()) std::memcpy(aclGetDataBufferAddr(out[i]), results[i].data.data(), results[i].data.size());
    if (refresh != nullptr && refresh[i] != nullptr) {
      refresh[i]->dims = results[i].shape;
      refresh[i]->ranges.clear();
    }
  }
}

}  // namespace
}  // namespace mdl
}  // namespace openatc

extern "C" {

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir) {
  return Guard("aclopSetModelDir", [&] {
    openatc::mdl::CheckNotNull(modelDir, "modelDir");
    openatc::mdl::OpModels::Instance().LoadDir(modelDir);
  });
}

ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize) {
  return Guard("aclopLoad", [&] {
    openatc::mdl::CheckNotNull(model, "model");
    if (modelSize == 0) ThrowAcl(ACL_ERROR_INVALID_PARAM, "modelSize is 0");
    openatc::mdl::OpModels::Instance().LoadBytes(model, modelSize);
  });
}

ACL_FUNC_VISIBILITY aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                          const aclDataBuffer *const inputs[], int numOutputs,
                                          const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                          const aclopAttr *attr, aclrtStream stream) {
  return Guard("aclopExecute", [&] {
    openatc::mdl::Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream, nullptr);
  });
}

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                            aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                            aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream) {
  return Guard("aclopExecuteV2", [&] {
    openatc::mdl::Execute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream,
                          outputDesc);
  });
}

}  // extern "C"
