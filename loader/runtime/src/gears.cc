// Dynamic gears at run time (openatc/runtime/model.h): each gear of the OM is loaded as its own
// static model (its own memory plan); a run picks one from the values of the last input
// om::kGearShapeInput and runs it on the leading bytes of the user inputs and outputs.
#include <algorithm>
#include <cstring>
#include <string>

#include "model_impl.h"
#include "openatc/common/dtype.h"
#include "openatc/common/error.h"

namespace openatc::runtime {
namespace {

std::string GearText(om::GearKind kind, const std::vector<int64_t> &values) {
  std::string out;
  const char *sep = kind == om::GearKind::kImageSize ? "x" : ",";
  for (int64_t v : values) out += (out.empty() ? "" : sep) + std::to_string(v);
  return out;
}

const char *GearWhat(om::GearKind kind) {
  switch (kind) {
    case om::GearKind::kBatch: return "batch size";
    case om::GearKind::kImageSize: return "image size (h x w)";
    default: return "dims gear";
  }
}

// The gear values in the shape input: int64 when the buffer holds 8 bytes per value, else int32
// (as aclmdlSetDynamicBatchSize writes them).
std::vector<int64_t> ShapeValues(const void *data, size_t bytes, size_t count) {
  std::vector<int64_t> values(count, 0);
  if (data == nullptr || bytes < count * sizeof(int32_t)) return values;
  if (bytes >= count * sizeof(int64_t)) {
    std::memcpy(values.data(), data, count * sizeof(int64_t));
    return values;
  }
  for (size_t k = 0; k < count; ++k) {
    int32_t v = 0;
    std::memcpy(&v, static_cast<const uint8_t *>(data) + k * sizeof(int32_t), sizeof(v));
    values[k] = v;
  }
  return values;
}

[[noreturn]] void CountMismatch(const LoadedModel::Impl &im, size_t given) {
  throw Error(ErrorCategory::kInvalidInput, "OA2201",
              "the model has " + std::to_string(im.inputs.size()) + " inputs (the last is '" + om::kGearShapeInput +
                  "', the gear to run) but " + std::to_string(given) + " were given",
              "Pass one input per model input, in model order");
}

}  // namespace

void LoadedModel::LoadGears(gert_impl::CustomOpRegistry *external) {
  Impl &im = *impl_;
  if (im.model.gears.empty()) return;
  size_t best = 0;
  for (const om::GearVariant &gear : im.model.gears) {
    om::Model variant;
    variant.format_major = im.model.format_major;
    variant.format_minor = im.model.format_minor;
    variant.producer = im.model.producer;
    variant.target = im.model.target;
    variant.graph = gear.graph;
    variant.artifacts = im.model.artifacts;
    variant.deliverables = im.model.deliverables;
    variant.build_options = im.model.build_options;
    im.gear_models.push_back(LoadImpl(std::move(variant), im.path, external));  // as the model: its registry or its own
    const LoadedModel &m = *im.gear_models.back();
    if (m.inputs().size() + 1 != im.inputs.size() || m.outputs().size() != im.outputs.size())
      throw Error(ErrorCategory::kCorruptOm, "OA2011",
                  "gear " + GearText(im.model.gear_kind, gear.values) + " has " + std::to_string(m.inputs().size()) +
                      " inputs and " + std::to_string(m.outputs().size()) + " outputs; the model has " +
                      std::to_string(im.inputs.size() - 1) + " and " + std::to_string(im.outputs.size()),
                  "The file is damaged; rebuild it with atc");
  }
  // The caller's buffers hold any gear: each is sized for the largest of all gears.
  for (size_t g = 0; g < im.gear_models.size(); ++g) {
    const LoadedModel &m = *im.gear_models[g];
    size_t total = 0, best_total = 0;
    for (size_t i = 0; i < m.inputs().size(); ++i) {
      im.inputs[i].bytes = std::max(im.inputs[i].bytes, m.inputs()[i].bytes);
      total += m.inputs()[i].bytes;
      best_total += im.gear_models[best]->inputs()[i].bytes;
    }
    for (size_t i = 0; i < m.outputs().size(); ++i) im.outputs[i].bytes = std::max(im.outputs[i].bytes, m.outputs()[i].bytes);
    if (total > best_total) best = g;
  }
  im.default_gear = im.current_gear = best;
}

size_t LoadedModel::gear_count() const { return impl_->gear_models.size(); }
const std::vector<IoDesc> &LoadedModel::gear_inputs(size_t g) const { return impl_->gear_models.at(g)->inputs(); }
const std::vector<IoDesc> &LoadedModel::gear_outputs(size_t g) const { return impl_->gear_models.at(g)->outputs(); }
size_t LoadedModel::default_gear() const { return impl_->default_gear; }
size_t LoadedModel::current_gear() const { return impl_->current_gear; }

size_t LoadedModel::FindGear(const std::vector<int64_t> &values) const {
  const om::Model &m = impl_->model;
  if (std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 0; })) return impl_->default_gear;
  for (size_t g = 0; g < m.gears.size(); ++g)
    if (m.gears[g].values == values) return g;
  std::string list;
  for (const om::GearVariant &gear : m.gears) list += (list.empty() ? "" : "; ") + GearText(m.gear_kind, gear.values);
  throw Error(ErrorCategory::kInvalidInput, "OA2209",
              std::string(GearWhat(m.gear_kind)) + " " + GearText(m.gear_kind, values) +
                  " is not a gear of this model; its gears are " + list,
              "Pick one of the gears, or rebuild the model with atc listing this gear too");
}

std::vector<HostTensor> LoadedModel::RunGear(const std::vector<HostTensor> &inputs) {
  Impl &im = *impl_;
  if (inputs.size() != im.inputs.size()) CountMismatch(im, inputs.size());
  const HostTensor &shape = inputs.back();
  const size_t count = im.model.gears[0].values.size();
  const size_t g = FindGear(ShapeValues(shape.data.data(), shape.data.size(), count));
  const auto &want = gear_inputs(g);
  std::vector<HostTensor> sub(inputs.begin(), inputs.end() - 1);
  for (size_t i = 0; i < sub.size(); ++i) {
    if (sub[i].shape == want[i].shape) continue;
    if (sub[i].shape != im.inputs[i].shape || sub[i].dtype != want[i].dtype)
      throw Error(ErrorCategory::kInvalidInput, "OA2202",
                  "input " + std::to_string(i) + " ('" + want[i].name + "') has shape " + ShapeToString(sub[i].shape) +
                      " but gear " + GearText(im.model.gear_kind, im.model.gears[g].values) + " takes " +
                      DataTypeShortName(want[i].dtype) + " " + ShapeToString(want[i].shape),
                  "Pass the input with the gear's shape");
    sub[i].shape = want[i].shape;
    sub[i].data.resize(want[i].bytes);  // the leading bytes hold the gear's data
  }
  im.current_gear = g;
  return im.gear_models[g]->Run(sub);
}

void LoadedModel::RunGearWithBuffers(const std::vector<Buffer> &inputs, const std::vector<Buffer> &outputs) {
  Impl &im = *impl_;
  if (inputs.size() != im.inputs.size()) CountMismatch(im, inputs.size());
  const Buffer &shape = inputs.back();
  const size_t g = FindGear(ShapeValues(shape.data, shape.size, im.model.gears[0].values.size()));
  std::vector<Buffer> ins, outs;
  for (size_t i = 0; i + 1 < inputs.size(); ++i) {
    const size_t need = gear_inputs(g)[i].bytes;
    if (inputs[i].size < need) {
      throw Error(ErrorCategory::kInvalidInput, "OA2206",
                  "input " + std::to_string(i) + " ('" + im.inputs[i].name + "') needs " + std::to_string(need) +
                      " bytes for this gear but its buffer holds " + std::to_string(inputs[i].size),
                  "Size the buffer as the model input (omrun --info lists them)");
    }
    ins.push_back({inputs[i].data, need});
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const size_t need = i < gear_outputs(g).size() ? gear_outputs(g)[i].bytes : 0;
    outs.push_back({outputs[i].data, std::min(need, outputs[i].size)});
  }
  im.current_gear = g;
  im.gear_models[g]->RunWithBuffers(ins, outs);
}

}  // namespace openatc::runtime
