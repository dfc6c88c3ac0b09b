// The PortableOp round-trip check: byte symmetry of Serialize/Deserialize, and equal outputs
// through the compiling and the deserialized op objects. Asymmetry here is the failure GE's
// documentation describes most often.
#include "check_portable.h"

#include <algorithm>
#include <cstring>

#include "openatc/common/error.h"
#include "openatc/common/log.h"
#include "openatc/compiler/op_checks.h"
#include "openatc/gert/custom_op_registry.h"
#include "openatc/opp/call_guard.h"
#include "openatc/runtime/model.h"
#include "openatc/tensor_io/tensor_io.h"

namespace openatc::atc {
namespace {

void CheckBytes(const om::OpArtifact &art) {
  auto &registry = gert_impl::CustomOpRegistry::Global();
  const std::string origin = registry.Origin(art.op_type);
  std::string why;
  std::unique_ptr<ge::BaseCustomOp> fresh = registry.CreateNew(art.op_type, &why);
  if (!fresh) {
    const compiler::OpCheckProblem p = compiler::CannotCreateProblem(why);
    throw Error(ErrorCategory::kCustomOp, p.code, p.message, p.hint).WithNode("", art.op_type);
  }
  auto *portable = dynamic_cast<ge::PortableOp *>(fresh.get());
  if (portable == nullptr) return;
  std::vector<uint8_t> first(art.payload.data, art.payload.data + art.payload.size);
  opp::GuardedCall({"", art.op_type, "Deserialize", origin}, [&] { return portable->Deserialize(first); });
  std::vector<uint8_t> second;
  opp::GuardedCall({"", art.op_type, "Serialize", origin}, [&] { return portable->Serialize(second); });
  if (second == first) return;
  size_t at = 0;
  while (at < first.size() && at < second.size() && first[at] == second[at]) ++at;
  throw Error(ErrorCategory::kCustomOp, "OA1701",
              "Serialize after Deserialize differs from the compiled Serialize buffer at byte " + std::to_string(at) +
                  " (sizes " + std::to_string(first.size()) + " and " + std::to_string(second.size()) + ")",
              "Make Deserialize restore every field that Serialize writes, and Serialize deterministic (e.g. "
              "iterate maps in key order)")
      .WithNode("", art.op_type);
}

void CompareRuns(runtime::LoadedModel &compiled, runtime::LoadedModel &deserialized,
                 const std::vector<tensor_io::HostTensor> &inputs);

bool HasDynamicInput(const runtime::LoadedModel &m) {
  for (const auto &io : m.inputs())
    for (int64_t d : io.shape)
      if (d < 0) return true;
  return false;
}

}  // namespace

void CheckPortable(const om::Model &model, const std::string &model_path) {
  for (const auto &art : model.artifacts)
    if (art.has_payload) CheckBytes(art);

  // Outputs through the compiling objects vs through deserialized objects.
  auto compiled = runtime::LoadedModel::LoadWithRegistry(model, model_path, gert_impl::CustomOpRegistry::Global());
  if (HasDynamicInput(*compiled)) {
    LogWarning("--check_portable: the model has dynamic input shapes, so the output comparison was skipped");
    return;
  }
  auto deserialized = runtime::LoadedModel::Load(model, model_path);
  // A geared model: every gear, its user inputs random and the last input holding its values.
  for (size_t g = 0; g < std::max<size_t>(1, compiled->gear_count()); ++g) {
    const bool geared = compiled->gear_count() > 0;
    const auto &want = geared ? compiled->gear_inputs(g) : compiled->inputs();
    std::vector<tensor_io::HostTensor> inputs;
    for (size_t i = 0; i < want.size(); ++i) inputs.push_back(tensor_io::RandomTensor(want[i].dtype, want[i].shape, 0, i));
    if (geared) {
      tensor_io::HostTensor shape;
      shape.dtype = ge::DT_INT32;
      for (int64_t v : model.gears[g].values) {
        const int32_t x = static_cast<int32_t>(v);
        shape.data.insert(shape.data.end(), reinterpret_cast<const uint8_t *>(&x), reinterpret_cast<const uint8_t *>(&x) + 4);
      }
      shape.shape = {static_cast<int64_t>(model.gears[g].values.size())};
      inputs.push_back(std::move(shape));
    }
    CompareRuns(*compiled, *deserialized, inputs);
  }
  LogInfo("--check_portable: " + std::to_string(model.artifacts.size()) + " op type(s) round-trip");
}

namespace {

void CompareRuns(runtime::LoadedModel &compiled, runtime::LoadedModel &deserialized,
                 const std::vector<tensor_io::HostTensor> &inputs) {
  auto a = compiled.Run(inputs);
  auto b = deserialized.Run(inputs);
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].dtype == b[k].dtype && a[k].shape == b[k].shape && a[k].data == b[k].data) continue;
    size_t at = 0;
    while (at < a[k].data.size() && at < b[k].data.size() && a[k].data[at] == b[k].data[at]) ++at;
    throw Error(ErrorCategory::kCustomOp, "OA1702",
                "output " + std::to_string(k) + " ('" + compiled.outputs()[k].name +
                    "') differs between the compiling op objects and the deserialized ones (first differing byte " +
                    std::to_string(at) + ")",
                "The deserialized object must behave like the one that compiled: check what Deserialize restores");
  }
}

}  // namespace

}  // namespace openatc::atc
