// OpModels: loading single-op OMs and matching an aclopExecute call to one (op_models.h).
#include "op_models.h"

#include <cstring>
#include <filesystem>

#include "mdl_error.h"
#include "openatc/common/dtype.h"
#include "openatc/common/log.h"
#include "openatc/om/model.h"
#include "openatc/om/single_op.h"
#include "openatc/rt/error_state.h"

using openatc::rt::ThrowAcl;

namespace openatc {
namespace mdl {
namespace {

constexpr int kMaxDirLevels = 3;

std::vector<std::vector<int64_t>> RangeOf(const ir::Node &data) {
  auto it = data.attrs.find("_input_shape_range");  // Data node bounds (loader/runtime/src/executor.cc)
  if (it == data.attrs.end() || it->second.kind != ir::AttrKind::kListListInt) return {};
  return it->second.list_list_i;
}

// The op node of a single-op graph, or -1.
int OpNodeOf(const ir::Graph &g) {
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].attrs.count(om::kSingleOpAttrNames)) return static_cast<int>(i);
  return -1;
}

std::string ShapeText(const std::vector<int64_t> &dims) { return ShapeToString(dims); }

std::string IrDescText(const ir::TensorDesc &d) {
  if (!d.valid) return "absent";
  return DataTypeShortName(d.dtype) + " " + FormatName(d.format) + " " + ShapeText(d.shape);
}

// Why `dims` does not fit the model's `want` (with per-dim `range`), or "".
std::string ShapeMismatch(const std::vector<int64_t> &want, const std::vector<std::vector<int64_t>> &range,
                          const std::vector<int64_t> &dims) {
  if (want.size() == 1 && want[0] == -2) return "";
  if (want.size() != dims.size())
    return "rank " + std::to_string(dims.size()) + " for the model's " + ShapeText(want);
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] >= 0) {
      if (dims[i] != want[i]) return "dim " + std::to_string(i) + " is " + std::to_string(dims[i]) + ", the model's " + ShapeText(want);
      continue;
    }
    if (dims[i] < 0) return "dim " + std::to_string(i) + " is unknown (" + std::to_string(dims[i]) + "); give the run's shape";
    if (i < range.size() && range[i].size() == 2 &&
        (dims[i] < range[i][0] || (range[i][1] >= 0 && dims[i] > range[i][1])))
      return "dim " + std::to_string(i) + " = " + std::to_string(dims[i]) + " is outside the model's range [" +
             std::to_string(range[i][0]) + ", " + std::to_string(range[i][1]) + "]";
  }
  return "";
}

std::string Mismatch(const OpModel &m, const std::vector<OpTensorArg> &inputs,
                     const std::vector<const aclTensorDesc *> &outputs, const aclopAttr *attr) {
  if (inputs.size() != m.inputs.size())
    return std::to_string(inputs.size()) + " inputs, the model has " + std::to_string(m.inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OpModelInput &w = m.inputs[i];
    const aclTensorDesc *d = inputs[i].desc;
    const std::string at = "input " + std::to_string(i) + ": ";
    const bool absent = d == nullptr || d->dtype == ACL_DT_UNDEFINED;
    if (!w.desc.valid || absent) {
      if (w.desc.valid != !absent) return at + (absent ? "absent, the model's is " + IrDescText(w.desc) : "given, the model's is absent");
      continue;
    }
    if (static_cast<int>(d->dtype) != static_cast<int>(w.desc.dtype) || static_cast<int>(d->format) != static_cast<int>(w.desc.format))
      return at + DescText(d) + ", the model's is " + IrDescText(w.desc);
    std::string why = ShapeMismatch(w.desc.shape, w.range, d->dims);
    if (!why.empty()) return at + why;
    if (w.model_input < 0) {
      const aclDataBuffer *b = inputs[i].buffer;
      const size_t size = aclGetDataBufferSizeV2(b);
      const void *addr = aclGetDataBufferAddr(b);
      if (size != w.const_value.size || (size > 0 && (addr == nullptr || std::memcmp(addr, w.const_value.data, size) != 0)))
        return at + "the model holds this input as a constant, and the buffer holds other values";
    }
  }
  if (outputs.size() != m.outputs.size())
    return std::to_string(outputs.size()) + " outputs, the model has " + std::to_string(m.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    const aclTensorDesc *d = outputs[i];
    const ir::TensorDesc &w = m.outputs[i];
    const std::string at = "output " + std::to_string(i) + ": ";
    if (d == nullptr) return at + "no description";
    if (static_cast<int>(d->dtype) != static_cast<int>(w.dtype) || static_cast<int>(d->format) != static_cast<int>(w.format))
      return at + DescText(d) + ", the model's is " + IrDescText(w);
    if (ShapeElementCount(w.shape) >= 0 && ShapeElementCount(d->dims) >= 0 && w.shape != d->dims)
      return at + DescText(d) + ", the model's is " + IrDescText(w);
  }
  const std::map<std::string, ir::AttrValue> none;
  const auto &given = attr == nullptr ? none : attr->values;
  for (const auto &[name, value] : m.attrs) {
    auto it = given.find(name);
    if (it == given.end()) return "attr '" + name + "' is not given (the model's: " + AttrText(name, value) + ")";
    if (!SameAttrValue(it->second, value)) return "attr " + AttrText(name, it->second) + ", the model's " + AttrText(name, value);
  }
  for (const auto &[name, value] : given)
    if (!m.attrs.count(name)) return "attr '" + name + "' is not one of the model's";
  return "";
}

}  // namespace

std::string DescText(const aclTensorDesc *d) {
  if (d == nullptr) return "absent";
  return DataTypeShortName(static_cast<ge::DataType>(d->dtype)) + " " + FormatName(static_cast<ge::Format>(d->format)) +
         " " + ShapeText(d->dims);
}

OpModels &OpModels::Instance() {
  static OpModels *models = new OpModels;  // never destroyed: see ModelRegistry::Instance
  return *models;
}

void OpModels::Add(std::unique_ptr<runtime::LoadedModel> model, const std::string &label) {
  const ir::Graph &g = model->model().graph;
  const int op = OpNodeOf(g);
  if (op < 0)
    ThrowAcl(ACL_ERROR_PARSE_MODEL, "'" + label + "' is not a single-op model (it was not built by atc --singleop)",
             "Build single-op models with atc --singleop; run whole models with aclmdlLoadFromFile");
  auto m = std::make_shared<OpModel>();
  m->label = label;
  const ir::Node &node = g.nodes[static_cast<size_t>(op)];
  m->op_type = node.type;
  for (size_t k = 0; k < node.inputs.size(); ++k) {
    OpModelInput in;
    in.desc = k < node.input_descs.size() ? node.input_descs[k] : ir::TensorDesc{};
    const ir::Endpoint e = node.inputs[k];
    if (!e.connected()) {
      in.desc.valid = false;
    } else {
      const ir::Node &src = g.nodes[static_cast<size_t>(e.node)];
      if (src.type == ir::kConst) {
        auto v = src.attrs.find("value");
        if (v != src.attrs.end() && v->second.t) in.const_value = v->second.t->data;
      } else {
        for (size_t j = 0; j < g.inputs.size(); ++j)
          if (g.inputs[j] == e.node) in.model_input = static_cast<int>(j);
        in.range = RangeOf(src);
        if (!src.output_descs.empty()) in.desc = src.output_descs[0];
      }
    }
    m->inputs.push_back(std::move(in));
  }
  for (const ir::Endpoint &e : g.outputs) m->outputs.push_back(g.nodes[static_cast<size_t>(e.node)].output_descs[static_cast<size_t>(e.index)]);
  for (const std::string &name : node.attrs.at(om::kSingleOpAttrNames).list_s) {
    auto it = node.attrs.find(name);
    if (it != node.attrs.end()) m->attrs[name] = it->second;
  }
  m->model = std::move(model);
  std::lock_guard<std::mutex> lock(mutex_);
  models_.push_back(std::move(m));
}

void OpModels::LoadBytes(const void *data, size_t size) {
  std::unique_ptr<runtime::LoadedModel> model;
  try {
    model = runtime::LoadedModel::Load(om::ReadBytes(static_cast<const uint8_t *>(data), size), "<memory model>");
  } catch (const Error &e) {
    ThrowLoadFailure(e);
  }
  Add(std::move(model), "<memory model>");
}

void OpModels::LoadDir(const std::string &dir) {
  namespace fs = std::filesystem;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (dir_set_)
      ThrowAcl(ACL_ERROR_REPEAT_INITIALIZE, "the single-op model folder was already set in this process",
               "Call aclopSetModelDir once; load further models with aclopLoad");
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    ThrowAcl(ACL_ERROR_READ_MODEL_FAILURE, "'" + dir + "' is not a folder that can be read", "Pass the folder atc --singleop wrote");
  std::vector<std::string> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
  if (ec) ThrowAcl(ACL_ERROR_READ_MODEL_FAILURE, "cannot read the folder '" + dir + "': " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) break;
    if (it.depth() >= kMaxDirLevels) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && it->path().extension() == ".om") files.push_back(it->path().string());
    if (it->is_directory(ec) && it.depth() + 1 >= kMaxDirLevels) it.disable_recursion_pending();
  }
  std::sort(files.begin(), files.end());
  for (const std::string &f : files) {
    try {
      std::unique_ptr<runtime::LoadedModel> model;
      try {
        model = runtime::LoadedModel::Load(om::ReadFile(f), f);
      } catch (const Error &e) {
        ThrowLoadFailure(e);
      }
      Add(std::move(model), f);
    } catch (const Error &e) {
      LogWarning("aclopSetModelDir: skipped '" + f + "': " + e.message());
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  dir_set_ = true;
}

std::shared_ptr<OpModel> OpModels::Find(const std::string &op_type, const std::vector<OpTensorArg> &inputs,
                                        const std::vector<const aclTensorDesc *> &outputs, const aclopAttr *attr) const {
  std::vector<std::shared_ptr<OpModel>> candidates;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &m : models_)
      if (m->op_type == op_type) candidates.push_back(m);
  }
  std::string reasons;
  for (const auto &m : candidates) {
    const std::string why = Mismatch(*m, inputs, outputs, attr);
    if (why.empty()) return m;
    reasons += "; '" + m->label + "': " + why;
  }
  std::string asked = "op '" + op_type + "' with inputs (";
  for (size_t i = 0; i < inputs.size(); ++i) asked += (i ? ", " : "") + DescText(inputs[i].desc);
  asked += "), outputs (";
  for (size_t i = 0; i < outputs.size(); ++i) asked += (i ? ", " : "") + DescText(outputs[i]);
  asked += "), attrs {";
  if (attr != nullptr) {
    bool first = true;
    for (const auto &[name, value] : attr->values) asked += (first ? "" : ", ") + AttrText(name, value), first = false;
  }
  asked += "}";
  const std::string text = "no loaded single-op model matches " + asked +
                           (candidates.empty() ? " (no model of that op type is loaded)" : reasons);
  LogError(text);
  ThrowAcl(ACL_ERROR_OP_NOT_FOUND, text,
           "Build a model for this call with atc --singleop and load it with aclopSetModelDir or aclopLoad");
}

}  // namespace mdl
}  // namespace openatc
