// LoadedModel::RunValues: a run on values of any kind, for models whose inputs or outputs are
// sequences or optionals (ONNX model I/O; openatc/common/host_value.h). The inputs are checked
// against the model's IoDesc here (kind, element dtype); tensor inputs get the executor's own
// dtype / shape checks (executor.cc, FeedInput). The run itself is the subgraph path's
// (RunValues in model_impl.h).
#include "model_impl.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"

namespace openatc::runtime {
namespace {

[[noreturn]] void BadInput(size_t k, const IoDesc &want, const std::string &what) {
  throw Error(ErrorCategory::kInvalidInput, "OA2202",
              "input " + std::to_string(k) + " ('" + want.name + "') is a " + ValueKindName(want.value_kind) + " of " +
                  DataTypeShortName(want.dtype) + (want.value_kind == ir::ValueKind::kTensor ? "" : " tensors") +
                  " but " + what,
              "Feed a value of the model input's kind and dtype (omrun --info lists them)");
}

// The value as the executor takes it for input k (a present optional tensor given as a plain
// tensor becomes an optional); throws OA2202 when it does not fit.
HostValue Checked(size_t k, const IoDesc &want, const HostValue &v) {
  HostValue out = v;
  const bool want_seq = IsSequenceKind(want.value_kind), got_seq = IsSequenceKind(v.kind);
  const bool want_opt = want.value_kind == ir::ValueKind::kOptionalTensor || want.value_kind == ir::ValueKind::kOptionalSequence;
  if (!v.present && !want_opt) BadInput(k, want, "an empty optional (None) was given");
  if (v.present && want_seq != got_seq) BadInput(k, want, std::string("a ") + (got_seq ? "sequence" : "tensor") + " was given");
  if (want_opt) out.kind = want.value_kind;
  if (!v.present) return out;
  const auto dtype_ok = [&](const HostTensor &t) { return want.dtype == ge::DT_UNDEFINED || t.dtype == want.dtype; };
  if (got_seq) {
    for (size_t e = 0; e < v.seq.size(); ++e)
      if (!dtype_ok(v.seq[e])) BadInput(k, want, "its element " + std::to_string(e) + " is " + DataTypeShortName(v.seq[e].dtype));
  }
  return out;
}

}  // namespace

std::vector<HostValue> LoadedModel::RunValues(const std::vector<HostValue> &inputs) {
  Impl &im = *impl_;
  if (!has_value_io()) {
    std::vector<HostTensor> tensors;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (inputs[k].kind != ir::ValueKind::kTensor || !inputs[k].present)
        BadInput(k, k < im.inputs.size() ? im.inputs[k] : IoDesc{}, "a " + ValueKindName(inputs[k].kind) + " was given");
      tensors.push_back(inputs[k].tensor);
    }
    std::vector<HostValue> out;
    for (HostTensor &t : Run(tensors)) out.push_back(TensorHostValue(std::move(t)));
    return out;
  }
  if (!im.gear_models.empty())
    throw Error(ErrorCategory::kInvalidInput, "OA2202", "the model has gears and sequence or optional inputs or outputs",
                "Build the model without dynamic gears")
        .WithFile(im.path);
  if (inputs.size() != im.inputs.size()) {
    throw Error(ErrorCategory::kInvalidInput, "OA2201",
                "the model has " + std::to_string(im.inputs.size()) + " inputs but " + std::to_string(inputs.size()) +
                    " were given",
                "Pass one input per model input, in model input order")
        .WithFile(im.path);
  }
  std::vector<HostValue> checked;
  try {
    for (size_t k = 0; k < inputs.size(); ++k) checked.push_back(Checked(k, im.inputs[k], inputs[k]));
    std::vector<HostValue> out = runtime::RunValues(im, checked);
    // Outputs come back as the kinds the model declares (a present optional may run as a tensor).
    for (size_t r = 0; r < out.size() && r < im.outputs.size(); ++r) {
      const ir::ValueKind want = im.outputs[r].value_kind;
      if (want == ir::ValueKind::kOptionalTensor || want == ir::ValueKind::kOptionalSequence) out[r].kind = want;
      if (IsSequenceKind(want) != IsSequenceKind(out[r].kind) && out[r].present)
        throw Error(ErrorCategory::kInternal, "E19999",
                    "output " + std::to_string(r) + " ('" + im.outputs[r].name + "') should be a " +
                        ValueKindName(want) + " but the run produced a " + ValueKindName(out[r].kind),
                    "Please report this with the model");
    }
    return out;
  } catch (Error &e) {
    e.WithFile(im.path);
    throw;
  }
}

}  // namespace openatc::runtime
